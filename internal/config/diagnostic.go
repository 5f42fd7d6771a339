package config

import "fmt"

// Diagnostic is a problem found in a file the user wrote: where it is (a
// dotted path such as hooks.pre_tool_call[0].timeout, the file and line) and
// what is wrong. Diagnostics never stop a command: the bad part is skipped.
type Diagnostic struct {
	Level   string `json:"level"` // "warning", "error" or "info" (not a problem)
	Path    string `json:"path"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
	// Advisory marks a warning that is not a problem (doctor does not
	// count it): something the agent reads its own way without losing
	// the hook, such as a misspelled key or a clamped timeout (SPEC §28).
	Advisory bool `json:"-"`
}

// Problem reports whether doctor counts the diagnostic as a problem.
func (d Diagnostic) Problem() bool { return d.Level != LevelInfo && !d.Advisory }

// String renders the diagnostic as "file:line: path: message".
func (d Diagnostic) String() string {
	loc := d.File
	if d.Line > 0 {
		loc = fmt.Sprintf("%s:%d", d.File, d.Line)
	}
	if d.Path != "" {
		return fmt.Sprintf("%s: %s: %s", loc, d.Path, d.Message)
	}
	return fmt.Sprintf("%s: %s", loc, d.Message)
}

// LevelInfo marks a diagnostic that explains what happens without being a
// problem (doctor does not count it).
const LevelInfo = "info"
