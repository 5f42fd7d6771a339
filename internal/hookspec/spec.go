package hookspec

import (
	"fmt"
	"hash/maphash"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/guard"
	"github.com/hermes-hooks/hermes/internal/pystr"
	"github.com/hermes-hooks/hermes/internal/shell"
	"github.com/hermes-hooks/hermes/internal/suggest"
	"github.com/hermes-hooks/hermes/internal/trust"
	"gopkg.in/yaml.v3"
)

// Timeouts of a shell hook, in seconds (SPEC §2.1).
const (
	DefaultTimeout = 60
	MaxTimeout     = 300
)

// Spec is one valid shell-hook entry of the config's hooks: block.
type Spec struct {
	Event string
	Index int // position in the event's list, counting skipped entries
	// Disabled: the entry is under hooks_disabled: (SPEC §27), Index in
	// that block's list.
	Disabled bool
	Command  string // trimmed, ${VAR} expanded: what runs and what the allowlist holds
	// Written is the command as written in the config, trimmed, when
	// ${VAR} expansion changed it ("" otherwise); Secrets are the
	// variables with a secret's name (TOKEN, KEY, ...) that went into it.
	Written string
	Secrets []string
	Matcher *Matcher
	Timeout int
	// TimeoutSet: the entry gave a usable timeout (possibly clamped to
	// MaxTimeout); false when the default applies.
	TimeoutSet bool
	FailClosed bool
	// NoReplay: the entry says replay: false (SPEC §26): running the hook
	// has side effects, so test --cases skips it unless --replay-all. The
	// agent ignores the key.
	NoReplay bool
	File     string
	Line     int // line of the entry

	// Guard is set when the command runs through the guard (SPEC §17,
	// `hermes hooks protect`): its flags, and in Guard.Inner the argv of
	// the command it guards, whose script is the one judged. Inner is that
	// command (expanded), InnerWritten as written when that differs.
	Guard        *guard.Invocation
	Inner        string
	InnerWritten string

	// matcherText is the matcher as configured (trimmed; "" when absent or
	// not a string), part of the key the agent registers a hook under.
	matcherText string
}

// MatcherText is the matcher as configured (trimmed), "" when the hook has
// none: with the event and the command, the key a hook is locked under.
func (s Spec) MatcherText() string { return s.matcherText }

// Shown is the command as the user wrote it in the config, which is what
// every report shows (SPEC §13 rule 11): an expanded ${API_TOKEN} is never
// printed.
func (s Spec) Shown() string {
	if s.Written != "" {
		return s.Written
	}
	return s.Command
}

// Expanded is the command after expansion when it differs from what was
// written and no secret went into it, else "" (--json command_expanded).
func (s Spec) Expanded() string {
	if s.Written == "" || s.HasSecret() {
		return ""
	}
	return s.Command
}

// HasSecret reports whether a variable named like a secret went into the
// command.
func (s Spec) HasSecret() bool { return len(s.Secrets) > 0 }

// Names reports whether cmd names this hook's command, as written or as
// expanded: accept, revoke and diff take either form.
func (s Spec) Names(cmd string) bool {
	if cmd == s.Command || s.Written != "" && cmd == s.Written {
		return true
	}
	// A protected hook is named by the command it guards too, "~/x.sh"
	// for the "${HOME}/x.sh" protect wrote.
	if s.Guard == nil {
		return false
	}
	if c, ok := guard.DialectCommand(*s.Guard); ok && strings.ReplaceAll(cmd, "${CLAUDE_PROJECT_DIR}", "$CLAUDE_PROJECT_DIR") == c {
		return true // a Claude Code hook by its command in settings.json
	}
	return cmd == s.Inner || guard.HomeForTilde(cmd) == s.InnerShown()
}

// Protected reports whether the hook runs through the guard.
func (s Spec) Protected() bool { return s.Guard != nil }

// InnerShown is the guarded command as written ("" when not protected).
func (s Spec) InnerShown() string {
	if s.InnerWritten != "" {
		return s.InnerWritten
	}
	return s.Inner
}

// Named is the command a user names the hook by in output and hints: the
// inner command of a protected hook (every command takes it), else the
// command as written.
func (s Spec) Named() string {
	if s.Protected() {
		return s.InnerShown()
	}
	return s.Shown()
}

// Parsed is what the hooks: block declares, after validation.
type Parsed struct {
	Specs       []Spec // events in file order, entries in list order
	Webhooks    []Webhook
	Diagnostics []config.Diagnostic
	// UnknownEvents are the events the config lists hooks under that this
	// build does not know (skipped with a warning): their approvals are
	// not stale, since a newer build or the agent may serve them.
	UnknownEvents []string
	// Disabled are the hooks under hooks_disabled: (SPEC §27, `hermes
	// hooks disable`), read like hooks: and marked Disabled: the agent
	// registers none of them, nothing here runs them, and their approvals
	// are kept. Their diagnostics are not reported.
	Disabled []Spec
}

// WithDisabled is every configured hook, enabled (Specs) then disabled:
// what an approval may approve without being stale (SPEC §27: disabling
// keeps the approval).
func (p *Parsed) WithDisabled() []Spec {
	if len(p.Disabled) == 0 {
		return p.Specs
	}
	return append(append(make([]Spec, 0, len(p.Specs)+len(p.Disabled)), p.Specs...), p.Disabled...)
}

// ForEvent returns the specs of one event, in config order.
func (p *Parsed) ForEvent(event string) []Spec {
	var out []Spec
	for _, s := range p.Specs {
		if s.Event == event {
			out = append(out, s)
		}
	}
	return out
}

// Keys of the hooks: mapping that are not events.
const (
	OutboundKey    = config.HooksOutboundKey
	OutputSpillKey = config.HooksOutputSpillKey
)

// Parse validates the hooks: block of f (SPEC §2.1, §11). Nothing in it is
// fatal: a bad entry is skipped and explained in Diagnostics. cat must know
// the config's extra events; env resolves webhook secret_env names.
func Parse(f *config.File, cat *catalog.Catalogue, env config.Env) *Parsed {
	out := &Parsed{}
	if f == nil {
		return out
	}
	if cat == nil {
		cat = catalog.NewCatalogue(f.Settings.ExtraEvents)
	}
	if env == nil {
		env = config.MapEnv(nil)
	}
	p := &parser{file: f.Path, cat: cat, env: env, out: out, config: f}
	p.hooks(f.Hooks, f.HooksKeyLine)
	p.outdented(f.TopKeys)
	if f.Disabled != nil {
		off := &Parsed{}
		q := &parser{file: f.Path, cat: cat, env: env, out: off, config: f}
		q.hooks(f.Disabled, f.DisabledKeyLine)
		for _, s := range off.Specs {
			s.Disabled = true
			out.Disabled = append(out.Disabled, s)
		}
	}
	return out
}

// outdented names shell event names written as top-level keys: one line
// indented wrongly (`pre_tool_call:` at column 0 under hooks:) makes its
// hooks vanish, and the agent says nothing (SPEC §20). doctor counts the
// warning as a problem; list prints it.
func (p *parser) outdented(keys []config.KeyLine) {
	for _, k := range keys {
		if k.Key == "hooks" || !p.cat.Has(k.Key) || strings.Contains(k.Key, ":") {
			continue
		}
		p.warn(k.Key, k.Line, "event %q at the top level of the config: it belongs under hooks:", k.Key)
	}
}

type parser struct {
	file string
	cat  *catalog.Catalogue
	env  config.Env
	out  *Parsed
	seen map[string]*registry // the hooks registered, by event
	// config reads the items of lists (config.File.Item), with reader;
	// itemExpansions are the expansions made in the item being parsed
	// (every value asked about is in an item: a hook or a webhook).
	config         *config.File
	reader         config.ItemReader
	itemExpansions map[*yaml.Node]config.Expansion
	pairs          []config.Pair // fields' room, reused: an entry's fields are not kept
}

// item reads an item of a list, good until the next is read: a parser
// keeps no node.
func (p *parser) item(n *yaml.Node) *yaml.Node {
	n, p.itemExpansions = p.config.Item(&p.reader, n)
	return n
}

// written returns how a string value read as v was written before ${VAR}
// expansion, when it was expanded.
func (p *parser) written(n *yaml.Node, v config.Value) (config.Expansion, bool) {
	if x, ok := p.itemExpansions[n]; ok {
		return x, true
	}
	x, ok := p.itemExpansions[v.Node]
	return x, ok
}

func (p *parser) warn(path string, line int, format string, args ...any) {
	p.out.Diagnostics = append(p.out.Diagnostics, config.Diagnostic{
		Level: "warning", Path: path, File: p.file, Line: line, Message: fmt.Sprintf(format, args...)})
}

// advise adds a warning that is not a problem (config.Diagnostic.Advisory).
func (p *parser) advise(path string, line int, format string, args ...any) {
	p.warn(path, line, format, args...)
	p.out.Diagnostics[len(p.out.Diagnostics)-1].Advisory = true
}

// fields returns an entry's keys, warning about repeated ones; path is
// the path of one of its keys.
func (p *parser) fields(path func(key string) string, n *yaml.Node) fieldSet {
	pairs, dups := config.PairsInto(p.pairs, n)
	p.pairs = pairs[:0]
	for _, d := range dups {
		p.warn(path(d.Key), d.KeyNode.Line, "%q is given more than once; the last value is used", d.Key)
	}
	return pairs
}

// entryPath is the path of the hook hooks.<event>[index] (or of the
// webhook hooks.outbound[index]), made only when a warning names it: a
// 55 MB config's 755,000 hooks made as many paths, and their matchers'
// paths, that nobody read (0.3 s of CPU).
type entryPath struct {
	event string
	index int
}

func (e entryPath) String() string { return "hooks." + e.event + "[" + strconv.Itoa(e.index) + "]" }

// key is the path of the entry's key.
func (e entryPath) key(key string) string { return e.String() + "." + key }

// fieldSet is the keys of one hook or webhook entry: a handful, each once,
// so a scan finds one faster than a map built per entry would.
type fieldSet []config.Pair

func (f fieldSet) get(key string) (config.Pair, bool) {
	for _, p := range f {
		if p.Key == key {
			return p, true
		}
	}
	return config.Pair{}, false
}

func (p *parser) hooks(n *yaml.Node, line int) {
	v := config.Resolve(n)
	switch v.Kind {
	case config.KindNull:
		return
	case config.KindMapping:
	default:
		p.warn("hooks", line, "hooks must be a mapping of event names to lists of hooks, got %s; no shell hooks are loaded", v.Describe())
		return
	}
	pairs, dups := config.Pairs(v.Node)
	for _, d := range dups {
		p.warn("hooks."+d.Key, d.KeyNode.Line, "%q is given more than once; only the last list is used", d.Key)
	}
	// Room for every event's hooks at once: a Spec is large, and growing
	// the list event by event copied it once per event (four events of
	// 755,000 hooks: 0.6 s, and 270 MB held by the list and its copy).
	total := 0
	for _, pr := range pairs {
		if ev, ok := p.cat.Lookup(pr.Key); ok && ev.ShellSupported {
			if v := config.Resolve(pr.Value); v.Kind == config.KindList {
				total += len(v.Node.Content)
			}
		}
	}
	p.out.Specs = slices.Grow(p.out.Specs, total)
	for _, pr := range pairs {
		switch pr.Key {
		case OutboundKey:
			p.webhooks(pr)
		case OutputSpillKey:
			// Reserved by the agent; nothing here for this tool.
		default:
			p.event(pr)
		}
	}
}

func (p *parser) event(pr config.Pair) {
	path, line := "hooks."+pr.Key, pr.KeyNode.Line
	ev, ok := p.cat.Lookup(pr.Key)
	if !ok {
		p.warn(path, line, "%s", p.unknownEvent(pr.Key))
		p.out.UnknownEvents = append(p.out.UnknownEvents, pr.Key)
		return
	}
	v := config.Resolve(pr.Value)
	switch {
	case v.Kind == config.KindNull:
		return
	case !ev.ShellSupported:
		p.warn(path, line, "shell hooks cannot serve %s: the agent needs an answer from in-process Python plugins there; its entries are ignored", ev.Name)
		return
	case v.Kind != config.KindList:
		p.warn(path, line, "the value of %s must be a list of hooks (entries starting with '-'), got %s; skipped", ev.Name, v.Describe())
		return
	}
	// A map per event, sized for its hooks: one map grown to 755,000
	// keys was a third of the parse.
	if p.seen == nil {
		p.seen = map[string]*registry{}
	}
	if p.seen[ev.Name] == nil {
		p.seen[ev.Name] = &registry{byHash: make(map[uint64]int, len(v.Node.Content))}
	}
	p.entries(ev, v.Node.Content)
}

// parallelEntriesMin is how long an event's list must be for entries to
// read it on several goroutines.
var parallelEntriesMin = 4096

// entries reads an event's entries and registers their hooks, in order. A
// long list is read a chunk at a time on every CPU, and each chunk merged
// in order, entry by entry (its warnings, then its registration), so the
// outcome is the one-at-a-time reading's (TestParseParallelAsSerial): the
// entries of a 55 MB config were half of loading it (SPEC §29 item 2). A
// chunk is merged while the next is read: merging one chunk after
// another, with every CPU waiting, was a quarter of the parse.
func (p *parser) entries(ev catalog.Event, items []*yaml.Node) {
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 || len(items) < parallelEntriesMin {
		for i, item := range items {
			if s, ok := p.entry(ev, i, item); ok {
				p.register(&s, pairHash(s.matcherText, s.Command))
			}
		}
		return
	}
	// Each entry's spec is read straight into the place it takes in the
	// list when no earlier entry was skipped or the same hook: the merge
	// moves a spec only after such a gap. Copying 755,000 specs from the
	// readers' results into the list was a third of the merging, which
	// the readers waited on.
	start := len(p.out.Specs)
	p.out.Specs = slices.Grow(p.out.Specs, len(items))[:start+len(items)]
	slots := p.out.Specs[start:]
	type result struct {
		ok    bool
		hash  uint64 // of the spec's (matcher, command)
		diags []config.Diagnostic
	}
	const chunk = 4096
	// Two chunks in flight, each with its results and a parser for each
	// goroutine: entry writes only its warnings; the rest it reads is
	// shared and not changed. A chunk's warnings stay in its parsers until
	// it is merged. The readers of a chunk write only its slots, all
	// after every slot the merge writes or reads.
	type batch struct {
		results []result
		qs      []*parser
		wg      sync.WaitGroup
		taken   atomic.Int64 // the first entry no reader has taken
	}
	var batches [2]batch
	for b := range batches {
		batches[b].results = make([]result, min(chunk, len(items)))
		batches[b].qs = make([]*parser, workers)
		for w := range workers {
			batches[b].qs[w] = &parser{file: p.file, cat: p.cat, env: p.env, config: p.config, out: &Parsed{}}
		}
	}
	// The readers of a chunk take its entries a few at a time, not half
	// each: one half read sooner left a CPU idle until the other was.
	const piece = 128
	read := func(b *batch, lo int) {
		hi := min(lo+chunk, len(items))
		b.taken.Store(int64(lo))
		for _, q := range b.qs {
			b.wg.Go(func() {
				q.out.Diagnostics = q.out.Diagnostics[:0] // merged with their chunk
				for {
					a := int(b.taken.Add(piece)) - piece
					if a >= hi {
						return
					}
					for i := a; i < min(a+piece, hi); i++ {
						n := len(q.out.Diagnostics)
						var ok bool
						slots[i], ok = q.entry(ev, i, items[i])
						var h uint64
						if ok {
							h = pairHash(slots[i].matcherText, slots[i].Command)
						}
						b.results[i-lo] = result{ok, h, q.out.Diagnostics[n:len(q.out.Diagnostics):len(q.out.Diagnostics)]}
					}
				}
			})
		}
	}
	next := start // where the next spec registered goes
	read(&batches[0], 0)
	for k, lo := 0, 0; lo < len(items); k, lo = k+1, lo+chunk {
		b := &batches[k%2]
		b.wg.Wait()
		if then := lo + chunk; then < len(items) {
			read(&batches[(k+1)%2], then)
		}
		for i := range min(chunk, len(items)-lo) {
			r := &b.results[i]
			p.out.Diagnostics = append(p.out.Diagnostics, r.diags...)
			if s := &slots[lo+i]; r.ok && p.admit(s, r.hash, next) {
				if at := start + lo + i; at != next {
					p.out.Specs[next] = *s
				}
				next++
			}
			*r = result{}
		}
	}
	clear(p.out.Specs[next:]) // the specs moved down or skipped, no longer held
	p.out.Specs = p.out.Specs[:next]
}

// register adds s unless the same (event, matcher, command) is already
// registered (admit). hash is pairHash's of the spec's matcher and
// command.
func (p *parser) register(s *Spec, hash uint64) {
	if p.admit(s, hash, len(p.out.Specs)) {
		p.out.Specs = append(p.out.Specs, *s)
	}
}

// admit reports whether s is a hook not registered yet, to be registered
// at index at of the specs (those before it are registered), and
// otherwise says it is the same hook as an earlier one: the agent
// registers such a hook once, with the first entry's timeout and
// fail_closed (SPEC §14).
func (p *parser) admit(s *Spec, hash uint64, at int) bool {
	if p.seen == nil {
		p.seen = map[string]*registry{}
	}
	seen := p.seen[s.Event]
	if seen == nil {
		seen = &registry{byHash: map[uint64]int{}}
		p.seen[s.Event] = seen
	}
	if i, dup := seen.find(p.out.Specs[:at], s, hash); dup {
		first := p.out.Specs[i]
		p.out.Diagnostics = append(p.out.Diagnostics, config.Diagnostic{
			Level: config.LevelInfo, Path: fmt.Sprintf("hooks.%s[%d]", s.Event, s.Index), File: p.file, Line: s.Line,
			Message: fmt.Sprintf("the same hook (event, matcher and command) as hooks.%s[%d] at line %d: it is registered once, as the agent does, and that first entry's timeout and fail_closed apply",
				first.Event, first.Index, first.Line)})
		return false
	}
	return true
}

// A registry is the hooks of one event registered so far, by their
// (matcher, command): the index in the specs of the first with the pair's
// hash, checked against that spec's pair; a pair whose hash an earlier,
// other pair has is kept whole beside. A map keyed by the pairs
// themselves (40 bytes a key, hashed on one CPU) was a tenth of the parse
// at 755,000 hooks.
type registry struct {
	byHash map[uint64]int
	clash  map[[2]string]int
}

// find is the index of the spec registered with s's pair (hash its
// pairHash), when there is one; else s is recorded at len(specs).
func (r *registry) find(specs []Spec, s *Spec, hash uint64) (int, bool) {
	i, ok := r.byHash[hash]
	if !ok {
		r.byHash[hash] = len(specs)
		return 0, false
	}
	if first := &specs[i]; first.matcherText == s.matcherText && first.Command == s.Command {
		return i, true
	}
	key := [2]string{s.matcherText, s.Command}
	if i, ok := r.clash[key]; ok {
		return i, true
	}
	if r.clash == nil {
		r.clash = map[[2]string]int{}
	}
	r.clash[key] = len(specs)
	return 0, false
}

// pairHash hashes a hook's matcher and command for a registry (a
// variable: a test makes every pair clash).
var pairHash = func(matcher, command string) uint64 {
	return maphash.Comparable(pairSeed, [2]string{matcher, command})
}

var pairSeed = maphash.MakeSeed()

func (p *parser) unknownEvent(name string) string {
	if strings.Contains(name, ":") {
		return fmt.Sprintf("%q is a gateway event: gateway hooks are declared in <HERMES_HOME>/hooks/<name>/HOOK.yaml, not in hooks:; skipped", name)
	}
	if s := suggest.Name(name, p.cat.Names()); s != "" {
		return fmt.Sprintf("unknown hook event %q — did you mean %q?", name, s)
	}
	// Not the list of every name: a config with several unknown events
	// would repeat it for each.
	return fmt.Sprintf("unknown hook event %q; see 'hermes hooks events' for the valid names (an event newer than this hermes can be added to hooks_extra_events)", name)
}

func (p *parser) entry(ev catalog.Event, i int, item *yaml.Node) (Spec, bool) {
	at := entryPath{ev.Name, i}
	s := Spec{Event: ev.Name, Index: i, Timeout: DefaultTimeout, File: p.file, Line: item.Line}
	item = p.item(item)
	v := config.Resolve(item)
	if v.Kind != config.KindMapping {
		p.warn(at.String(), item.Line, "a hook must be a mapping with a command (command: ...), got %s; skipped", v.Describe())
		return s, false
	}
	f := p.fields(at.key, v.Node)
	p.misspelled(at, f)

	cmd, ok := f.get("command")
	if !ok {
		p.warn(at.String(), item.Line, "hook has no command; skipped")
		return s, false
	}
	cv := config.Resolve(cmd.Value)
	switch {
	case cv.Kind != config.KindString:
		p.warn(at.key("command"), cmd.KeyNode.Line, "command must be a string, got %s; hook skipped", cv.Describe())
		return s, false
	case pystr.IsBlank(cv.Str):
		p.warn(at.key("command"), cmd.KeyNode.Line, "command is blank; hook skipped")
		return s, false
	}
	// Trimmed as the agent's str.strip() does, so the allowlist key is
	// the agent's.
	s.Command = pystr.Strip(cv.Str)
	if x, ok := p.written(cmd.Value, cv); ok {
		if w := pystr.Strip(x.Written); w != s.Command {
			s.Written, s.Secrets = w, x.SecretVars()
		}
	}
	if inv, ok := guard.ParseCommand(s.Command, ""); ok {
		inner, _, _ := guard.Unwrap(s.Command)
		g := inv // not &inv: inv would be allocated for every hook
		s.Guard, s.Inner = &g, inner
		if w, _, ok := guard.Unwrap(s.Written); ok && w != inner {
			s.InnerWritten = w
		}
	}
	// Which word is left with a literal "~" does not depend on whose home a
	// leading "~" expands to: any absolute stand-in gives the same answer
	// as the user's home will when the hook is inspected. Without a "~"
	// there is nothing to find.
	if strings.Contains(s.Command, "~") {
		if argv, err := shell.Argv(s.Command, "/"); err == nil {
			if refusal := trust.TildeRefusal(shell.TildeScript(argv)); refusal != "" {
				p.warn(at.key("command"), cmd.KeyNode.Line, "will not run: %s", refusal)
			}
		}
	}

	if m, ok := f.get("matcher"); ok {
		if mv := config.Resolve(m.Value); mv.Kind == config.KindString {
			s.matcherText = pystr.Strip(mv.Str)
		}
		s.Matcher = p.matcher(ev, func() string { return at.key("matcher") }, m)
	}
	if t, ok := f.get("timeout"); ok {
		s.Timeout, s.TimeoutSet = p.timeout(at, t)
	}
	fc, ok := f.get("fail_closed")
	if !ok {
		fc, ok = f.get("failClosed")
	}
	if ok {
		s.FailClosed = p.failClosed(ev, at, fc)
	}
	if r, ok := f.get("replay"); ok {
		s.NoReplay = !p.replay(at, r)
	}
	return s, true
}

// replay reads an entry's replay key: true or false; anything else is a
// warning, and the hook is replayed (the default).
func (p *parser) replay(at entryPath, r config.Pair) bool {
	v := config.Resolve(r.Value)
	switch v.Kind {
	case config.KindBool:
		return v.Bool
	case config.KindNull:
		return true
	}
	p.warn(at.key("replay"), r.KeyNode.Line, "replay must be true or false (unquoted), got %s; using true (test --cases replays it)", v.Describe())
	return true
}

// matcher returns nil when the entry has no usable matcher; path is its
// path, made for a warning.
func (p *parser) matcher(ev catalog.Event, path func() string, m config.Pair) *Matcher {
	line := m.KeyNode.Line
	v := config.Resolve(m.Value)
	switch {
	case v.Kind == config.KindNull:
		return nil
	case v.Kind != config.KindString:
		p.warn(path(), line, "matcher must be a string (a regular expression over tool names), got %s; ignored, the hook applies to every call", v.Describe())
		return nil
	case pystr.IsBlank(v.Str):
		return nil
	case !ev.Tool:
		p.warn(path(), line, "matcher only applies to tool events (pre_tool_call, post_tool_call); it is ignored for %s", ev.Name)
		return nil
	}
	matcher, warning := CompileMatcher(pystr.Strip(v.Str))
	if warning != "" {
		p.warn(path(), line, "%s", warning)
	}
	return matcher
}

// timeout reads the timeout of the entry at.
func (p *parser) timeout(at entryPath, t config.Pair) (int, bool) {
	line := t.KeyNode.Line
	v := config.Resolve(t.Value)
	n, ok := pythonInt(v)
	path := func() string { return at.key("timeout") }
	switch {
	case !ok:
		p.warn(path(), line, "timeout must be a whole number of seconds, got %s; using the default %d", v.Describe(), DefaultTimeout)
		return DefaultTimeout, false
	case n < 1:
		p.warn(path(), line, "timeout %s is below 1 second; using the default %d", v.Describe(), DefaultTimeout)
		return DefaultTimeout, false
	case n > MaxTimeout:
		// The hook still runs, with the maximum: advice, not a problem.
		p.advise(path(), line, "timeout %s is above the maximum of %d seconds; using %d", v.Describe(), MaxTimeout, MaxTimeout)
		return MaxTimeout, true
	}
	return int(n), true
}

func (p *parser) failClosed(ev catalog.Event, at entryPath, fc config.Pair) bool {
	line := fc.KeyNode.Line
	v := config.Resolve(fc.Value)
	if v.Kind != config.KindBool {
		p.warn(at.key(fc.Key), line, "%s must be true or false (unquoted), got %s; using false", fc.Key, v.Describe())
		return false
	}
	if v.Bool && !ev.Blocking {
		p.warn(at.key(fc.Key), line, "%s only applies to pre_tool_call, the one event a hook can block; ignored for %s", fc.Key, ev.Name)
		return false
	}
	return v.Bool
}

// pythonInt applies Python's int() to a YAML value: booleans are 0 and 1,
// floats are truncated toward zero (1.5e1 is 15), strings are read as
// int(str) reads them (pythonIntString). Results saturate at the int64
// range, which is far past any clamp.
func pythonInt(v config.Value) (int64, bool) {
	switch v.Kind {
	case config.KindBool:
		if v.Bool {
			return 1, true
		}
		return 0, true
	case config.KindInt:
		return v.Int, true
	case config.KindFloat:
		if math.IsNaN(v.Float) || math.IsInf(v.Float, 0) {
			return 0, false
		}
		f := math.Trunc(v.Float)
		if f >= math.MaxInt64 {
			return math.MaxInt64, true
		}
		if f <= math.MinInt64 {
			return math.MinInt64, true
		}
		return int64(f), true
	case config.KindString:
		return pythonIntString(v.Str)
	}
	return 0, false
}
