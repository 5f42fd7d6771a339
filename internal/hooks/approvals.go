package hooks

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/hermes-hooks/hermes/internal/allowlist"
)

// Approval is one allowlist entry as `approvals` reports it (SPEC §13.1).
type Approval struct {
	Entry allowlist.Entry
	// Hook is the configured hook the entry approves, nil when it is
	// stale: no configured hook has its (event, command).
	Hook  *Spec
	Drift allowlist.Drift // of the script the command names, now

	shown string
}

// Stale reports whether no configured hook has the entry's (event,
// command): it approves nothing, and `prune` removes it.
func (a Approval) Stale() bool { return a.Hook == nil }

// Shown is the entry's command as reports show it: as written in the config
// when a configured hook has it (an expanded secret is not printed), else
// as stored (see namer).
func (a Approval) Shown() string { return a.shown }

// namer shows allowlist entries' commands. A stale entry left by a
// rotated secret (the config's command expands to something else now)
// holds the old secret: when a configured command of its event, as
// written with a secret, matches it with its ${VAR}s standing for
// anything, it is shown in that written form instead.
type namer struct {
	configured map[allowlist.Key]Spec
	secret     []secretPattern
}

type secretPattern struct {
	event, written string
	re             *regexp.Regexp
}

func (s *Setup) namer() *namer {
	n := &namer{configured: s.configured()}
	for _, spec := range s.Parsed.Specs {
		if spec.HasSecret() {
			n.secret = append(n.secret, secretPattern{spec.Event, spec.Written, writtenPattern(spec.Written)})
		}
	}
	return n
}

func (n *namer) shown(e allowlist.Entry) string {
	if spec, ok := n.configured[e.Key()]; ok {
		return spec.Shown()
	}
	for _, p := range n.secret {
		if p.event == e.Event && p.re.MatchString(e.Command) {
			return p.written
		}
	}
	return e.Command
}

// writtenPattern matches what a command as written can expand to.
func writtenPattern(written string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	rest := written
	for {
		loc := envRefPattern().FindStringIndex(rest)
		if loc == nil {
			break
		}
		b.WriteString(regexp.QuoteMeta(rest[:loc[0]]))
		b.WriteString("(?s:.*)")
		rest = rest[loc[1]:]
	}
	b.WriteString(regexp.QuoteMeta(rest))
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// envRefPattern is config's ${VAR} / ${env:VAR}.
var envRefPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{(?:env:)?[A-Za-z_][A-Za-z0-9_]*\}`) })

// Approvals are every well-formed entry of list, in file order, with its
// configured hook, if any, and the drift of its script now.
func (s *Setup) Approvals(list *allowlist.List) []Approval {
	n := s.namer()
	out := make([]Approval, 0, len(list.Approvals))
	for _, e := range list.Approvals {
		a := Approval{Entry: e, shown: n.shown(e)}
		if spec, ok := n.configured[e.Key()]; ok {
			a.Hook = &spec
		}
		a.Drift = s.driftOf(e)
		out = append(out, a)
	}
	return out
}

// configured maps each (event, command) of the config to its first spec.
func (s *Setup) configured() map[allowlist.Key]Spec {
	m := make(map[allowlist.Key]Spec, len(s.Parsed.Specs))
	for _, spec := range s.Parsed.Specs {
		k := allowlist.Key{Event: spec.Event, Command: spec.Command}
		if _, seen := m[k]; !seen {
			m[k] = spec
		}
	}
	return m
}

// driftOf compares the script e's command names with what e recorded.
func (s *Setup) driftOf(e allowlist.Entry) allowlist.Drift {
	h := s.Inspect(Spec{Event: e.Event, Command: e.Command}, nil)
	fp := allowlist.Fingerprint{Path: h.Script, Err: allowlist.ErrNoScript}
	if h.HasScriptFile() {
		fp = s.Fingerprints.Of(h.Script)
	}
	return allowlist.DriftOf(e, fp)
}

// PruneStale removes, under the allowlist lock, every entry that no
// configured hook has (decided on the list as it is once locked), and
// returns them. With dryRun nothing is written.
func (s *Setup) PruneStale(dryRun bool) ([]allowlist.Entry, []string, error) {
	configured := s.configured()
	stale := func(e allowlist.Entry) bool { _, ok := configured[e.Key()]; return !ok }
	if dryRun {
		list, warnings, err := s.Store.Read()
		if err != nil {
			return nil, warnings, err
		}
		var gone []allowlist.Entry
		for _, e := range list.Approvals {
			if stale(e) {
				gone = append(gone, e)
			}
		}
		return gone, warnings, nil
	}
	var gone []allowlist.Entry
	warnings, err := s.Store.Update(func(l *allowlist.List) error {
		gone = l.Remove(stale)
		if len(gone) == 0 {
			return allowlist.ErrUnchanged
		}
		return nil
	})
	if err != nil {
		return nil, warnings, err
	}
	return gone, warnings, nil
}

// AllowlistChecks are doctor's notes about the allowlist as a whole (SPEC
// §13.1, §13 rule 11): stale entries (info, with the hint to prune) and
// hooks whose command carries a secret from the environment, which the
// allowlist then stores in clear (warn). Neither is a problem.
func (s *Setup) AllowlistChecks(list *allowlist.List) []Check {
	var out []Check
	n := s.namer()
	var stale []string
	for _, e := range list.Approvals {
		if _, ok := n.configured[e.Key()]; !ok {
			stale = append(stale, fmt.Sprintf("%s %s", e.Event, n.shown(e)))
		}
	}
	if len(stale) > 0 {
		out = append(out, Check{Name: "stale", Status: CheckInfo, Message: fmt.Sprintf(
			"%d allowlist entry(ies) approve no configured hook: %s; remove them with: hermes hooks prune",
			len(stale), strings.Join(stale, "; "))})
	}
	for _, spec := range s.Parsed.Specs {
		if !spec.HasSecret() {
			continue
		}
		vars := "${" + strings.Join(spec.Secrets, "}, ${") + "}"
		out = append(out, Check{Name: "secret", Status: CheckWarn, Message: fmt.Sprintf(
			"%s (%s): the value of %s is stored in clear in the allowlist once approved (it holds the expanded command, which the agent matches on), and rotating it un-approves the hook; pass it through the environment instead (the hook inherits it) and take it out of the command",
			spec.Shown(), spec.Event, vars)})
	}
	return out
}

// ShownEntries returns how each entry's command is shown (see namer).
func (s *Setup) ShownEntries(es []allowlist.Entry) []string {
	n := s.namer()
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = n.shown(e)
	}
	return out
}
