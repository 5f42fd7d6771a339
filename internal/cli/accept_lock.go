package cli

import (
	"fmt"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/lockfile"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/shell"
	"github.com/spf13/cobra"
)

// acceptLockJSON is accept --from-lock --json: what was approved, what was
// already approved as the lock says, what was refused and why.
type acceptLockJSON struct {
	whereJSON
	Lock            string             `json:"lock"`
	Approved        []approvedHookJSON `json:"approved"`
	AlreadyApproved []approvedHookJSON `json:"already_approved"`
	Refused         []refusedHookJSON  `json:"refused"`
}

type refusedHookJSON struct {
	Event string `json:"event"`
	commandJSON
	Reason string `json:"reason"`
}

// Reasons accept --from-lock refuses a hook (SPEC §20).
const (
	lockRefusedMissing = "not in the lock"
	lockRefusedDiffers = "script differs from the lock"
	lockRefusedNoHash  = "the lock records no sha256 for its script (it could not be read when the lock was made): nothing to pin"
)

// acceptFromLock approves exactly the configured shell hooks whose current
// content equals the lock's and refuses the rest, each with its reason:
// the lock is the consent, so no --yes is needed. Each approval records
// the lock's sha256 and is checked against the script as it is read for
// the record, so a file swapped after the comparison is not approved.
func acceptFromLock(cmd *cobra.Command, opts *acceptOptions, s *hooks.Setup, list *allowlist.List) error {
	lock, err := lockfile.Read(opts.FromLock)
	if err != nil {
		return err
	}
	ios := opts.f.IO
	var chosen, already []hooks.ShellHook
	var want []string
	var refused []refusedHookJSON
	found := 0 // configured hooks the lock names
	for _, h := range s.ShellHooks(list) {
		if opts.Event != "" && h.Event != opts.Event {
			continue
		}
		cur := s.LockEntry(h)
		locked, ok := lock.FindShell(cur.Event, cur.Matcher, cur.Command)
		if ok {
			found++
		}
		reason := ""
		switch {
		case !ok:
			reason = lockRefusedMissing
		case lockfile.ShellDetail(locked, cur) != "":
			// What works in CI, where nothing is approved: compare with
			// the lock, never approve (SPEC §28 item 7).
			reason = fmt.Sprintf("%s (%s): review with: hermes hooks diff --lock %s %s --event %s, then update the lock with 'hermes hooks lock' in a reviewed change",
				lockRefusedDiffers, lockfile.ShellDetail(locked, cur), shell.Quote(opts.FromLock), shell.Quote(h.Shown()), h.Event)
		case locked.SHA256 == nil && len(locked.Code) == 0:
			reason = lockRefusedNoHash
		}
		if reason != "" {
			refused = append(refused, refusedHookJSON{Event: h.Event, commandJSON: commandOf(h.Spec), Reason: reason})
			continue
		}
		lockedSHA := ""
		if locked.SHA256 != nil {
			lockedSHA = *locked.SHA256
		}
		if h.Approved && h.Approval.ScriptSHA256 == lockedSHA && h.Drift != allowlist.DriftModified && (h.Approval.HasCode() || len(locked.Code) == 0) {
			already = append(already, h)
			continue
		}
		chosen = append(chosen, h)
		want = append(want, lockedSHA)
	}
	if n := len(lock.ShellHooks) - found; opts.Event == "" && n > 0 {
		// Hooks the lock names but the config does not: nothing to
		// approve, and doctor --lock fails on them.
		fmt.Fprintf(ios.ErrOut, "%s %d hook(s) of the lock are not configured: nothing to approve for them ('hermes hooks doctor --lock %s' lists them)\n",
			ios.ErrColors().InfoIcon(), n, opts.FromLock)
	}
	var entries []allowlist.Entry
	if len(chosen) > 0 {
		var warnings []string
		entries, warnings, err = s.ApproveShown(chosen, allowlist.ViaAccept, opts.f.Now(), want)
		printWarnings(ios, nil, warnings)
		if err != nil {
			return err
		}
	}
	if opts.JSON {
		out := acceptLockJSON{whereJSON: where(s.Loc), Lock: opts.FromLock,
			Approved: []approvedHookJSON{}, AlreadyApproved: []approvedHookJSON{}, Refused: []refusedHookJSON{}}
		for i, e := range entries {
			out.Approved = append(out.Approved, approvedHookJSON{e.Event, commandOf(chosen[i].Spec), pyjson.NullIfEmpty(e.ScriptSHA256), codeJSONOf(e.Code), pinnableOf(e)})
		}
		for _, h := range already {
			out.AlreadyApproved = append(out.AlreadyApproved, approvedHookJSON{h.Event, commandOf(h.Spec), pyjson.NullIfEmpty(h.Approval.ScriptSHA256), codeJSONOf(h.Approval.Code), pinnableOf(h.Approval)})
		}
		out.Refused = append(out.Refused, refused...)
		if err := writeJSON(ios.Out, out); err != nil {
			return err
		}
	} else {
		cs := ios.Colors()
		w := ios.Out
		printLocation(w, s.Loc)
		fmt.Fprintf(w, "Lock: %s\n\n", esc(opts.FromLock))
		for i, e := range entries {
			fmt.Fprintf(w, "%s approved  %s  %s  (sha256 %s…, as in the lock)\n", cs.SuccessIcon(), esc(e.Event), escCmd(chosen[i].Shown()), shortSHA(e.ScriptSHA256))
		}
		for _, h := range already {
			fmt.Fprintf(w, "%s already approved  %s  %s  (as in the lock)\n", cs.SuccessIcon(), esc(h.Event), escCmd(h.Shown()))
		}
		for _, r := range refused {
			fmt.Fprintf(w, "%s refused  %s  %s: %s\n", cs.FailureIcon(), esc(r.Event), escCmd(r.Command), escText(r.Reason))
		}
		if len(entries)+len(already)+len(refused) == 0 {
			fmt.Fprintln(w, "No shell hooks configured: nothing to approve.")
		}
	}
	if len(refused) > 0 {
		fmt.Fprintf(ios.ErrOut, "%s %d hook(s) refused: they are not what the lock says was reviewed (see above)\n", ios.ErrColors().FailureIcon(), len(refused))
		return SilentError
	}
	return nil
}
