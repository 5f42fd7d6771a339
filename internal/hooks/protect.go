package hooks

import (
	"fmt"
	"strings"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/config/edit"
	"github.com/hermes-hooks/hermes/internal/guard"
	"github.com/hermes-hooks/hermes/internal/hookspec"
	"github.com/hermes-hooks/hermes/internal/pystr"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// Rewrap is one hook protect or unprotect changes: its command as written
// now (From) and after (To), and the approval carried over from the old
// command (Old, "" Command when there was none) to the new one (New).
type Rewrap struct {
	Event    string
	From, To string // as written in the config
	Old, New allowlist.Entry
	HasOld   bool
	// Repointed: a protected hook whose guard moved to the one beside the
	// running hermes (PlanRepoint); InnerWritten is the command it guards.
	Repointed    bool
	InnerWritten string
	// Script is the file the hook's command runs, as its decision found it
	// ("" for none): protect's fail-closed advice reads it without deciding
	// again (SPEC §29 item 2).
	Script string
}

// Inner is the command the guard runs, as written: From for protect, To
// for unprotect.
func (r Rewrap) Inner(protect bool) string {
	if r.Repointed {
		return r.InnerWritten
	}
	if protect {
		return r.From
	}
	return r.To
}

// Wrapped is the guarded command as written.
func (r Rewrap) Wrapped(protect bool) string {
	if protect {
		return r.To
	}
	return r.From
}

// Refused is a hook protect leaves alone, and why.
type Refused struct {
	Event, Command, Reason string
}

// PlanProtect decides, for each spec, whether it can be protected with the
// guard at guardPath (SPEC §17): approved, pinned to a sha256, and its
// script what was approved and safe as the guard judges it; else it is
// refused with the reason. Hooks already protected are left out.
//
// A hook whose code cannot be pinned (SPEC §23) is refused unless force:
// it is then protected as its command string, and Forced names it.
func (s *Setup) PlanProtect(specs []hookspec.Spec, list *allowlist.List, guardPath string, env config.Env, force bool) (plan []Rewrap, refused []Refused, forced []Refused) {
	plan = make([]Rewrap, 0, len(specs)) // a Rewrap is large: grown by doubling, 100,000 of them were 200 MB
	unprotected := func(spec *hookspec.Spec) bool { return !spec.Protected() }
	inspectedInOrder(specs, list, unprotected, s.InspectAsGuardTo, func(h *ShellHook) {
		spec := &h.Spec
		written := spec.Shown()
		refuse := func(reason string) { refused = append(refused, Refused{spec.Event, written, reason}) }
		switch {
		case h.ParseErr != nil:
			refuse(h.ParseErr.Error())
			return
		case !h.Approved:
			refuse("not approved; approve it first with: hermes hooks accept " + shell.Quote(written))
			return
		case !h.Approval.Pinned() && !h.Approval.HasCode():
			refuse("approved without a sha256 of its script, which the guard needs; approve it again with: hermes hooks accept " + shell.Quote(written))
			return
		case !h.Allowed():
			refuse(h.Reason() + "; review it with: hermes hooks diff " + shell.Quote(written) + ", approve it with: hermes hooks accept " + shell.Quote(written) + ", then protect it")
			return
		}
		if why := notPinnable(*h); why != "" {
			if !force {
				refuse("the code behind this command cannot be pinned: " + why + "; the guard could only check the command string (protect it so with --force)")
				return
			}
			forced = append(forced, Refused{spec.Event, written, why})
		}
		to := guard.Wrap(guardPath, spec.Event, spec.FailClosed, written)
		r := Rewrap{Event: spec.Event, From: written, To: to, Old: h.Approval, HasOld: true, Script: h.Script}
		r.New = carried(h.Approval, spec.Event, pystr.Strip(config.ExpandEnv(to, env)), allowlist.ViaProtect)
		plan = append(plan, r)
	})
	return plan, refused, forced
}

// notPinnable says why the hook's code cannot be pinned (SPEC §23), ""
// when it can: the code now, or what its approval recorded.
func notPinnable(h ShellHook) string {
	switch {
	case h.NoScript:
		return ""
	case h.Approval.Unpinnable != "":
		return h.Approval.Unpinnable
	case !h.Code.Pinnable:
		return h.Code.Reason
	}
	return ""
}

// PlanRepoint plans, for each protected spec whose guard is another path
// than guardPath (the one beside the running hermes: after `make install`,
// the config still names the checkout's), the same command with guardPath
// in front (SPEC §28 item 4). Every other word is kept, dialect flags
// included, and the approval of the wrapped command, when there is one, is
// carried over to the new one as it is: the same sha256, so nothing is
// approved that was not. A command whose guard word cannot be found as
// written is left alone.
func (s *Setup) PlanRepoint(specs []hookspec.Spec, list *allowlist.List, guardPath string, env config.Env) []Rewrap {
	var plan []Rewrap
	for _, spec := range specs {
		if !spec.Protected() || spec.Guard.Guard == guardPath {
			continue
		}
		written := spec.Shown()
		var rest string
		var ok bool
		for _, w := range []string{shell.Quote(spec.Guard.Guard), spec.Guard.Guard} {
			if rest, ok = strings.CutPrefix(written, w+" "); ok {
				break
			}
		}
		if !ok {
			continue
		}
		to := shell.Quote(guardPath) + " " + rest
		r := Rewrap{Event: spec.Event, From: written, To: to, Repointed: true, InnerWritten: spec.InnerShown()}
		if list != nil {
			r.Old, r.HasOld = list.Find(spec.Event, spec.Command)
		}
		if r.HasOld {
			r.New = carried(r.Old, spec.Event, pystr.Strip(config.ExpandEnv(to, env)), allowlist.ViaProtect)
		}
		plan = append(plan, r)
	}
	return plan
}

// PlanUnprotect is protect reversed: each protected spec gets back the
// command its guard runs, and the approval of the wrapped command, if any,
// is carried back.
func (s *Setup) PlanUnprotect(specs []hookspec.Spec, list *allowlist.List, env config.Env) []Rewrap {
	plan := make([]Rewrap, 0, len(specs))
	for _, spec := range specs {
		if !spec.Protected() {
			continue
		}
		inner, _, ok := guard.Unwrap(spec.Shown())
		if !ok {
			continue
		}
		r := Rewrap{Event: spec.Event, From: spec.Shown(), To: inner}
		if list != nil {
			r.Old, r.HasOld = list.Find(spec.Event, spec.Command)
		}
		if r.HasOld {
			r.New = carried(r.Old, spec.Event, pystr.Strip(config.ExpandEnv(inner, env)), allowlist.ViaUnprotect)
		}
		plan = append(plan, r)
	}
	return plan
}

// carried is old's approval for another command of event: the same
// approved_at, mtime and pins. When an entry records more pins (SPEC §23's
// code), they are carried here too.
func carried(old allowlist.Entry, event, command, via string) allowlist.Entry {
	return allowlist.Entry{Event: event, Command: command, ApprovedAt: old.ApprovedAt, ApprovedVia: via,
		ScriptMtime: old.ScriptMtime, ScriptSHA256: old.ScriptSHA256, Code: old.Code, Unpinnable: old.Unpinnable}
}

// RewriteCommands returns src with the command of every shell hook in the
// plan rewritten (matched by event and command as written), comments and
// every other byte kept.
func RewriteCommands(src []byte, plan []Rewrap) ([]byte, error) {
	to := map[[2]string]string{}
	for _, r := range plan {
		to[[2]string{r.Event, r.From}] = r.To
	}
	d, err := edit.Parse(src)
	if err != nil {
		return nil, err
	}
	out, _, err := d.Replace([]string{"hooks"}, "command", func(key string, _ int, old string) (string, bool) {
		if key == hookspec.OutboundKey || key == hookspec.OutputSpillKey {
			return "", false
		}
		nv, ok := to[[2]string{key, pystr.Strip(old)}]
		return nv, ok
	})
	return out, err
}

// GuardProblem says what is wrong with a protected hook's guard (SPEC §17
// doctor), "" when nothing: missing, not executable, not safely owned
// (rule 5 for the binary and its folders), or flags that disagree with the
// config entry.
func (s *Setup) GuardProblem(spec hookspec.Spec) string {
	inv := spec.Guard
	if inv == nil {
		return ""
	}
	if inv.Event != spec.Event {
		return fmt.Sprintf("its guard is for event %q but the hook is under %s; protect it again: hermes hooks unprotect, then protect", inv.Event, spec.Event)
	}
	if inv.FailClosed != spec.FailClosed {
		return fmt.Sprintf("its guard says --fail-closed=%v but the entry says fail_closed: %v; protect it again: hermes hooks unprotect, then protect", inv.FailClosed, spec.FailClosed)
	}
	if err := s.checkExecutable(inv.Guard, true); err != nil {
		return fmt.Sprintf("its guard %s cannot run: %v; install hermes-guard beside hermes, or unprotect the hook", inv.Guard, err)
	}
	if err := s.SafePaths().Check(inv.Guard); err != nil {
		return fmt.Sprintf("its guard %s is not safe: %v", inv.Guard, err)
	}
	return ""
}
