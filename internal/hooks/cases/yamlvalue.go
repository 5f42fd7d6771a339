package cases

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// value converts a YAML node to the JSON value pyjson decodes to (objects
// keep their key order).
func (p *parser) value(path string, n *yaml.Node) (any, bool) {
	if p.values++; p.values > maxValues {
		if !p.bombed {
			p.bombed = true
			p.problem(n, path, fmt.Sprintf("aliases expand to more than %d values (an alias bomb?): the case file is refused", maxValues))
		}
		return nil, false
	}
	n = config.Deref(n)
	switch n.Kind {
	case yaml.MappingNode:
		obj := pyjson.NewObject()
		ok := true
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := config.Deref(n.Content[i])
			if k.Kind != yaml.ScalarNode || k.ShortTag() == "!!merge" {
				p.problem(k, path, "object keys must be plain strings")
				ok = false
				continue
			}
			v, vok := p.value(path+"."+k.Value, n.Content[i+1])
			ok = ok && vok
			obj.Set(k.Value, v)
		}
		return obj, ok
	case yaml.SequenceNode:
		list := []any{}
		ok := true
		for i, c := range n.Content {
			v, vok := p.value(fmt.Sprintf("%s[%d]", path, i), c)
			ok = ok && vok
			list = append(list, v)
		}
		return list, ok
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!str", "!!timestamp":
			return n.Value, true
		case "!!null":
			return nil, true
		case "!!bool":
			var b bool
			if n.Decode(&b) == nil {
				return b, true
			}
		case "!!int":
			var i int64
			if n.Decode(&i) == nil {
				return i, true
			}
		case "!!float":
			var f float64
			if n.Decode(&f) == nil && f == f && f-f == 0 { // JSON has no NaN or infinity
				return f, true
			}
		}
	}
	p.problem(n, path, "a value JSON cannot carry: "+describe(n))
	return nil, false
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.DocumentNode:
		return "a document"
	}
	return describe(n)
}

// describe names a node's type and shows a scalar's text.
func describe(n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode {
		return kindName(n)
	}
	switch n.ShortTag() {
	case "!!null":
		return "null"
	case "!!bool":
		return "a boolean (" + n.Value + ")"
	case "!!int", "!!float":
		return "a number (" + n.Value + ")"
	case "!!str":
		return fmt.Sprintf("a string (%q)", n.Value)
	}
	return fmt.Sprintf("%s (%s)", n.ShortTag(), n.Value)
}
