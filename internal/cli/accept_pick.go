package cli

import (
	"fmt"
	"strings"

	"github.com/hermes-hooks/hermes/internal/hooks"
)

// pickPending shows the pending hooks as a multi-select and returns the
// ones chosen with the hash of the content shown for each. Before the
// checklist each hook is shown: the first lines of a never-approved script,
// the diff of a modified one. A hook whose script cannot be read is listed
// but cannot be ticked (it would pin nothing, SPEC §13.3). When a chosen
// script changed while the checklist was open, nothing is approved for it:
// the person is told and asked again with the new content.
func pickPending(f *Factory, s *hooks.Setup, pend []hooks.ShellHook) ([]hooks.ShellHook, []string, error) {
	w := f.IO.PromptOut()
	var chosen []hooks.ShellHook
	var hashes []string
	for len(pend) > 0 {
		var offer []hooks.Shown
		fmt.Fprintln(w, "Commands run with your full user credentials. Only approve commands you trust.")
		for _, h := range pend {
			if reason := unreadable(h); reason != "" {
				fmt.Fprintf(w, "\n%s  %s  [cannot be approved: %s]\n", esc(h.Event), escCmd(h.Shown()), esc(reason))
				continue
			}
			sh := s.Show(h)
			offer = append(offer, sh)
			fmt.Fprintf(w, "\n%s  %s  [%s]  script: %s\n", esc(h.Event), escCmd(h.Shown()), pendingState(h), esc(h.Script))
			fmt.Fprint(w, renderShown(f, sh, "    "))
			fmt.Fprint(w, renderCode(h.Code, hashOf(s), "    "))
		}
		if len(offer) == 0 {
			return chosen, hashes, nil
		}
		options := make([]string, len(offer))
		for i, sh := range offer {
			options[i] = fmt.Sprintf("%s  %s  [%s]", esc(sh.Hook.Event), escCmd(sh.Hook.Shown()), pendingState(sh.Hook))
		}
		describe := func(i int) string { return "script: " + esc(orNone(offer[i].Hook.Script)) }
		picked, err := f.Prompter.MultiSelect("Approve which hooks?", options, describe)
		if err != nil {
			return nil, nil, err
		}
		pend = nil
		for _, i := range picked {
			sh := offer[i]
			if sh.Changed() {
				fmt.Fprintf(w, "\n%s %s changed while you were reading: nothing was approved for it. Here it is again.\n\n", f.IO.Colors().WarningIcon(), esc(sh.Hook.Script))
				pend = append(pend, sh.Hook)
				continue
			}
			chosen = append(chosen, sh.Hook)
			hashes = append(hashes, sh.SHA256())
		}
	}
	return chosen, hashes, nil
}

func pendingState(h hooks.ShellHook) string {
	if h.Approved {
		// Short enough for one line of the checklist: the changed files
		// are listed above it.
		if r := h.Reason(); strings.HasPrefix(r, hooks.SkipModified+" (") {
			return hooks.SkipModified
		}
		return h.Reason()
	}
	return "never approved"
}
