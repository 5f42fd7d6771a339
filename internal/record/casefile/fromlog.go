package casefile

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes/internal/audit"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/record"
)

// Selection chooses the recorded firings from-log makes cases of; a zero
// field selects all. A firing is selected when any of its audit lines
// matches Filter (its event, a hook that ran in it, its outcome); its
// expectation is still the whole firing's decision.
type Selection struct {
	Filter audit.Filter
	// Limit keeps the newest Limit cases (0: all).
	Limit int
}

// Built is what FromLog made, and what it left out and why.
type Built struct {
	Cases []Case
	// Firings is how many recorded firings were selected; From and To the
	// time of the first and the last.
	Firings  int
	From, To time.Time
	// Duplicates: firings with the same event, tool input and decision as
	// an earlier case, kept once.
	Duplicates int
	// Skipped counts the selected firings with no case, per reason.
	Skipped map[string]int
	// Unreadable are the audit log's lines that could not be read.
	Unreadable []audit.Skipped
	// LimitDropped is how many older cases --limit left out.
	LimitDropped int
}

// Reasons a selected firing makes no case.
const (
	SkipNoPayload = "no payload kept (recorded with recording off, or removed to keep the store in its bound)"
	SkipTruncated = "payload over 1 MiB (stored cut)"
	SkipNotJSON   = "payload is not a JSON object"
	SkipNoID      = "audit line without an id (written before recording existed)"
)

// FromLog reads the audit log of home and the payload store and builds a
// case per distinct recorded firing, oldest first.
func FromLog(home string, sel Selection) (*Built, error) {
	b := &Built{Skipped: map[string]int{}}
	byID := map[string]*firing{}
	var order []*firing
	unreadable, err := audit.ReadAll(audit.Path(home), func(l audit.Line) error {
		if !record.ValidID(l.ID) {
			if sel.Filter.Match(&l) {
				b.Skipped[SkipNoID]++
			}
			return nil
		}
		f := byID[l.ID]
		if f == nil {
			f = &firing{id: l.ID, event: l.Event, time: l.Time}
			byID[l.ID] = f
			order = append(order, f)
		}
		var parsed map[string]any
		if l.ParsedKind != "" { // most lines answer nothing: no second decode
			parsed = readParsed(l.Raw)
		}
		f.add(&l, parsed)
		if sel.Filter.Match(&l) {
			f.selected = true
		}
		return nil
	})
	b.Unreadable = unreadable
	if err != nil {
		return b, err
	}
	st := record.Open(home, record.DefaultMax)
	seen := map[string]bool{}
	merger := newGuardMerger()
	var firings []*firing
	for _, f := range order {
		if !f.selected {
			continue
		}
		if !f.decides() {
			b.Skipped[SkipNoDecision]++
			continue
		}
		data, err := st.Read(f.id)
		if err != nil {
			b.Skipped[SkipNoPayload]++
			continue
		}
		p, reason := readPayload(data)
		if reason != "" {
			b.Skipped[reason]++
			continue
		}
		// Only the sum is kept: the bytes are read again for the cases
		// kept, so 100,000 firings do not sit in memory at once.
		f.payloadSum, f.call = sha256.Sum256(data), p
		if merger.merge(f) {
			continue // another guard's run of the same call of the agent
		}
		firings = append(firings, f)
	}
	for _, f := range firings {
		b.Firings++
		if b.From.IsZero() || f.time.Before(b.From) {
			b.From = f.time
		}
		if f.time.After(b.To) {
			b.To = f.time
		}
		c := f.caseOf()
		key := f.call.digest + "\x00" + c.Expect.Action + "\x00" + f.blockMessage
		if seen[key] {
			b.Duplicates++
			continue
		}
		seen[key] = true
		if c.Payload, err = st.Read(f.id); err != nil {
			b.Skipped[SkipNoPayload]++ // removed since the first read
			continue
		}
		b.Cases = append(b.Cases, c)
	}
	if sel.Limit > 0 && len(b.Cases) > sel.Limit {
		b.LimitDropped = len(b.Cases) - sel.Limit
		b.Cases = b.Cases[len(b.Cases)-sel.Limit:]
	}
	uniqueNames(b.Cases)
	return b, nil
}

// uniqueNames numbers the later cases of a name already taken (the same
// call decided differently at two times): a case file's names must differ.
func uniqueNames(cases []Case) {
	seen := map[string]int{}
	for i := range cases {
		name := cases[i].Name
		seen[name]++
		if n := seen[name]; n > 1 {
			cases[i].Name = fmt.Sprintf("%s #%d", name, n)
		}
	}
}

// FromLogMadeBy starts the first comment of a file from-log made: such a
// file may be written over by from-log again.
const FromLogMadeBy = "Made by `hermes hooks cases from-log`"

// Header is the file's first comment: what it was made from.
func (b *Built) Header(home string, sel Selection, now time.Time) []string {
	h := []string{fmt.Sprintf(FromLogMadeBy+" on %s from %d recorded firing(s) in %s",
		now.UTC().Format(time.RFC3339), b.Firings, record.Dir(home))}
	if b.Firings > 0 {
		h[0] += fmt.Sprintf(" (%s to %s)", b.From.UTC().Format(time.RFC3339), b.To.UTC().Format(time.RFC3339))
	}
	h[0] += "."
	var filters []string
	f := sel.Filter
	if !f.Since.IsZero() {
		filters = append(filters, "since "+f.Since.UTC().Format(time.RFC3339))
	}
	if f.Event != "" {
		filters = append(filters, "event "+f.Event)
	}
	if len(f.Hooks) > 0 {
		filters = append(filters, "hook "+f.Hooks[0])
	}
	if len(f.Outcomes) > 0 {
		filters = append(filters, "status "+strings.Join(f.Outcomes, ","))
	}
	if sel.Limit > 0 {
		filters = append(filters, fmt.Sprintf("the newest %d case(s)", sel.Limit))
	}
	if len(filters) > 0 {
		h = append(h, "Selected: "+strings.Join(filters, "; ")+".")
	}
	h = append(h, fmt.Sprintf("%d case(s): each expects the decision the hooks gave then; %d repeated firing(s) kept once.", len(b.Cases), b.Duplicates))
	for _, reason := range b.SkippedReasons() {
		h = append(h, fmt.Sprintf("Skipped %d firing(s): %s.", b.Skipped[reason], reason))
	}
	if b.LimitDropped > 0 {
		h = append(h, fmt.Sprintf("Left out %d older case(s) (--limit).", b.LimitDropped))
	}
	h = append(h, "Replay today's hooks against it with: hermes hooks test --cases FILE")
	return h
}

// SkippedReasons lists the reasons of Skipped in a fixed order.
func (b *Built) SkippedReasons() []string {
	var out []string
	for r := range b.Skipped {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

// readParsed is a line's parsed answer (its action and message, beyond
// what audit.Line keeps), nil when it has none.
func readParsed(raw []byte) map[string]any {
	var x struct {
		Parsed any `json:"parsed"`
	}
	if json.Unmarshal(raw, &x) != nil {
		// NaN in a parsed answer, which Python's JSON allows.
		if obj, err := pyjson.DecodeObject(raw); err == nil {
			if o, ok := obj.Value("parsed").(*pyjson.Object); ok {
				return toMap(o)
			}
		}
		return nil
	}
	m, _ := x.Parsed.(map[string]any)
	return m
}

func toMap(o *pyjson.Object) map[string]any {
	m := map[string]any{}
	for _, mem := range o.Members() {
		m[mem.Key] = mem.Value
	}
	return m
}

// call is what a payload says about the call: the tool, a short text of
// its input, and the digest of event, tool and input.
type call struct {
	tool, input, digest string
}

// readPayload reads a stored payload; reason says why it makes no case.
func readPayload(data []byte) (call, string) {
	obj, err := pyjson.DecodeObject(data)
	if err != nil {
		return call{}, SkipNotJSON
	}
	if t, _ := obj.Get("truncated"); t == true && obj.Has("head") {
		return call{}, SkipTruncated
	}
	var c call
	c.tool, _ = obj.Value("tool_name").(string)
	input := obj.Value("tool_input")
	canonical := pyjson.Marshal(input, pyjson.Options{SortKeys: true, Compact: true, KeepNumbers: true})
	sum := sha256.Sum256([]byte(obj.Str("hook_event_name") + "\x00" + c.tool + "\x00" + string(canonical)))
	c.digest = hex.EncodeToString(sum[:])
	c.input = summary(input)
	return c, ""
}

// summary is a short text of a tool's input: its command, path, URL or
// query (the first string argument), else the input as JSON.
func summary(input any) string {
	var s string
	if o, ok := input.(*pyjson.Object); ok {
		for _, m := range o.Members() {
			if v, ok := m.Value.(string); ok && strings.TrimSpace(v) != "" {
				s = v
				break
			}
		}
		if s == "" && o.Len() > 0 {
			s = string(pyjson.Marshal(o, pyjson.Options{Compact: true}))
		}
	}
	s = strings.Join(strings.Fields(s), " ")
	const limit = 60
	if utf8.RuneCountInString(s) > limit {
		r := []rune(s)
		s = string(r[:limit]) + "…"
	}
	return s
}
