package hookspec

import (
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/config/edit"
)

// Selection names the hooks `disable` or `enable` move (SPEC §27): by
// command (as written, expanded, or the command a guard runs), every one
// (All), of one event only when Event is set. A command configured under
// two events selects both unless Event says which.
type Selection struct {
	Commands []string
	Event    string
	All      bool
}

// DisableInConfig moves the selected hooks of hooks: under hooks_disabled:
// (edit.Disable: with their comments, byte for byte), returning the new
// text, the hooks moved and the commands that matched none.
func DisableInConfig(src []byte, sel Selection, env config.Env) ([]byte, []ConfigRef, []string, error) {
	return moveSelected(src, "hooks", sel, env, edit.Disable)
}

// EnableInConfig moves the selected hooks of hooks_disabled: back into
// hooks: (edit.Enable: at their old place when their neighbours are
// unchanged, else at the end of their event's list).
func EnableInConfig(src []byte, sel Selection, env config.Env) ([]byte, []ConfigRef, []string, error) {
	return moveSelected(src, config.HooksDisabledKey, sel, env, edit.Enable)
}

func moveSelected(src []byte, from string, sel Selection, env config.Env,
	move func([]byte, []edit.Entry) ([]byte, error)) ([]byte, []ConfigRef, []string, error) {
	d, err := edit.Parse(src)
	if err != nil {
		return nil, nil, nil, err
	}
	var entries []edit.Entry
	var refs []ConfigRef
	used := make([]bool, len(sel.Commands))
	if m := d.Lookup([]string{from}); m != nil && m.Kind == yaml.MappingNode {
		var r config.ItemReader
		for i := 0; i+1 < len(m.Content); i += 2 {
			event := m.Content[i].Value
			list := config.Deref(m.Content[i+1])
			if event == OutboundKey || event == OutputSpillKey || list == nil || list.Kind != yaml.SequenceNode ||
				sel.Event != "" && event != sel.Event {
				continue
			}
			for j, item := range list.Content {
				cmd, ok := scalarField(r.Read(item), "command")
				if !ok || strings.TrimSpace(cmd) == "" {
					continue
				}
				hit := sel.All
				for k, c := range sel.Commands {
					if sameCommand(cmd, c, env) {
						hit, used[k] = true, true
					}
				}
				if hit {
					entries = append(entries, edit.Entry{Event: event, Index: j})
					refs = append(refs, ConfigRef{Event: event, Command: strings.TrimSpace(cmd)})
				}
			}
		}
	}
	var unmatched []string
	for k, c := range sel.Commands {
		if !used[k] {
			unmatched = append(unmatched, c)
		}
	}
	if len(entries) == 0 {
		return src, nil, unmatched, nil
	}
	out, err := move(src, entries)
	if err != nil {
		return nil, nil, nil, err
	}
	return out, refs, unmatched, nil
}
