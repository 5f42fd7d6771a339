package lockfile

import (
	"fmt"
	"strings"
)

// Kinds of a Difference.
const (
	KindShellHook   = "shell_hook"
	KindGatewayHook = "gateway_hook"
	KindGatewayFile = "gateway_file"
	KindWebhook     = "outbound_webhook"
)

// Changes of a Difference.
const (
	Added   = "added"   // in the home, not in the lock
	Removed = "removed" // in the lock, not in the home
	Changed = "changed" // in both, not the same
)

// Difference is one way the home is not what the lock says.
type Difference struct {
	Kind   string `json:"kind"`
	Change string `json:"change"`
	// Name is what differs: "event command" for a shell hook, the hook's
	// name (and file path) for a gateway hook, the redacted URL for a
	// webhook.
	Name string `json:"name"`
	// Detail says how a changed item differs ("" otherwise).
	Detail string `json:"detail,omitempty"`
}

func (d Difference) String() string {
	what := map[string]string{KindShellHook: "shell hook", KindGatewayHook: "gateway hook",
		KindGatewayFile: "gateway hook file", KindWebhook: "outbound webhook"}[d.Kind]
	s := fmt.Sprintf("%s %s: %s", what, d.Change, d.Name)
	switch d.Change {
	case Added:
		s += " (not in the lock)"
	case Removed:
		s += " (in the lock, not in the home)"
	}
	if d.Detail != "" {
		s += ": " + d.Detail
	}
	return s
}

// Compare lists every difference between the lock (want) and the home's
// lock now (got), in the lock's order: shell hooks, gateway hooks (and
// their files), webhooks. Both must be sorted (Parse and Sort do it).
func Compare(want, got *Lock) []Difference {
	var out []Difference
	out = append(out, compareShell(want.ShellHooks, got.ShellHooks)...)
	out = append(out, compareGateway(want.GatewayHooks, got.GatewayHooks)...)
	return append(out, compareWebhooks(want.OutboundWebhooks, got.OutboundWebhooks)...)
}

// ShellName names a shell hook in a difference.
func ShellName(h ShellHook) string {
	s := h.Event
	if h.Matcher != nil {
		s += fmt.Sprintf(" (matcher %q)", *h.Matcher)
	}
	return s + " " + h.Command
}

func compareShell(want, got []ShellHook) []Difference {
	var out []Difference
	added := match(want, got, shellKey, func(w, g ShellHook, found bool) {
		if !found {
			out = append(out, Difference{Kind: KindShellHook, Change: Removed, Name: ShellName(w)})
		} else if d := ShellDetail(w, g); d != "" {
			out = append(out, Difference{Kind: KindShellHook, Change: Changed, Name: ShellName(w), Detail: d})
		}
	})
	for _, g := range added {
		out = append(out, Difference{Kind: KindShellHook, Change: Added, Name: ShellName(g)})
	}
	return out
}

// match pairs the items of want and got with the same key (the n-th of a
// key in want with the n-th in got), calling pair for each item of want in
// its order (found false when got has none left), and returns the items of
// got left over, in order. Indexed by key: a home of thousands of hooks
// compares in linear time.
func match[T any](want, got []T, key func(T) string, pair func(w, g T, found bool)) (added []T) {
	byKey := map[string][]int{}
	for i, g := range got {
		byKey[key(g)] = append(byKey[key(g)], i)
	}
	used := make([]bool, len(got))
	for _, w := range want {
		k := key(w)
		if len(byKey[k]) == 0 {
			var zero T
			pair(w, zero, false)
			continue
		}
		i := byKey[k][0]
		byKey[k] = byKey[k][1:]
		used[i] = true
		pair(w, got[i], true)
	}
	for i, g := range got {
		if !used[i] {
			added = append(added, g)
		}
	}
	return added
}

// shellKey is the key a hook is locked under: event, matcher (or its
// absence), command as written.
func shellKey(h ShellHook) string {
	m := "\x00"
	if h.Matcher != nil {
		m = "=" + *h.Matcher
	}
	return h.Event + "\x00" + m + "\x00" + h.Command
}

// ShellDetail says how the hook now (got) differs from the lock's entry
// (want) for the same key, "" when it does not.
func ShellDetail(want, got ShellHook) string {
	var parts []string
	if !sameString(want.Script, got.Script) {
		parts = append(parts, fmt.Sprintf("script %s in the lock, %s now", orNull(want.Script), orNull(got.Script)))
	}
	if !sameString(want.SHA256, got.SHA256) {
		parts = append(parts, fmt.Sprintf("script sha256 %s in the lock, %s now", orNull(want.SHA256), orNull(got.SHA256)))
	}
	if want.Disabled != got.Disabled {
		parts = append(parts, fmt.Sprintf("%s in the lock, %s now", onOff(want.Disabled), onOff(got.Disabled)))
	}
	return strings.Join(parts, "; ")
}

func onOff(disabled bool) string {
	if disabled {
		return "disabled"
	}
	return "enabled"
}

func orNull(s *string) string {
	if s == nil {
		return "none"
	}
	return *s
}

func compareGateway(want, got []GatewayHook) []Difference {
	var out []Difference
	added := match(want, got, func(g GatewayHook) string { return g.Name }, func(w, g GatewayHook, found bool) {
		if !found {
			out = append(out, Difference{Kind: KindGatewayHook, Change: Removed, Name: w.Name})
		} else {
			out = append(out, compareFiles(w.Name, w.Files, g.Files)...)
		}
	})
	for _, g := range added {
		out = append(out, Difference{Kind: KindGatewayHook, Change: Added, Name: g.Name})
	}
	return out
}

func compareFiles(hook string, want, got []File) []Difference {
	var out []Difference
	added := match(want, got, func(f File) string { return f.Path }, func(w, g File, found bool) {
		if !found {
			out = append(out, Difference{Kind: KindGatewayFile, Change: Removed, Name: hook + "/" + w.Path})
		} else if w.SHA256 != g.SHA256 {
			out = append(out, Difference{Kind: KindGatewayFile, Change: Changed, Name: hook + "/" + w.Path,
				Detail: fmt.Sprintf("sha256 %s in the lock, %s now", w.SHA256, g.SHA256)})
		}
	})
	for _, g := range added {
		out = append(out, Difference{Kind: KindGatewayFile, Change: Added, Name: hook + "/" + g.Path})
	}
	return out
}

func compareWebhooks(want, got []Webhook) []Difference {
	var out []Difference
	added := match(want, got, func(w Webhook) string { return w.URL }, func(w, g Webhook, found bool) {
		if !found {
			out = append(out, Difference{Kind: KindWebhook, Change: Removed, Name: w.URL})
		} else if a, b := strings.Join(w.Events, ","), strings.Join(g.Events, ","); a != b {
			out = append(out, Difference{Kind: KindWebhook, Change: Changed, Name: w.URL,
				Detail: fmt.Sprintf("events %s in the lock, %s now", orEmpty(a), orEmpty(b))})
		}
	})
	for _, g := range added {
		out = append(out, Difference{Kind: KindWebhook, Change: Added, Name: g.URL})
	}
	return out
}

func orEmpty(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
