package hookspec

import (
	"context"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/config/edit"
)

// AddAllToConfig is AddToConfig of many hooks at once, in time linear in
// their number (an import of thousands): the file is parsed once per event,
// the hooks already there are looked up in a set, and each event's new
// hooks are appended in one edit. It returns the new text and, in order,
// for each hook nil or an error wrapping ErrAlreadyConfigured (also when
// an earlier hook of the same call is the same). ctx ends it early.
func AddAllToConfig(ctx context.Context, src []byte, hs []NewHook, env config.Env) ([]byte, []error, error) {
	d, err := edit.Parse(src)
	if err != nil {
		return nil, nil, err
	}
	type key struct{ event, matcher, command string }
	seen := map[key]bool{}
	norm := func(c string) (string, string) {
		c = strings.TrimSpace(c)
		return c, strings.TrimSpace(config.ExpandEnv(c, env))
	}
	add := func(event, matcher, cmd string) {
		a, b := norm(cmd)
		m := strings.TrimSpace(matcher)
		seen[key{event, m, a}] = true
		seen[key{event, m, b}] = true
	}
	if hooks := d.Lookup([]string{"hooks"}); hooks != nil && hooks.Kind == yaml.MappingNode {
		var r config.ItemReader
		for i := 0; i+1 < len(hooks.Content); i += 2 {
			event, list := hooks.Content[i].Value, hooks.Content[i+1]
			if list.Kind != yaml.SequenceNode {
				continue
			}
			for _, item := range list.Content {
				item = config.Deref(r.Read(item))
				cmd, ok := scalarField(item, "command")
				if !ok {
					continue
				}
				m, _ := scalarField(item, "matcher")
				add(event, m, cmd)
			}
		}
	}
	errs := make([]error, len(hs))
	var order []string
	byEvent := map[string][][]edit.Field{}
	for i, h := range hs {
		if i%1024 == 0 && ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		a, b := norm(h.Command)
		m := strings.TrimSpace(h.Matcher)
		if seen[key{h.Event, m, a}] || seen[key{h.Event, m, b}] {
			errs[i] = fmt.Errorf("%w: %s already has %q (matcher %s)", ErrAlreadyConfigured, h.Event, h.Command, orNoMatcher(h.Matcher))
			continue
		}
		add(h.Event, h.Matcher, h.Command)
		if _, ok := byEvent[h.Event]; !ok {
			order = append(order, h.Event)
		}
		byEvent[h.Event] = append(byEvent[h.Event], h.fields())
	}
	if len(order) == 0 {
		return src, errs, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	adds := make([]edit.Append, len(order))
	for i, event := range order {
		adds[i] = edit.Append{Path: []string{"hooks", event}, Items: byEvent[event]}
	}
	if h := d.Lookup([]string{"hooks"}); h == nil || h.Kind != yaml.MappingNode || len(h.Content) == 0 {
		// The first list creates hooks:; the others then go beside it.
		first, err := d.AppendAll(adds[0].Path, adds[0].Items)
		if err != nil {
			return nil, nil, err
		}
		if adds = adds[1:]; len(adds) == 0 {
			return first, errs, nil
		}
		if d, err = edit.Parse(first); err != nil {
			return nil, nil, err
		}
	}
	out, err := d.AppendEach(adds)
	if err != nil {
		return nil, nil, err
	}
	return out, errs, nil
}
