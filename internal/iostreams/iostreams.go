// Package iostreams owns the three standard streams, terminal detection and
// colour. Every byte the program prints goes through an IOStreams.
package iostreams

import (
	"bytes"
	"io"
	"os"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// IOStreams are the program's input and outputs plus what is known about
// them (are they terminals, may we colour).
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	stdinTTY  bool
	stdoutTTY bool
	stderrTTY bool
	noColor   bool
	// promptOnStderr: prompts talk on stderr, keeping stdout for a
	// machine-readable document (--json).
	promptOnStderr bool
}

// InputWaiting reports whether stdin, a regular file, pipe or socket,
// holds bytes not read yet, without reading them. A terminal, /dev/null or
// an empty pipe hold nothing; so does an In that is not a file.
func (s *IOStreams) InputWaiting() bool {
	f, ok := s.In.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	if err != nil {
		return false
	}
	switch mode := info.Mode(); {
	case mode.IsRegular():
		pos, err := f.Seek(0, io.SeekCurrent)
		return err == nil && pos < info.Size()
	case mode&(os.ModeNamedPipe|os.ModeSocket) != 0:
		rc, err := f.SyscallConn()
		if err != nil {
			return false
		}
		n := 0
		if rc.Control(func(fd uintptr) { n, err = unix.IoctlGetInt(int(fd), unix.TIOCINQ) }) != nil || err != nil {
			return false
		}
		return n > 0
	}
	return false
}

// System returns the process's streams.
func System() *IOStreams {
	s := &IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
	s.stdinTTY = isTerminal(os.Stdin)
	s.stdoutTTY = isTerminal(os.Stdout)
	s.stderrTTY = isTerminal(os.Stderr)
	// no-color.org: present and not empty.
	if os.Getenv("NO_COLOR") != "" {
		s.noColor = true
	}
	return s
}

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// Test returns streams backed by buffers, none of them a terminal.
func Test() (s *IOStreams, in, out, errOut *bytes.Buffer) {
	in, out, errOut = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: in, Out: out, ErrOut: errOut}, in, out, errOut
}

// SetTTY marks all three streams as terminals or not (tests).
func (s *IOStreams) SetTTY(tty bool) { s.stdinTTY, s.stdoutTTY, s.stderrTTY = tty, tty, tty }

// SetNoColor turns colour off (--no-color).
func (s *IOStreams) SetNoColor(off bool) { s.noColor = s.noColor || off }

// IsStdoutTTY reports whether stdout is a terminal.
func (s *IOStreams) IsStdoutTTY() bool { return s.stdoutTTY }

// SetPromptOnStderr makes prompts (and what is shown before them) use
// stderr, so stdout carries only the --json document.
func (s *IOStreams) SetPromptOnStderr(on bool) { s.promptOnStderr = on }

// PromptOut is where a prompt and its context are written.
func (s *IOStreams) PromptOut() io.Writer {
	if s.promptOnStderr {
		return s.ErrOut
	}
	return s.Out
}

// CanPrompt reports whether a person can answer a prompt: standard input
// and the prompt's output are both terminals.
func (s *IOStreams) CanPrompt() bool {
	if s.promptOnStderr {
		return s.stdinTTY && s.stderrTTY
	}
	return s.stdinTTY && s.stdoutTTY
}

// ColorEnabled reports whether stdout may carry colour codes.
func (s *IOStreams) ColorEnabled() bool { return s.stdoutTTY && !s.noColor }

// Terminal returns the prompt's input and output as files for a prompt
// library, when they are terminals.
func (s *IOStreams) Terminal() (in *os.File, out *os.File, ok bool) {
	in, okIn := s.In.(*os.File)
	out, okOut := s.PromptOut().(*os.File)
	return in, out, okIn && okOut && s.CanPrompt()
}

// Colors returns a palette that is a no-op when colour is off.
func (s *IOStreams) Colors() Palette { return Palette{on: s.ColorEnabled()} }

// ErrColors is the palette for stderr.
func (s *IOStreams) ErrColors() Palette { return Palette{on: s.stderrTTY && !s.noColor} }

// Palette colours text and gives the status symbols.
type Palette struct{ on bool }

func (p Palette) wrap(code, text string) string {
	if !p.on {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

func (p Palette) Green(s string) string  { return p.wrap("32", s) }
func (p Palette) Red(s string) string    { return p.wrap("31", s) }
func (p Palette) Yellow(s string) string { return p.wrap("33", s) }
func (p Palette) Cyan(s string) string   { return p.wrap("36", s) }
func (p Palette) Bold(s string) string   { return p.wrap("1", s) }
func (p Palette) Gray(s string) string   { return p.wrap("90", s) }

// Enabled reports whether the palette emits colour codes.
func (p Palette) Enabled() bool { return p.on }

// The status symbols of every human report. They are printed with or
// without colour; the agent's users know them.
func (p Palette) SuccessIcon() string { return p.Green("✓") }
func (p Palette) WarningIcon() string { return p.Yellow("⚠") }
func (p Palette) FailureIcon() string { return p.Red("✗") }
func (p Palette) InfoIcon() string    { return p.Cyan("ℹ") }
