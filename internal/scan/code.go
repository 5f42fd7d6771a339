package scan

import (
	"github.com/hermes-hooks/hermes/internal/code"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// CodeRequest asks for the code of one hook's command (SPEC §23).
type CodeRequest struct {
	Command string
	// Shell: the agent runs Command as `sh -c Command`; otherwise it is
	// split into words and run directly (Hermes, §4), or it is a path.
	Shell bool
	// Dir is the folder the command runs in; Checkout the project folder
	// ($CLAUDE_PROJECT_DIR); Home and Path what ~ and a bare program name
	// resolve through.
	Dir, Checkout, Home, Path string
}

// Code is what a code finder found: files by absolute path (System set for
// files trusted by ownership), and whether that is all of it.
type Code struct {
	Files    []CodeFile
	Pinnable bool
	Reason   string
}

// CodeFinder finds the code of a command without running anything:
// DefaultCodeFinder unless a test needs another.
type CodeFinder func(CodeRequest) Code

// DefaultCodeFinder is SPEC §23's code finder (internal/code), asked the
// way each agent runs the command: a command an agent runs with the shell
// is read as `cd DIR && COMMAND` (the agents start it in the project
// folder, which is what makes ./x.sh mean the checkout's file), a Hermes
// command as the argv §4 splits it into (the agent runs it in whatever
// folder it works in: a relative script is not pinnable).
func DefaultCodeFinder(req CodeRequest) Code {
	env := code.Env{PATH: req.Path, Home: req.Home, ProjectDir: req.Checkout}
	var c code.Code
	if req.Shell {
		c = code.FindShell("cd "+shell.Quote(req.Dir)+" && "+req.Command, env)
	} else {
		c = code.Find(req.Command, env)
	}
	out := Code{Pinnable: c.Pinnable, Reason: c.Reason}
	for _, f := range c.Files {
		out.Files = append(out.Files, CodeFile{Path: f.Path, System: f.System})
	}
	return out
}
