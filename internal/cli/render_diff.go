package cli

import (
	"strings"

	"github.com/hermes-hooks/hermes/internal/iostreams"
)

// colorDiff escapes a unified diff's lines (a carriage return and an
// erase-line sequence in an added line must not hide it) and colours them
// at a terminal.
func colorDiff(cs iostreams.Palette, diff string) string {
	diff = escText(diff)
	if !cs.Enabled() {
		return diff
	}
	lines := strings.SplitAfter(diff, "\n")
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			lines[i] = cs.Bold(strings.TrimSuffix(l, "\n")) + "\n"
		case strings.HasPrefix(l, "+"):
			lines[i] = cs.Green(strings.TrimSuffix(l, "\n")) + "\n"
		case strings.HasPrefix(l, "-"):
			lines[i] = cs.Red(strings.TrimSuffix(l, "\n")) + "\n"
		case strings.HasPrefix(l, "@@"):
			lines[i] = cs.Cyan(strings.TrimSuffix(l, "\n")) + "\n"
		}
	}
	return strings.Join(lines, "")
}
