package cases

import (
	"fmt"
	"strings"
)

// Problem is one thing wrong with a case file, at a place.
type Problem struct {
	File string
	Line int // 0 when the problem is the whole file
	// Field is the place in the file: "cases[2]", "cases[2].expect.action";
	// "" for the whole file.
	Field   string
	Message string
}

func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
	}
	if p.Field != "" {
		b.WriteString(": " + p.Field)
	}
	return b.String() + ": " + p.Message
}

// Error is a case file that cannot be used: every problem found, in file
// order. Nothing of such a file runs.
type Error struct{ Problems []Problem }

func (e *Error) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}
