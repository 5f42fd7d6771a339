package cases

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/hooks/gateway"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/regfile"
	"github.com/hermes-hooks/hermes/internal/suggest"
)

// The keys a case and its expect mapping may have.
var (
	caseKeys   = []string{"name", "event", "payload", "expect", "canary"}
	expectKeys = []string{"action", "message_contains", "context_contains", "args", "hooks_fired", "decision", "command"}
)

// Actions a case may expect, per event whose outcome has one.
var eventActions = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"pre_tool_call": {hooks.OutcomeAllow, hooks.ActionBlock, hooks.ActionApprove, ActionModify},
		"pre_verify":    {hooks.ActionContinue, hooks.OutcomeFinish},
	}
})

// Which events' outcomes carry what the other expectations check.
var (
	// commandEvents stands for every command:<name> event in these lists.
	commandEvents = "command:<name>"
	messageEvents = []string{"pre_tool_call", "pre_verify", commandEvents}
	contextEvents = []string{"pre_llm_call"}
	argsEvents    = []string{"pre_tool_call"}
)

// maxSize bounds what is read of a case file: far above any real one.
const maxSize = 16 << 20

// Load reads and parses the case file at path. Events are checked against
// cat. A file that cannot be read or has any problem is an *Error.
func Load(path string, cat *catalog.Catalogue) ([]Case, error) {
	data, err := readRegular(path)
	if err != nil {
		return nil, &Error{Problems: []Problem{{File: path, Message: err.Error()}}}
	}
	return Parse(path, data, cat)
}

// readRegular reads a regular file; a FIFO or device is refused without
// blocking (regfile.Open), so it cannot hang us.
func readRegular(path string) ([]byte, error) {
	f, err := regfile.Open(path)
	var notRegular *regfile.NotRegularError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, errors.New("cannot read the case file: it does not exist")
	case errors.As(err, &notRegular):
		return nil, fmt.Errorf("cannot read the case file: it is %s, not a regular file", notRegular.Kind)
	case err != nil:
		return nil, fmt.Errorf("cannot read the case file: %v", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSize+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read the case file: %v", err)
	}
	if len(data) > maxSize {
		return nil, fmt.Errorf("the case file is larger than %d MiB", maxSize>>20)
	}
	return data, nil
}

// yamlLine finds the line yaml.v3 names in a syntax error.
var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): `) })

// Parse parses a case file's content (YAML, or JSON, which YAML reads).
func Parse(file string, data []byte, cat *catalog.Catalogue) ([]Case, error) {
	p := &parser{file: file, cat: cat}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			p.problem(nil, "", "the file is empty: expected a list of cases")
			return nil, p.err()
		}
		msg := err.Error()
		line := 0
		if m := yamlLine().FindStringSubmatch(msg); m != nil {
			line, _ = strconv.Atoi(m[1])
			msg = strings.TrimPrefix(msg, m[0])
		}
		msg = strings.TrimPrefix(msg, "yaml: ")
		p.problems = append(p.problems, Problem{File: file, Line: line, Message: "not valid YAML or JSON: " + msg})
		return nil, p.err()
	}
	var more yaml.Node
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) {
		p.problem(&more, "", "more than one YAML document: put every case in one list")
		return nil, p.err()
	}
	root := config.Deref(&doc)
	if root == nil {
		root = &doc
	}
	if root.Kind != yaml.SequenceNode {
		p.problem(root, "", "expected a list of cases, got "+kindName(root))
		return nil, p.err()
	}
	if len(root.Content) == 0 {
		p.problem(root, "", "the list has no cases")
		return nil, p.err()
	}
	var out []Case
	names := map[string]int{}
	for i, n := range root.Content {
		c, ok := p.parseCase(fmt.Sprintf("cases[%d]", i), config.Deref(n))
		if !ok {
			continue
		}
		if line, dup := names[c.Name]; dup {
			p.problem(n, fmt.Sprintf("cases[%d].name", i), fmt.Sprintf("duplicate case name %q (also at line %d): names tell cases apart in reports", c.Name, line))
			continue
		}
		names[c.Name] = c.Line
		out = append(out, c)
	}
	if len(p.problems) > 0 {
		return nil, p.err()
	}
	return out, nil
}

type parser struct {
	file     string
	cat      *catalog.Catalogue
	problems []Problem
	// values counts the values payloads and args expand to, aliases
	// followed: past maxValues the file is refused (an alias bomb).
	values int
	bombed bool
}

// maxValues bounds the values a case file's payloads and expectations
// expand to once aliases are followed. A real file has thousands at most;
// nine nested aliases of nine (563 bytes) expand to 387 million.
const maxValues = 1 << 20

func (p *parser) problem(n *yaml.Node, field, msg string) {
	line := 0
	if n != nil {
		line = n.Line
	}
	p.problems = append(p.problems, Problem{File: p.file, Line: line, Field: field, Message: msg})
}

// err is the problems found, in file order.
func (p *parser) err() error {
	slices.SortStableFunc(p.problems, func(a, b Problem) int { return a.Line - b.Line })
	return &Error{Problems: p.problems}
}

// parseCase reads one case; ok is false when it has problems (recorded).
func (p *parser) parseCase(path string, n *yaml.Node) (Case, bool) {
	c := Case{File: p.file, Line: n.Line}
	if n.Kind != yaml.MappingNode {
		p.problem(n, path, "expected a mapping with name, event and expect, got "+kindName(n))
		return c, false
	}
	before := len(p.problems)
	fields := p.mapping(path, n, caseKeys)
	if v, ok := fields["name"]; !ok {
		p.problem(n, path, "missing name")
	} else if s, ok := p.str(path+".name", v); ok {
		if strings.TrimSpace(s) == "" {
			p.problem(v, path+".name", "name is blank")
		}
		c.Name = s
	}
	eventKnown := false
	if v, ok := fields["event"]; !ok {
		p.problem(n, path, "missing event")
	} else if s, ok := p.str(path+".event", v); ok {
		c.Event = s
		eventKnown = p.checkEvent(path+".event", v, s)
	}
	if v, ok := fields["payload"]; ok && v.ShortTag() != "!!null" {
		if v.Kind != yaml.MappingNode {
			p.problem(v, path+".payload", "expected a mapping (a JSON object: fields or wire shape), got "+kindName(v))
		} else if val, ok := p.value(path+".payload", v); ok {
			c.Payload = val.(*pyjson.Object)
		}
	}
	if v, ok := fields["canary"]; ok {
		var b bool
		if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!bool" || v.Decode(&b) != nil {
			p.problem(v, path+".canary", "canary must be true or false (unquoted), got "+kindName(v))
		} else if b && eventKnown && c.Event != canaryEvent {
			p.problem(v, path+".canary", fmt.Sprintf("a canary is a call that must never be blocked: only %s can block one, not %s", canaryEvent, c.Event))
		} else {
			c.Canary = b
		}
	}
	if v, ok := fields["expect"]; !ok {
		if !c.Canary {
			p.problem(n, path, "missing expect (one or more of "+strings.Join(expectKeys, ", ")+"), or canary: true")
		}
	} else {
		event := ""
		if eventKnown {
			event = c.Event
		}
		c.Expect = p.parseExpect(path+".expect", v, event)
	}
	return c, len(p.problems) == before
}

// checkEvent reports whether event can be fired by a case.
func (p *parser) checkEvent(path string, n *yaml.Node, event string) bool {
	if gateway.IsCommandEvent(event) {
		return true // a slash command's routing (expect decision)
	}
	if catalog.IsGatewayEvent(event) {
		p.problem(n, path, fmt.Sprintf("%s is a gateway event: its hooks only observe and cannot be tested by cases, except a slash command's (command:<name>, expect decision) (try 'hermes hooks test %s')", event, event))
		return false
	}
	ev, ok := p.cat.Lookup(event)
	if !ok {
		msg := fmt.Sprintf("unknown event %q", event)
		if s := suggest.Name(event, p.cat.Names()); s != "" {
			msg += fmt.Sprintf(" — did you mean %q?", s)
		} else {
			msg += " (see 'hermes hooks events')"
		}
		p.problem(n, path, msg)
		return false
	}
	if !ev.ShellSupported {
		p.problem(n, path, fmt.Sprintf("shell hooks cannot serve %s (only in-process plugins can)", event))
		return false
	}
	return true
}

// parseExpect reads an expect mapping; event is "" when the case's event
// is unknown, and then only keys and types are checked.
func (p *parser) parseExpect(path string, n *yaml.Node, event string) Expect {
	var x Expect
	if n.Kind != yaml.MappingNode {
		p.problem(n, path, "expected a mapping of "+strings.Join(expectKeys, ", ")+", got "+kindName(n))
		return x
	}
	fields := p.mapping(path, n, expectKeys)
	if len(n.Content) == 0 {
		p.problem(n, path, "expect is empty: give one or more of "+strings.Join(expectKeys, ", "))
	}
	command := gateway.IsCommandEvent(event)
	// onlyFor refuses an expectation the event's outcome cannot meet.
	onlyFor := func(key string, v *yaml.Node, events []string, what string) bool {
		if event == "" || slices.Contains(events, event) || command && slices.Contains(events, commandEvents) {
			return true
		}
		if command {
			p.problem(v, path+"."+key, fmt.Sprintf("%s outcomes have no %s (a slash command's outcome has decision, message and command): this expectation could never be met", event, what))
			return false
		}
		p.problem(v, path+"."+key, fmt.Sprintf("%s outcomes have no %s (only %s): this expectation could never be met", event, what, strings.Join(events, ", ")))
		return false
	}
	if v, ok := fields["decision"]; ok {
		if s, ok := p.str(path+".decision", v); ok && onlyFor("decision", v, []string{commandEvents}, "decision") {
			if !slices.Contains(gateway.Decisions, s) {
				p.problem(v, path+".decision", fmt.Sprintf("unknown decision %q%s (one of %s)", s, didYouMean(s, gateway.Decisions), strings.Join(gateway.Decisions, ", ")))
			}
			x.Decision = &s
		}
	}
	if v, ok := fields["command"]; ok {
		if s, ok := p.str(path+".command", v); ok && onlyFor("command", v, []string{commandEvents}, "command") {
			x.Command = &s
		}
	}
	if v, ok := fields["action"]; ok && command {
		p.problem(v, path+".action", fmt.Sprintf("%s outcomes have no action: expect decision (%s) instead", event, strings.Join(gateway.Decisions, ", ")))
	} else if ok {
		if s, ok := p.str(path+".action", v); ok {
			x.Action = &s
			p.checkAction(path+".action", v, s, event)
		}
	}
	if v, ok := fields["message_contains"]; ok {
		if s, ok := p.str(path+".message_contains", v); ok && onlyFor("message_contains", v, messageEvents, "message") {
			x.MessageContains = &s
		}
	}
	if v, ok := fields["context_contains"]; ok {
		if s, ok := p.str(path+".context_contains", v); ok && onlyFor("context_contains", v, contextEvents, "context") {
			x.ContextContains = &s
		}
	}
	if v, ok := fields["args"]; ok && onlyFor("args", v, argsEvents, "arguments") {
		switch {
		case v.ShortTag() == "!!null":
			x.HasArgs = true
		case v.Kind != yaml.MappingNode:
			p.problem(v, path+".args", "expected a mapping (the final arguments) or null (no hook modified them), got "+kindName(v))
		default:
			if val, ok := p.value(path+".args", v); ok {
				x.Args, x.HasArgs = val.(*pyjson.Object), true
			}
		}
	}
	if v, ok := fields["hooks_fired"]; ok {
		var n int
		if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!int" || v.Decode(&n) != nil || n < 0 {
			p.problem(v, path+".hooks_fired", "expected a whole number of hooks (0 or more), got "+describe(v))
		} else {
			x.HooksFired = &n
		}
	}
	return x
}

func (p *parser) checkAction(path string, n *yaml.Node, action, event string) {
	all := slices.Concat(eventActions()["pre_tool_call"], eventActions()["pre_verify"])
	if event == "" {
		if !slices.Contains(all, action) {
			p.problem(n, path, fmt.Sprintf("unknown action %q%s (one of %s)", action, didYouMean(action, all), strings.Join(all, ", ")))
		}
		return
	}
	valid, ok := eventActions()[event]
	switch {
	case !ok && event == "pre_llm_call":
		p.problem(n, path, "pre_llm_call outcomes have no action: expect context_contains instead")
	case !ok:
		p.problem(n, path, fmt.Sprintf("%s is an observer event: its outcome has no action (expect hooks_fired instead)", event))
	case !slices.Contains(valid, action):
		p.problem(n, path, fmt.Sprintf("unknown action %q for %s%s (one of %s)", action, event, didYouMean(action, valid), strings.Join(valid, ", ")))
	}
}

func didYouMean(name string, candidates []string) string {
	if s := suggest.Closest(name, candidates); s != "" {
		return fmt.Sprintf(" — did you mean %q?", s)
	}
	return ""
}

// mapping returns the values of a mapping node by key, reporting unknown
// and repeated keys.
func (p *parser) mapping(path string, n *yaml.Node, known []string) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], config.Deref(n.Content[i+1])
		key := k.Value
		switch {
		case !slices.Contains(known, key):
			p.problem(k, path, fmt.Sprintf("unknown key %q%s (known: %s)", key, didYouMean(key, known), strings.Join(known, ", ")))
		case out[key] != nil:
			p.problem(k, path+"."+key, "repeated key")
		default:
			out[key] = v
		}
	}
	return out
}

// str reads a string scalar.
func (p *parser) str(path string, n *yaml.Node) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		p.problem(n, path, "expected a string, got "+describe(n))
		return "", false
	}
	return n.Value, true
}
