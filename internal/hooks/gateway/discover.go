package gateway

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/regfile"
)

// Hook is one folder under the hooks directory, whether it could be loaded
// or not: list and doctor show broken folders too.
type Hook struct {
	Name        string // HOOK.yaml name, else the folder name
	Dir         string // absolute or as given: hooksDir joined with the folder
	Description string
	Events      []string // as declared (unknown names included), never nil
	Enabled     bool     // HOOK.yaml enabled, default true
	// Loaded is true when the hook would fire: enabled, with a valid
	// HOOK.yaml declaring events, and a handler.
	Loaded bool
	// Handler is HandlerPy, HandlerExec or "" when the folder has neither.
	Handler string
	// Problems are why the folder was skipped (empty when it was not; a
	// disabled hook has none: that is the user's choice, not a fault).
	Problems []string
	// Warnings are things the user should fix that did not stop loading.
	Warnings []string
	// ManifestErr is set when HOOK.yaml is there but is not a regular file
	// (a FIFO, a device, a folder): a *config.FileError, which commands
	// reading gateway hooks report as an error (SPEC §13 rule 13).
	ManifestErr error
	// Unsafe, when not nil, names who else could change the hook (the
	// hooks folder, the hook's folder, HOOK.yaml or the handler; SPEC
	// §13.2 rule 3): it is not run. Set by CheckOwnership.
	Unsafe error

	diags []config.Diagnostic
}

// Handler kinds.
const (
	HandlerPy   = "handler.py"
	HandlerExec = "handler"
)

// ManifestName is the file every hook folder needs.
const ManifestName = "HOOK.yaml"

// HandlerPath is the handler file of h, "" when it has none.
func (h Hook) HandlerPath() string {
	if h.Handler == "" {
		return ""
	}
	return filepath.Join(h.Dir, h.Handler)
}

// Diagnostics returns the problems (level "error") and warnings of h with
// the file and, when known, the HOOK.yaml line they are about, in the shape
// config diagnostics use.
func (h Hook) Diagnostics() []config.Diagnostic {
	return append([]config.Diagnostic(nil), h.diags...)
}

func (h *Hook) problem(line int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	h.Problems = append(h.Problems, msg)
	h.diags = append(h.diags, h.diag("error", line, msg))
}

func (h *Hook) warn(line int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	h.Warnings = append(h.Warnings, msg)
	h.diags = append(h.diags, h.diag("warning", line, msg))
}

func (h *Hook) diag(level string, line int, msg string) config.Diagnostic {
	file := h.Dir
	if line > 0 || strings.Contains(msg, ManifestName) {
		file = filepath.Join(h.Dir, ManifestName)
	}
	return config.Diagnostic{Level: level, Path: "gateway_hooks." + filepath.Base(h.Dir),
		File: file, Line: line, Message: msg}
}

// Discover reads every folder under hooksDir in sorted order (a missing
// hooksDir has none). known are the gateway event names events are checked
// against; an entry "<prefix>:*" (such as "command:*") stands for every
// "<prefix>:<name>". Folders whose name starts with "." (.git, editor
// state) are not hooks and are ignored. Symlinks to folders are followed.
func Discover(hooksDir string, known []string) []Hook {
	entries, err := os.ReadDir(hooksDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		// No error return: report it where the user looks for broken hooks.
		h := Hook{Name: filepath.Base(hooksDir), Dir: hooksDir, Enabled: true,
			Events: []string{}, Problems: []string{}, Warnings: []string{}}
		h.problem(0, "cannot read the hooks folder %s: %s", hooksDir, errText(err))
		return []Hook{h}
	}
	v := newValidator(known)
	var hooks []Hook
	for _, e := range entries { // os.ReadDir sorts by name
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		dir := filepath.Join(hooksDir, e.Name())
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			continue
		}
		hooks = append(hooks, load(dir, v))
	}
	return hooks
}

func load(dir string, v *validator) Hook {
	h := Hook{Name: filepath.Base(dir), Dir: dir, Enabled: true,
		Events: []string{}, Problems: []string{}, Warnings: []string{}}
	manifest := filepath.Join(dir, ManifestName)
	data, err := regfile.ReadFile(manifest)
	var nr *regfile.NotRegularError
	switch {
	case errors.As(err, &nr):
		h.ManifestErr = &config.FileError{What: "HOOK.yaml", Path: manifest,
			Err: fmt.Errorf("it is %s, not a regular file", nr.Kind)}
		h.problem(0, "HOOK.yaml is %s, not a regular file", nr.Kind)
	case errors.Is(err, fs.ErrNotExist):
		if isFile(filepath.Join(dir, "HOOK.yml")) {
			h.problem(0, "missing HOOK.yaml (found HOOK.yml: rename it to HOOK.yaml)")
		} else {
			h.problem(0, "missing HOOK.yaml")
		}
	case err != nil:
		h.problem(0, "cannot read HOOK.yaml: %s", errText(err))
	default:
		h.parseManifest(data, v)
	}

	h.Handler = findHandler(&h)
	h.Loaded = len(h.Problems) == 0 && h.Enabled
	return h
}

// findHandler prefers handler.py, as the agent only knows that one.
func findHandler(h *Hook) string {
	if isFile(filepath.Join(h.Dir, HandlerPy)) {
		return HandlerPy
	}
	exe := filepath.Join(h.Dir, HandlerExec)
	info, err := os.Stat(exe)
	switch {
	case err == nil && info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0:
		return HandlerExec
	case err == nil && info.Mode().IsRegular():
		h.problem(0, "missing handler.py (or an executable handler): %s is not executable (chmod +x it)", exe)
	default:
		h.problem(0, "missing handler.py (or an executable handler)")
	}
	return ""
}

func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

// unmarshal is yaml.Unmarshal that turns yaml.v3's rare panics on
// malformed input into errors: a hook folder must never crash hermes.
func unmarshal(data []byte, doc *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: %v", r)
		}
	}()
	return yaml.Unmarshal(data, doc)
}

func (h *Hook) parseManifest(data []byte, v *validator) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var doc yaml.Node
	if err := unmarshal(data, &doc); err != nil {
		if line, msg := config.YAMLError(err, data); line > 0 {
			h.problem(line, "invalid HOOK.yaml (line %d): %s", line, msg)
		} else {
			h.problem(0, "invalid HOOK.yaml: %s", msg)
		}
		return
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		h.problem(0, "invalid HOOK.yaml: the file is empty (it needs a mapping with name, description and events)")
		return
	}
	root := resolve(doc.Content[0])
	if root.Kind != yaml.MappingNode {
		h.problem(root.Line, "invalid HOOK.yaml (line %d): expected a mapping (name, description, events, enabled), got %s",
			root.Line, kindName(root))
		return
	}

	var events *yaml.Node
	// Later duplicate keys win, as with the agent's YAML loader.
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, val := resolve(root.Content[i]), resolve(root.Content[i+1])
		switch key.Value {
		case "name":
			if s, ok := h.scalarText(val, "name"); ok && strings.TrimSpace(s) != "" {
				h.Name = s
			}
		case "description":
			if s, ok := h.scalarText(val, "description"); ok {
				h.Description = s
			}
		case "enabled":
			h.Enabled = h.enabled(val)
		case "events":
			events = val
		}
	}
	h.parseEvents(events, v)
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func kindName(n *yaml.Node) string {
	switch {
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Tag == "!!null":
		return "nothing (null)"
	case n.Tag == "!!str":
		return "a string"
	case n.Tag == "!!int", n.Tag == "!!float":
		return "a number"
	case n.Tag == "!!bool":
		return "a boolean"
	}
	return "a " + strings.TrimPrefix(n.Tag, "!!")
}

// scalarText returns a scalar's text; null counts as absent.
func (h *Hook) scalarText(n *yaml.Node, key string) (string, bool) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return "", false
	}
	if n.Kind != yaml.ScalarNode {
		h.warn(n.Line, "HOOK.yaml %s (line %d) must be a string, got %s; ignored", key, n.Line, kindName(n))
		return "", false
	}
	return n.Value, true
}

// enabled reads the flag the way the agent's YAML 1.1 loader would see it:
// yes/no/on/off are booleans there, and any other value counts by Python
// truthiness (with a warning, since it is surely a mistake).
func (h *Hook) enabled(n *yaml.Node) bool {
	if n.Kind == yaml.ScalarNode {
		switch strings.ToLower(n.Value) {
		case "true", "yes", "on":
			if n.Tag == "!!bool" || n.Tag == "!!str" {
				return true
			}
		case "false", "no", "off":
			if n.Tag == "!!bool" || n.Tag == "!!str" {
				return false
			}
		}
	}
	truthy := true
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag == "!!null":
		truthy = false
	case n.Kind == yaml.ScalarNode && (n.Tag == "!!int" || n.Tag == "!!float"):
		truthy = strings.Trim(n.Value, "+-0._") != ""
	case n.Kind == yaml.ScalarNode:
		truthy = n.Value != ""
	default:
		truthy = len(n.Content) > 0
	}
	h.warn(n.Line, "HOOK.yaml enabled (line %d) should be true or false, got %s; treated as %t",
		n.Line, kindName(n), truthy)
	return truthy
}

// parseEvents reads events; n is nil when the key is absent.
func (h *Hook) parseEvents(n *yaml.Node, v *validator) {
	line := 0
	if n != nil {
		line = n.Line
	}
	var items []*yaml.Node
	switch {
	case n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null"):
	case n.Kind == yaml.SequenceNode:
		items = n.Content
	case n.Kind == yaml.ScalarNode && n.Tag == "!!str":
		// The agent would iterate the string's characters; one event is
		// surely what was meant.
		h.warn(n.Line, "HOOK.yaml events (line %d) is a single string, not a list; treated as [%q] (write events: [%s])",
			n.Line, n.Value, n.Value)
		items = []*yaml.Node{n}
	default:
		h.problem(n.Line, "invalid HOOK.yaml (line %d): events must be a list of event names, got %s", n.Line, kindName(n))
		return
	}
	seen := map[string]bool{}
	for _, item := range items {
		item = resolve(item)
		if item.Kind != yaml.ScalarNode || item.Tag != "!!str" {
			h.warn(item.Line, "HOOK.yaml events (line %d): %s is not an event name (a string); dropped", item.Line, kindName(item))
			continue
		}
		name := item.Value
		if name == "" {
			h.warn(item.Line, "HOOK.yaml events (line %d): empty event name dropped", item.Line)
			continue
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		if msg := v.check(name); msg != "" {
			h.warn(item.Line, "HOOK.yaml events (line %d): %s", item.Line, msg)
		}
		h.Events = append(h.Events, name)
	}
	if len(h.Events) == 0 {
		h.problem(line, "no events declared")
	}
}
