package cli

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/AlecAivazis/survey/v2"
	"github.com/AlecAivazis/survey/v2/core"
	"github.com/AlecAivazis/survey/v2/terminal"
	"golang.org/x/term"

	"github.com/hermes-hooks/hermes/internal/iostreams"
)

// Prompter asks a person at a terminal.
type Prompter interface {
	// Confirm asks a yes/no question; def is the answer on Enter.
	Confirm(message, help string, def bool) (bool, error)
	// MultiSelect lets the person pick any of options; it returns the
	// indexes picked.
	MultiSelect(message string, options []string, description func(i int) string) ([]int, error)
	// Select lets the person pick one of options; it returns its index.
	Select(message string, options []string) (int, error)
}

// errNoTerminal is returned when a prompt is attempted off a terminal;
// callers check IOStreams.CanPrompt first, so it means a bug.
var errNoTerminal = errors.New("cannot ask: standard input and output are not a terminal")

// surveyPrompter prompts with survey on the real terminal: it reads the
// keys from standard input and draws the question on standard output, the
// stream the context printed before the question (hook, script, diff) went
// to, so the two always appear together.
type surveyPrompter struct {
	io *iostreams.IOStreams
	// ctx is the invocation's: done on SIGINT or SIGTERM.
	ctx context.Context
}

// SetContext makes every prompt end with CancelError when ctx is done.
func (p *surveyPrompter) SetContext(ctx context.Context) { p.ctx = ctx }

// ask runs one survey question. survey reads the terminal in raw mode, so
// Ctrl-C typed is a key it handles, but a SIGINT or SIGTERM sent with kill
// only cancels the context while survey keeps waiting for a key: the
// question runs beside a wait for the context, and on cancellation the
// terminal's mode and cursor are restored before returning (the goroutine
// still blocked on the read ends with the process).
func (p *surveyPrompter) ask(q func(survey.AskOpt) error) error {
	stdio, in, out, err := p.stdio()
	if err != nil {
		return err
	}
	ctx := p.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	if ctx.Err() != nil {
		return CancelError
	}
	fd := int(in.Fd())
	state, _ := term.GetState(fd)
	answered := make(chan error, 1)
	go func() { answered <- q(stdio) }()
	select {
	case err := <-answered:
		return promptErr(err)
	case <-ctx.Done():
		if state != nil {
			_ = term.Restore(fd, state)
		}
		fmt.Fprint(out, "\x1b[?25h\n") // survey hides the cursor in lists
		return CancelError
	}
}

func (p *surveyPrompter) stdio() (survey.AskOpt, *os.File, *os.File, error) {
	in, out, ok := p.io.Terminal()
	if !ok {
		return nil, nil, nil, errNoTerminal
	}
	// survey only looks at NO_COLOR when it is non-empty, and knows nothing
	// of --no-color: follow our own decision instead.
	core.DisableColor = !p.io.ColorEnabled() || out != p.io.Out
	errOut, isFile := p.io.ErrOut.(*os.File)
	if !isFile {
		errOut = out
	}
	return survey.WithStdio(in, out, errOut), in, out, nil
}

func (p *surveyPrompter) Confirm(message, help string, def bool) (bool, error) {
	answer := def
	err := p.ask(func(stdio survey.AskOpt) error {
		return survey.AskOne(&survey.Confirm{Message: message, Help: help, Default: def}, &answer, stdio)
	})
	if err != nil {
		return false, err
	}
	return answer, nil
}

func (p *surveyPrompter) MultiSelect(message string, options []string, description func(int) string) ([]int, error) {
	var picked []int
	q := &survey.MultiSelect{Message: message, Options: options, PageSize: 15}
	if description != nil {
		q.Description = func(_ string, i int) string { return description(i) }
	}
	err := p.ask(func(stdio survey.AskOpt) error { return survey.AskOne(q, &picked, stdio) })
	if err != nil {
		return nil, err
	}
	return picked, nil
}

func (p *surveyPrompter) Select(message string, options []string) (int, error) {
	var picked int
	q := &survey.Select{Message: message, Options: options, PageSize: 15}
	err := p.ask(func(stdio survey.AskOpt) error { return survey.AskOne(q, &picked, stdio) })
	if err != nil {
		return 0, err
	}
	return picked, nil
}

// promptErr turns survey's Ctrl-C into our cancel error.
func promptErr(err error) error {
	if errors.Is(err, terminal.InterruptErr) {
		return CancelError
	}
	return err
}
