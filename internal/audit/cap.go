package audit

import (
	"encoding/json"
	"maps"
	"slices"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// Limits of what a line keeps of a hook's answer (SPEC §24 item 5): each
// string at most MaxString bytes, each list or object at most maxItems
// members, nested at most maxDepth deep. A hook that answers megabytes
// then leaves a line of kilobytes, and one tool call cannot rotate the
// history away.
const (
	MaxString = 4096
	maxItems  = 64
	maxDepth  = 8
)

// capString is s cut to MaxString bytes at a character boundary.
func capString(s string) string {
	if len(s) <= MaxString {
		return s
	}
	i := MaxString
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}

// capAnswer is the answer as the line stores it, within the limits, and
// whether anything was cut. It walks the value itself (a hook's answer of
// megabytes is never encoded whole just to be cut); a type it does not
// know is encoded and read back first.
func capAnswer(v any) (any, bool) {
	if v == nil {
		return nil, false
	}
	c := capper{}
	out := c.value(v, 0)
	return out, c.cut
}

// wirer is what the hook's judged answer (answer.Answer) stores as.
type wirer interface{ Wire() *pyjson.Object }

type capper struct {
	cut      bool
	decoding bool
}

func (c *capper) value(v any, depth int) any {
	switch v := v.(type) {
	case string:
		if s := capString(v); len(s) < len(v) {
			c.cut = true
			return s
		}
		return v
	case []any:
		if depth >= maxDepth {
			c.cut = true
			return []any{}
		}
		n := min(len(v), maxItems)
		c.cut = c.cut || n < len(v)
		out := make([]any, n)
		for i := range out {
			out[i] = c.value(v[i], depth+1)
		}
		return out
	case map[string]any:
		o := pyjson.NewObject()
		for _, k := range slices.Sorted(maps.Keys(v)) {
			o.Set(k, v[k])
		}
		return c.value(o, depth)
	case wirer:
		if w := v.Wire(); w != nil {
			return c.value(w, depth)
		}
		return nil
	case *pyjson.Object:
		if v == nil {
			return v
		}
		if depth >= maxDepth {
			c.cut = true
			return pyjson.NewObject()
		}
		out := pyjson.NewObject()
		for i, m := range v.Members() {
			if i == maxItems {
				c.cut = true
				break
			}
			k := capString(m.Key)
			c.cut = c.cut || len(k) < len(m.Key)
			out.Set(k, c.value(m.Value, depth+1))
		}
		return out
	case nil, bool, float64, int, json.Number:
		return v
	}
	raw, err := json.Marshal(v)
	if err != nil || c.decoding {
		return nil // read back, every value is of a kind above
	}
	tree, err := pyjson.Decode(pyjson.RestoreNonFinite(raw))
	if err != nil {
		c.cut = true
		return nil
	}
	c.decoding = true
	defer func() { c.decoding = false }()
	return c.value(tree, depth)
}
