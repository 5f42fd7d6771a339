package hookspec

import "strings"

// ExpandHome expands a leading "~" (alone or before "/") or "${HOME}" of a
// command to home. It is how a shell reads a "~" typed unquoted on a command
// line, so a command typed that way can be compared with the configured one.
func ExpandHome(cmd, home string) string {
	switch {
	case cmd == "~" || strings.HasPrefix(cmd, "~/"):
		return home + cmd[1:]
	case strings.HasPrefix(cmd, "${HOME}"):
		return home + cmd[len("${HOME}"):]
	}
	return cmd
}

// Typed finds the hooks a command typed on a command line names once a
// leading "~" or "${HOME}" is expanded on both sides (SPEC §28 item 1): the
// shell expands an unquoted "~/.hermes/x.sh" to "/home/u/.hermes/x.sh",
// which no configured "~/.hermes/x.sh" equals. event, when not "", keeps
// only that event's hooks.
//
// exact is true when some hook is named by typed as it is (Spec.Names):
// nothing needs resolving. Otherwise found holds one spec per distinct
// (event, configured command) pair that matches after expansion, and
// configured[i] is the command, as configured, that found[i] is named by:
// the string a caller records and matches with. A caller uses the result
// only when exactly one pair matched.
func Typed(specs []Spec, typed, event, home string) (exact bool, found []Spec, configured []string) {
	for _, s := range specs {
		if (event == "" || s.Event == event) && s.Names(typed) {
			return true, nil, nil
		}
	}
	want := ExpandHome(typed, home)
	if want == typed && !strings.HasPrefix(typed, home+"/") {
		// Nothing to expand on this side; the other side may still hold a
		// "~" (the configured "~/x.sh" for a typed "/home/u/x.sh"), which
		// only a typed path below home can equal.
		return false, nil, nil
	}
	seen := map[[2]string]bool{}
	for _, s := range specs {
		if event != "" && s.Event != event {
			continue
		}
		for _, form := range s.typedForms() {
			if ExpandHome(form, home) != want {
				continue
			}
			if key := [2]string{s.Event, form}; !seen[key] {
				seen[key] = true
				found, configured = append(found, s), append(configured, form)
			}
			break
		}
	}
	return false, found, configured
}

// typedForms are the strings a hook is named by, the user's first: the
// command as written, as expanded, and for a protected hook the command
// its guard runs.
func (s Spec) typedForms() []string {
	forms := []string{s.Shown()}
	if s.Written != "" {
		forms = append(forms, s.Command)
	}
	if s.Protected() {
		forms = append(forms, s.InnerShown())
		if s.InnerWritten != "" {
			forms = append(forms, s.Inner)
		}
	}
	return forms
}
