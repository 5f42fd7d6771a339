package edit

import (
	"errors"
	"maps"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes/internal/config"
)

// list is one list that is a value of the mapping at a path, as eachList
// walks them: Remove, Replace and SetTrue all edit such lists (the hooks
// of each event under hooks:), and refuse the same shared places.
type list struct {
	d       *Doc
	path    []string
	onAlias bool       // the mapping at path is (inside) an alias
	key     *yaml.Node // the list's key in the mapping
	val     *yaml.Node // the value as written (maybe an alias)
	seq     *yaml.Node // the list itself, aliases followed
	name    string     // path and key joined with dots, for messages
}

// viaAlias reports whether the list is, or is inside, an alias of a value
// defined elsewhere: editing it would edit that value.
func (l list) viaAlias() bool { return l.onAlias || l.val.Kind == yaml.AliasNode }

// anchored reports whether an alias refers to the list or to a mapping on
// its path: editing it would change those places too.
func (l list) anchored() bool { return l.d.aliasTo(l.seq) || l.d.aliasToPath(l.path) }

// listItem is one item of such a list whose value is a mapping.
type listItem struct {
	list
	index int
	node  *yaml.Node // the item as written (maybe an alias, or a stub)
	// item is the item's mapping, aliases followed, a stub's read into
	// memory used again for the next (config.ItemReader): void once the
	// function eachItem calls returns.
	item *yaml.Node
}

// viaAlias is list.viaAlias, or the item itself is an alias.
func (it listItem) viaAlias() bool { return it.list.viaAlias() || it.node.Kind == yaml.AliasNode }

// anchored is list.anchored, or an alias elsewhere refers into the item.
func (it listItem) anchored() bool { return it.list.anchored() || it.d.reused(it.node) }

// flow reports whether the item or its list is written in flow style.
func (it listItem) flow() bool {
	return it.item.Style&yaml.FlowStyle != 0 || it.seq.Style&yaml.FlowStyle != 0
}

// eachList calls fn with each list that is a value of the mapping at path,
// in order, and stops at the first error. No mapping there: no calls.
func (d *Doc) eachList(path []string, fn func(list) error) error {
	m := d.Lookup(path)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	onAlias := d.aliasedOnPath(path)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		seq := config.Deref(v)
		if seq == nil || seq.Kind != yaml.SequenceNode {
			continue
		}
		name := strings.Join(append(append([]string(nil), path...), k.Value), ".")
		if err := fn(list{d, path, onAlias, k, v, seq, name}); err != nil {
			return err
		}
	}
	return nil
}

// eachItem calls fn with each item that is a mapping of each list that is
// a value of the mapping at path, in order, and stops at the first error.
func (d *Doc) eachItem(path []string, fn func(listItem) error) error {
	r := readers.Get().(*config.ItemReader)
	defer readers.Put(r)
	return d.eachList(path, func(l list) error {
		for j, n := range l.seq.Content {
			item := config.Deref(r.Read(n))
			if item == nil || item.Kind != yaml.MappingNode {
				continue
			}
			if err := fn(listItem{l, j, n, item}); err != nil {
				return err
			}
		}
		return nil
	})
}

// finishFields applies the splices of an edit that set field in the items
// changed names (SetTrue, Replace) and returns the new file and how many
// items changed; none: the file as it was.
func (d *Doc) finishFields(sp []splice, path []string, field string, changed map[string]map[int]any) ([]byte, int, error) {
	if len(sp) == 0 {
		return d.src, 0, nil
	}
	out, err := d.finish(sp, func(old any) (any, error) { return setFieldValue(old, path, field, changed) })
	if err != nil {
		return nil, 0, err
	}
	return out, len(sp), nil
}

// setFieldValue is what the document must mean after field is set in the
// items changed names: list key → item index → new value.
func setFieldValue(old any, path []string, field string, changed map[string]map[int]any) (any, error) {
	return setIn(old, path, func(cur any) (any, error) {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, errors.New("not a mapping with string keys")
		}
		out := maps.Clone(m)
		for k, idx := range changed {
			items, ok := m[k].([]any)
			if !ok {
				return nil, errors.New("not a list")
			}
			nl := append([]any(nil), items...)
			for j, v := range idx {
				budget := maxAgentNodes
				item, ok := force(nl[j], &budget).(map[string]any)
				if !ok {
					return nil, errors.New("not a mapping")
				}
				ni := maps.Clone(item)
				ni[field] = v
				nl[j] = ni
			}
			out[k] = nl
		}
		return out, nil
	})
}

// markChanged records that item index of list key now has value.
func markChanged(changed map[string]map[int]any, key string, index int, value any) {
	if changed[key] == nil {
		changed[key] = map[int]any{}
	}
	changed[key][index] = value
}
