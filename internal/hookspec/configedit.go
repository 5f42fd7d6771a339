package hookspec

import (
	"errors"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/config/edit"
	"github.com/hermes-hooks/hermes/internal/guard"
)

// NewHook is a shell hook to write into the config's hooks: block.
type NewHook struct {
	Event      string
	Command    string
	Matcher    string // "" for none
	Timeout    int    // 0: not written (the default applies)
	FailClosed bool
}

// ErrAlreadyConfigured: the config already has a hook with the same
// (event, matcher, command), which the agent would register once.
var ErrAlreadyConfigured = errors.New("already configured")

// ConfigRef is a hook found in the config file, with the command as
// written there.
type ConfigRef struct {
	Event   string
	Command string
}

func (h NewHook) fields() []edit.Field {
	f := []edit.Field{{Key: "command", Value: h.Command}}
	if h.Matcher != "" {
		f = append(f, edit.Field{Key: "matcher", Value: h.Matcher})
	}
	if h.Timeout > 0 {
		f = append(f, edit.Field{Key: "timeout", Value: h.Timeout})
	}
	if h.FailClosed {
		f = append(f, edit.Field{Key: "fail_closed", Value: true})
	}
	return f
}

// AddToConfig returns the config text src with h appended to hooks.<event>
// (the file, hooks: and the list created as needed). env expands ${VAR}
// references when comparing with the hooks already there: the same
// (event, matcher, command) is ErrAlreadyConfigured.
func AddToConfig(src []byte, h NewHook, env config.Env) ([]byte, error) {
	d, err := edit.Parse(src)
	if err != nil {
		return nil, err
	}
	if list := d.Lookup([]string{"hooks", h.Event}); list != nil && list.Kind == yaml.SequenceNode {
		var r config.ItemReader
		for _, item := range list.Content {
			item = config.Deref(r.Read(item))
			cmd, ok := scalarField(item, "command")
			if !ok || !sameCommand(cmd, h.Command, env) {
				continue
			}
			m, _ := scalarField(item, "matcher")
			if strings.TrimSpace(m) == strings.TrimSpace(h.Matcher) {
				return nil, fmt.Errorf("%w: %s already has %q (matcher %s)", ErrAlreadyConfigured, h.Event, h.Command, orNoMatcher(h.Matcher))
			}
		}
	}
	return d.Append([]string{"hooks", h.Event}, h.fields())
}

func orNoMatcher(m string) string {
	if m == "" {
		return "none"
	}
	return fmt.Sprintf("%q", m)
}

// RemoveFromConfig returns src without the hooks whose command is command
// (as written, or after ${VAR} expansion), of event only when event is not
// "", and the hooks removed.
func RemoveFromConfig(src []byte, command, event string, env config.Env) ([]byte, []ConfigRef, error) {
	d, err := edit.Parse(src)
	if err != nil {
		return nil, nil, err
	}
	var removed []ConfigRef
	out, _, err := d.Remove([]string{"hooks"}, func(key string, _ int, item *yaml.Node) bool {
		if key == OutboundKey || key == OutputSpillKey || (event != "" && key != event) {
			return false
		}
		cmd, ok := scalarField(item, "command")
		if !ok || !sameCommand(cmd, command, env) {
			return false
		}
		removed = append(removed, ConfigRef{Event: key, Command: strings.TrimSpace(cmd)})
		return true
	})
	if err != nil {
		return nil, nil, err
	}
	return out, removed, nil
}

// ConfiguredCommands lists the commands of the config's shell hooks as
// written (unexpanded), for completion.
func ConfiguredCommands(src []byte) []string {
	d, err := edit.Parse(src)
	if err != nil {
		return nil
	}
	hooks := d.Lookup([]string{"hooks"})
	if hooks == nil || hooks.Kind != yaml.MappingNode {
		return nil
	}
	var out []string
	var r config.ItemReader
	for i := 0; i+1 < len(hooks.Content); i += 2 {
		list := hooks.Content[i+1]
		for list != nil && list.Kind == yaml.AliasNode {
			list = list.Alias
		}
		if hooks.Content[i].Value == OutboundKey || list == nil || list.Kind != yaml.SequenceNode {
			continue
		}
		for _, item := range list.Content {
			if cmd, ok := scalarField(r.Read(item), "command"); ok && strings.TrimSpace(cmd) != "" {
				out = append(out, strings.TrimSpace(cmd))
			}
		}
	}
	return out
}

func sameCommand(written, given string, env config.Env) bool {
	w, g := strings.TrimSpace(written), strings.TrimSpace(given)
	if w == g || strings.TrimSpace(config.ExpandEnv(w, env)) == g || strings.TrimSpace(config.ExpandEnv(g, env)) == strings.TrimSpace(config.ExpandEnv(w, env)) {
		return true
	}
	// A protected hook is named by the command its guard runs too (SPEC
	// §17), "~/x.sh" for the "${HOME}/x.sh" protect wrote.
	if inner, _, ok := guard.Unwrap(w); ok {
		return sameCommand(inner, guard.HomeForTilde(g), env)
	}
	return false
}

// scalarField is the string value of key in a mapping node (aliases
// followed, a stub's item read: read item once with config.Deref to ask
// for several keys).
func scalarField(item *yaml.Node, key string) (string, bool) {
	item = config.Deref(item)
	if item == nil || item.Kind != yaml.MappingNode {
		return "", false
	}
	for i := 0; i+1 < len(item.Content); i += 2 {
		if item.Content[i].Value == key {
			v := item.Content[i+1]
			if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!str" {
				return v.Value, true
			}
			return "", false
		}
	}
	return "", false
}
