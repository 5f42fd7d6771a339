package cli

import (
	"fmt"

	"github.com/hermes-hooks/hermes/internal/hooks"
)

// pickPending shows the pending hooks as a multi-select and returns the
// ones chosen. Each option names the event, the command and why it is
// pending; its description is the script that will run. The diffs of the
// modified ones come first, so the person sees what changed before choosing.
func pickPending(f *Factory, s *hooks.Setup, pend []hooks.ShellHook) ([]hooks.ShellHook, error) {
	if len(pend) == 0 {
		return nil, nil
	}
	options := make([]string, len(pend))
	for i, h := range pend {
		state := "never approved"
		if h.Approved {
			state = "modified since approval"
		}
		options[i] = fmt.Sprintf("%s  %s  [%s]", esc(h.Event), esc(h.Shown()), state)
	}
	describe := func(i int) string { return "script: " + esc(orNone(pend[i].Script)) }
	w := f.IO.PromptOut()
	fmt.Fprintln(w, "Commands run with your full user credentials. Only approve commands you trust.")
	for _, h := range pend {
		if h.Approved {
			if d := scriptDiff(f, s, h); d != "" {
				fmt.Fprintf(w, "\n%s (%s) changed since approval:\n%s\n", esc(h.Shown()), esc(h.Event), d)
			}
		}
	}
	picked, err := f.Prompter.MultiSelect("Approve which hooks?", options, describe)
	if err != nil {
		return nil, err
	}
	out := make([]hooks.ShellHook, 0, len(picked))
	for _, i := range picked {
		out = append(out, pend[i])
	}
	return out, nil
}
