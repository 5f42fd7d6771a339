package hooks

import (
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hookspec"
)

// Approval is one allowlist entry as `approvals` reports it (SPEC §13.1).
type Approval struct {
	Entry allowlist.Entry
	// Hook is the configured hook the entry approves, nil when it is
	// stale: no configured hook has its (event, command).
	Hook  *hookspec.Spec
	Drift allowlist.Drift // of the script the command names, now

	shown string
	inUse bool
}

// Stale reports whether the entry approves no configured hook (see
// namer.inUse): `prune` removes it.
func (a Approval) Stale() bool { return !a.inUse }

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
	configured map[allowlist.Key]hookspec.Spec
	secret     []secretPattern
	// variable are the configured commands holding a ${VAR} (as written,
	// or left literal because the variable is unset here), each ${VAR}
	// standing for any text; unknown are the configured events this build
	// does not know.
	variable []secretPattern
	unknown  map[string]bool
	// secrets are the values of secret-named variables of the environment
	// (longest first), shown as ${NAME} in entries no hook names any more
	// (SPEC §13.2 rule 10).
	secrets []secretValue
}

type secretValue struct{ name, value string }

// minSecretLen is the shortest value hidden as ${NAME}: a shorter one ("1",
// "on") would garble every command it happens to occur in.
const minSecretLen = 4

type secretPattern struct {
	event, written string
	re             *regexp.Regexp
}

func (s *Setup) namer() *namer {
	n := &namer{configured: s.configured(), unknown: map[string]bool{}}
	for _, spec := range s.Parsed.WithDisabled() {
		if spec.HasSecret() {
			n.secret = append(n.secret, secretPattern{spec.Event, spec.Written, writtenPattern(spec.Written)})
		}
		if text := spec.Shown(); envRefPattern().MatchString(text) {
			n.variable = append(n.variable, secretPattern{spec.Event, text, writtenPattern(text)})
		}
	}
	for _, ev := range s.Parsed.UnknownEvents {
		n.unknown[ev] = true
	}
	for _, kv := range s.Environ {
		name, value, ok := strings.Cut(kv, "=")
		if ok && len(value) >= minSecretLen && config.IsSecretName(name) {
			n.secrets = append(n.secrets, secretValue{name, value})
		}
	}
	sort.SliceStable(n.secrets, func(i, j int) bool { return len(n.secrets[i].value) > len(n.secrets[j].value) })
	return n
}

// masked is command with every secret value of the environment shown as
// ${NAME}.
func (n *namer) masked(command string) string {
	for _, sv := range n.secrets {
		command = strings.ReplaceAll(command, sv.value, "${"+sv.name+"}")
	}
	return command
}

// inUse reports whether e approves a configured hook, judged without the
// caller's environment (SPEC §13.2 rule 4): its (event, command) is
// configured, or a configured command of its event matches it with every
// ${VAR} standing for any text (so "--key ${GUARD_KEY}" keeps "--key k1"
// in a shell without GUARD_KEY), or its event is configured but unknown to
// this build.
func (n *namer) inUse(e allowlist.Entry) bool {
	if _, ok := n.configured[e.Key()]; ok || n.unknown[e.Event] {
		return true
	}
	for _, p := range n.variable {
		if p.event == e.Event && p.re.MatchString(e.Command) {
			return true
		}
	}
	return false
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
	return n.masked(e.Command)
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
		a := Approval{Entry: e, shown: n.shown(e), inUse: n.inUse(e)}
		if spec, ok := n.configured[e.Key()]; ok {
			a.Hook = &spec
		}
		a.Drift = s.driftOf(e)
		out = append(out, a)
	}
	return out
}

// configured maps each (event, command) of the config to its first spec,
// disabled hooks included: their approvals are kept (SPEC §27).
func (s *Setup) configured() map[allowlist.Key]hookspec.Spec {
	m := make(map[allowlist.Key]hookspec.Spec, len(s.Parsed.Specs)+len(s.Parsed.Disabled))
	for _, spec := range s.Parsed.WithDisabled() {
		k := allowlist.Key{Event: spec.Event, Command: spec.Command}
		if _, seen := m[k]; !seen {
			m[k] = spec
		}
	}
	return m
}

// driftOf compares the script e's command names with what e recorded.
func (s *Setup) driftOf(e allowlist.Entry) allowlist.Drift {
	h := s.Inspect(hookspec.Spec{Event: e.Event, Command: e.Command}, nil)
	fp := allowlist.Fingerprint{Path: h.Script, Err: allowlist.ErrNoScript}
	if h.HasScriptFile() {
		fp = s.Fingerprints.Of(h.Script)
	}
	return allowlist.DriftOf(e, fp)
}

// StaleEntries are the entries of list that approve no configured hook
// (namer.inUse), in file order.
func (s *Setup) StaleEntries(list *allowlist.List) []allowlist.Entry {
	n := s.namer()
	var out []allowlist.Entry
	for _, e := range list.Approvals {
		if !n.inUse(e) {
			out = append(out, e)
		}
	}
	return out
}

// PruneStale removes, under the allowlist lock, every entry that approves
// no configured hook (decided on the list as it is once locked), and
// returns them. With dryRun nothing is written.
func (s *Setup) PruneStale(dryRun bool) ([]allowlist.Entry, []string, error) {
	if dryRun {
		list, warnings, err := s.Store.Read()
		if err != nil {
			return nil, warnings, err
		}
		return s.StaleEntries(list), warnings, nil
	}
	return s.PruneShown(nil)
}

// PruneShown removes, under the allowlist lock, the entries of shown (the
// ones a person was shown and agreed to remove; nil: every stale one) that
// are still there, unchanged (event, command and approved_at), and still
// stale against this setup's config (load it after the question): an
// entry approved meanwhile, even for the same command, is never removed
// (SPEC §13.2 rule 4).
func (s *Setup) PruneShown(shown []allowlist.Entry) ([]allowlist.Entry, []string, error) {
	n := s.namer()
	type key struct{ event, command, at string }
	agreed := map[key]bool{}
	for _, e := range shown {
		agreed[key{e.Event, e.Command, e.ApprovedAt}] = true
	}
	var gone []allowlist.Entry
	warnings, err := s.Store.Update(func(l *allowlist.List) error {
		gone = l.Remove(func(e allowlist.Entry) bool {
			return !n.inUse(e) && (shown == nil || agreed[key{e.Event, e.Command, e.ApprovedAt}])
		})
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

// ShownEntries returns how each entry's command is shown (see namer).
func (s *Setup) ShownEntries(es []allowlist.Entry) []string {
	n := s.namer()
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = n.shown(e)
	}
	return out
}
