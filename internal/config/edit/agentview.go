package edit

import (
	"math"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes/internal/config"
)

// agentScalar is a scalar the agent does not read as a string, an int or a
// bool: compared by what it is and how it is written.
type agentScalar struct {
	class string
	text  string
}

// agentFloat compares floats by their bits, so NaN equals NaN.
type agentFloat uint64

// maxAgentNodes bounds agentView on documents whose aliases expand
// enormously; past it the check by the agent's reading is skipped (the
// yaml.v3 check still runs).
const maxAgentNodes = 1 << 20

// agentView decodes a document as the agent's YAML 1.1 reader reads it
// (config.Resolve, plus timestamps, `=` and `<<`): the values a check after
// an edit compares, so that a scalar yaml.v3 reads as a string but the
// agent as a boolean (yes, on, y) or a number (1:20) is caught. Values are
// nil, bool, int, agentFloat, string, agentScalar, []any, map[string]any
// (keys as the same view renders them) and, for a mapping or a list that
// is an item of a list, lazyItem: decoded only when asked (force), so
// the view of a config of 755,000 hooks is a few small maps and lists
// rather than 755,000 maps (SPEC §29 item 2).
func agentView(src []byte) (v any, ok bool) {
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		return nil, false
	}
	return agentViewOf(&root, len(src))
}

// agentViewOf is agentView of a parsed document (nil: empty) of size bytes.
// The budget grows with the file: without aliases a document has fewer
// nodes than bytes, so only aliases that expand enormously exhaust it.
func agentViewOf(root *yaml.Node, size int) (v any, ok bool) {
	if root == nil {
		return nil, true
	}
	budget := max(maxAgentNodes, 2*size)
	v = agentValue(root, &budget)
	return v, budget >= 0
}

func agentValue(n *yaml.Node, budget *int) any { return agentValueIn(n, budget, true) }

// agentValueIn is agentValue; lazy: the items of lists that are mappings
// or lists are lazyItems (else decoded, for a tree that will not last).
func agentValueIn(n *yaml.Node, budget *int, lazy bool) any {
	*budget--
	if *budget < 0 {
		return nil
	}
	n = config.Deref(n)
	if n == nil {
		return nil
	}
	switch n.Kind {
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			if lazy && lazyKind(c) {
				out = append(out, lazyItem{c})
				continue
			}
			out = append(out, agentValueIn(c, budget, lazy))
		}
		return out
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			out[agentKey(n.Content[i])] = agentValueIn(n.Content[i+1], budget, lazy)
		}
		return out
	}
	r := config.Resolve(n)
	switch r.Kind {
	case config.KindNull:
		return nil
	case config.KindBool:
		return r.Bool
	case config.KindInt:
		if r.Int >= math.MinInt && r.Int <= math.MaxInt {
			return int(r.Int)
		}
		return agentScalar{"int", n.Value}
	case config.KindFloat:
		return agentFloat(math.Float64bits(r.Float))
	case config.KindString:
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle|yaml.TaggedStyle) == 0 {
			if c := config.PlainClass(n.Value); c != "string" {
				return agentScalar{c, n.Value}
			}
		}
		return r.Str
	}
	return agentScalar{"binary", n.Value}
}

// lazyKind reports whether a list's item c is a mapping or a list, left
// a lazyItem in a lazy view (a stub is not read to learn its kind).
func lazyKind(c *yaml.Node) bool {
	if config.IsStub(c) {
		return true
	}
	d := config.Deref(c)
	return d != nil && (d.Kind == yaml.MappingNode || d.Kind == yaml.SequenceNode)
}

// lazyItem is a mapping or a list, an item of a list, in a view: its
// view is agentValue of the node, made when an edit's expectation or a
// comparison needs it. It holds one pointer, so it is stored in an any
// without an allocation.
type lazyItem struct{ n *yaml.Node }

// force is v's view one level deep: a lazyItem decoded (its own
// collection items lazy again, but for a stub's item, read into memory
// used again, and so decoded whole), anything else as it is.
func force(v any, budget *int) any {
	l, ok := v.(lazyItem)
	switch {
	case !ok:
		return v
	case config.IsStub(l.n):
		r := readers.Get().(*config.ItemReader)
		defer readers.Put(r)
		return agentValueIn(r.Read(l.n), budget, false)
	}
	return agentValue(l.n, budget)
}

// readers read stubs' items (config.IsStub) for a use that keeps no node
// of them: a 55 MB config's 755,000 hooks read into the same memory.
var readers = sync.Pool{New: func() any { return new(config.ItemReader) }}

// agentKey renders a key: a string key as itself, anything else tagged so it
// cannot collide with one.
func agentKey(k *yaml.Node) string {
	budget := 1
	switch v := agentValue(config.Deref(k), &budget).(type) {
	case string:
		return v
	case agentScalar:
		return "\x00" + v.class + ":" + v.text
	}
	return "\x00" + k.Value
}
