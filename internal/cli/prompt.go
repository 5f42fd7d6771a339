package cli

import (
	"errors"
	"os"

	"github.com/AlecAivazis/survey/v2"
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

// surveyPrompter prompts with survey on the real terminal.
type surveyPrompter struct{ io *iostreams.IOStreams }

func (p *surveyPrompter) stdio() survey.AskOpt {
	in, _ := p.io.In.(*os.File)
	out, _ := p.io.Out.(*os.File)
	errOut, _ := p.io.ErrOut.(*os.File)
	if errOut == nil {
		errOut = out
	}
	return survey.WithStdio(in, out, errOut)
}

func (p *surveyPrompter) Confirm(message, help string, def bool) (bool, error) {
	answer := def
	err := survey.AskOne(&survey.Confirm{Message: message, Help: help, Default: def}, &answer, p.stdio())
	return answer, promptErr(err)
}

func (p *surveyPrompter) MultiSelect(message string, options []string, description func(int) string) ([]int, error) {
	var picked []int
	q := &survey.MultiSelect{Message: message, Options: options, PageSize: 15}
	if description != nil {
		q.Description = func(_ string, i int) string { return description(i) }
	}
	err := survey.AskOne(q, &picked, p.stdio())
	return picked, promptErr(err)
}

// promptErr turns survey's Ctrl-C into our cancel error.
func promptErr(err error) error {
	if errors.Is(err, terminal.InterruptErr) {
		return CancelError
	}
	return err
}
