package hooks

import (
	"slices"
	"strings"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/answer"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/config/edit"
	"github.com/hermes-hooks/hermes/internal/guard"
	"github.com/hermes-hooks/hermes/internal/hookspec"
	"github.com/hermes-hooks/hermes/internal/pystr"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// PlanFailClosed is protect --fail-closed for the pre_tool_call hooks of
// specs that are protected already but whose guard lacks --fail-closed
// (SPEC §25): the flag is added to the guard command as written (its
// other flags kept) and the approval carried over to the new command.
// A hook whose wrapped command is not approved is refused.
func (s *Setup) PlanFailClosed(specs []hookspec.Spec, list *allowlist.List, env config.Env) ([]Rewrap, []Refused) {
	var plan []Rewrap
	var refused []Refused
	for _, spec := range specs {
		if !spec.Protected() || spec.Event != answer.EventPreToolCall || spec.Guard.FailClosed {
			continue
		}
		written := spec.Shown()
		inner, _, _ := guard.Unwrap(written)
		to, ok := withFailClosedFlag(written)
		if !ok {
			continue
		}
		r := Rewrap{Event: spec.Event, From: written, To: to}
		if list != nil {
			r.Old, r.HasOld = list.Find(spec.Event, spec.Command)
		}
		if !r.HasOld {
			refused = append(refused, Refused{spec.Event, inner, "not approved; approve it first with: hermes hooks accept " + shell.Quote(inner)})
			continue
		}
		r.New = carried(r.Old, spec.Event, pystr.Strip(config.ExpandEnv(to, env)), allowlist.ViaProtect)
		plan = append(plan, r)
	}
	return plan, refused
}

// withFailClosedFlag is a guard command as written with --fail-closed
// added before its " -- " (its other flags kept); ok false when it does not
// read as a guard command.
func withFailClosedFlag(written string) (string, bool) {
	inner, _, ok := guard.Unwrap(written)
	if !ok {
		return "", false
	}
	head := strings.TrimRight(strings.TrimSuffix(written, inner), " ")
	if !strings.HasSuffix(head, " --") {
		return "", false
	}
	return strings.TrimSuffix(head, " --") + " --fail-closed -- " + inner, true
}

// WithFailClosed adds more (PlanFailClosed) to plan: a hook plan rewrites
// already (re-pointed to another guard) gets the flag in its new command
// instead of a second rewrite.
func WithFailClosed(plan, more []Rewrap, env config.Env) []Rewrap {
	for _, m := range more {
		i := slices.IndexFunc(plan, func(r Rewrap) bool { return r.Event == m.Event && r.From == m.From })
		if i < 0 {
			plan = append(plan, m)
			continue
		}
		if to, ok := withFailClosedFlag(plan[i].To); ok {
			plan[i].To = to
			if plan[i].HasOld {
				plan[i].New.Command = pystr.Strip(config.ExpandEnv(to, env))
			}
		}
	}
	return plan
}

// SetFailClosed sets fail_closed: true on the pre_tool_call hooks of src
// whose command as written is one of commands, comments and every other
// byte kept.
func SetFailClosed(src []byte, commands map[string]bool) ([]byte, error) {
	d, err := edit.Parse(src)
	if err != nil {
		return nil, err
	}
	out, _, err := d.SetTrue([]string{"hooks"}, "fail_closed", func(key string, _ int, command string) bool {
		return key == answer.EventPreToolCall && commands[pystr.Strip(command)]
	})
	return out, err
}
