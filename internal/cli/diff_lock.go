package cli

import (
	"fmt"
	"math"
	"strings"

	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/lockfile"
	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// diffLockJSON is diff --lock --json: the lock's sha256 of the hook's
// script beside the script's now, and the script.
type diffLockJSON struct {
	whereJSON
	commandJSON
	Event         string  `json:"event"`
	Lock          string  `json:"lock"`
	Script        *string `json:"script"`
	Status        string  `json:"status"` // unchanged | changed | cannot_compare
	Reason        *string `json:"reason"`
	LockSHA256    *string `json:"lock_sha256"`
	CurrentSHA256 *string `json:"current_sha256"`
	Content       *string `json:"content"`
}

// diffLock compares a hook's script with what the lock says was reviewed
// (SPEC §28 item 7): the lock holds a hash, not the text, so what can be
// shown is both hashes and the script as it is now, which is what CI can
// print after accept --from-lock refused the hook. Exit codes as diff's.
func diffLock(opts *diffOptions, s *hooks.Setup, h hooks.ShellHook) error {
	lock, err := lockfile.Read(opts.Lock)
	if err != nil {
		return err
	}
	ios := opts.f.IO
	cur := s.LockEntry(h)
	out := diffLockJSON{whereJSON: where(s.Loc), commandJSON: commandOf(h.Spec), Event: h.Event, Lock: opts.Lock,
		Script: pyjson.NullIfEmpty(h.Script), CurrentSHA256: cur.SHA256}
	locked, inLock := lock.FindShell(cur.Event, cur.Matcher, cur.Command)
	sh := s.Show(h)
	if sh.Fingerprint.Err == nil && sh.Fingerprint.Content != nil {
		content := string(sh.Fingerprint.Content)
		out.Content = &content
	}
	reason := ""
	switch {
	case !inLock:
		reason = "the lock has no such hook (event, matcher and command as configured)"
	case cur.SHA256 == nil:
		reason = "the script cannot be read: " + errText(sh.Fingerprint.Err)
	case locked.SHA256 == nil:
		reason = "the lock records no sha256 for this hook (its script could not be read when the lock was written)"
	}
	out.LockSHA256 = locked.SHA256
	switch {
	case reason != "":
		out.Status, out.Reason = "cannot_compare", &reason
	case *locked.SHA256 == *cur.SHA256:
		out.Status = "unchanged"
	default:
		out.Status = "changed"
	}
	if opts.JSON {
		if err := writeJSON(ios.Out, out); err != nil {
			return err
		}
	} else {
		w := ios.Out
		printLocation(w, s.Loc)
		fmt.Fprintf(w, "Lock: %s\n\n", esc(opts.Lock))
		fmt.Fprintf(w, "%s  %s\n", esc(h.Event), esc(h.Spec.Named()))
		fmt.Fprintf(w, "  script:          %s\n", esc(orNone(h.Script)))
		fmt.Fprintf(w, "  sha256 (lock):   %s\n", esc(orNone(derefOr(out.LockSHA256, ""))))
		fmt.Fprintf(w, "  sha256 (script): %s\n", esc(orNone(derefOr(out.CurrentSHA256, ""))))
		switch out.Status {
		case "unchanged":
			fmt.Fprintln(w, "No change: the script is what the lock says was reviewed.")
		case "changed":
			fmt.Fprintln(w, "Changed: the script is not what the lock says was reviewed (the lock keeps the hash, not the text). The script now:")
		default:
			fmt.Fprintf(ios.ErrOut, "Cannot compare: %s\n", esc(reason))
		}
		if out.Status != "unchanged" && out.Content != nil {
			lines, _, _ := sh.Head(math.MaxInt)
			for _, l := range lines {
				fmt.Fprintf(w, "  │ %s\n", esc(strings.TrimSuffix(l, "\n")))
			}
		}
	}
	if out.Status == "unchanged" {
		return nil
	}
	return &ExitError{Code: ExitFailed}
}

func errText(err error) string {
	if err == nil {
		return "unknown error"
	}
	return err.Error()
}

func derefOr(p *string, def string) string {
	if p == nil {
		return def
	}
	return *p
}
