package cli

import (
	"errors"
	"os"

	"github.com/AlecAivazis/survey/v2"
	"github.com/AlecAivazis/survey/v2/core"
	"github.com/AlecAivazis/survey/v2/terminal"

	"github.com/hermes-hooks/hermes/internal/iostreams"
)

// Prompter asks a person at a terminal.
type Prompter interface {
	// Confirm asks a yes/no question; def is the answer on Enter.
	Confirm(message, help string, def bool) (bool, error)
	// MultiSelect lets the person pick any of options; it returns the
	// indexes picked.
	MultiSelect(message string, options []string, description func(i int) string) ([]int, error)
}

// errNoTerminal is returned when a prompt is attempted off a terminal;
// callers check IOStreams.CanPrompt first, so it means a bug.
var errNoTerminal = errors.New("cannot ask: standard input and output are not a terminal")

// surveyPrompter prompts with survey on the real terminal: it reads the
// keys from standard input and draws the question on standard output, the
// stream the context printed before the question (hook, script, diff) went
// to, so the two always appear together.
type surveyPrompter struct{ io *iostreams.IOStreams }

func (p *surveyPrompter) stdio() (survey.AskOpt, error) {
	in, out, ok := p.io.Terminal()
	if !ok {
		return nil, errNoTerminal
	}
	// survey only looks at NO_COLOR when it is non-empty, and knows nothing
	// of --no-color: follow our own decision instead.
	core.DisableColor = !p.io.ColorEnabled() || out != p.io.Out
	errOut, isFile := p.io.ErrOut.(*os.File)
	if !isFile {
		errOut = out
	}
	return survey.WithStdio(in, out, errOut), nil
}

func (p *surveyPrompter) Confirm(message, help string, def bool) (bool, error) {
	stdio, err := p.stdio()
	if err != nil {
		return false, err
	}
	answer := def
	err = survey.AskOne(&survey.Confirm{Message: message, Help: help, Default: def}, &answer, stdio)
	return answer, promptErr(err)
}

func (p *surveyPrompter) MultiSelect(message string, options []string, description func(int) string) ([]int, error) {
	stdio, err := p.stdio()
	if err != nil {
		return nil, err
	}
	var picked []int
	q := &survey.MultiSelect{Message: message, Options: options, PageSize: 15}
	if description != nil {
		q.Description = func(_ string, i int) string { return description(i) }
	}
	err = survey.AskOne(q, &picked, stdio)
	return picked, promptErr(err)
}

// promptErr turns survey's Ctrl-C into our cancel error.
func promptErr(err error) error {
	if errors.Is(err, terminal.InterruptErr) {
		return CancelError
	}
	return err
}
