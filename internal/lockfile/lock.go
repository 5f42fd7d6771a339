// Package lockfile owns the lock of reviewed hooks (SPEC §20): the file
// hooks.lock.json a team commits beside its config, naming every shell hook
// with its script's sha256, every gateway hook file and every outbound
// webhook. It reads, writes and compares locks; what goes into one is the
// hooks package's business.
package lockfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"

	"github.com/hermes-hooks/hermes/internal/regfile"
)

// Version is the format version written and the only one read.
const Version = 1

// DefaultName is the lock's file name inside HERMES_HOME.
const DefaultName = "hooks.lock.json"

// Lock is the whole file. Field order is the file's order.
type Lock struct {
	Version          int           `json:"version"`
	ShellHooks       []ShellHook   `json:"shell_hooks"`
	GatewayHooks     []GatewayHook `json:"gateway_hooks"`
	OutboundWebhooks []Webhook     `json:"outbound_webhooks"`
	// Scan is what `hermes hooks scan --write-lock` recorded of a
	// checkout (SPEC §27); absent from a home's lock until then.
	Scan *ScanSection `json:"scan,omitempty"`
}

// ShellHook is one configured shell hook.
type ShellHook struct {
	Event string `json:"event"`
	// Matcher as configured; null when the hook has none.
	Matcher *string `json:"matcher"`
	// Command as written in the config (before ${VAR} expansion).
	Command string `json:"command"`
	// Script is the §4 script, relative to HERMES_HOME when inside it;
	// null when the command names none (it cannot be parsed).
	Script *string `json:"script"`
	// SHA256 of the script; null when it cannot be read.
	SHA256 *string `json:"sha256"`
	// Disabled: the entry is under the config's hooks_disabled: (SPEC
	// §27), so the agent does not register it. Absent when false.
	Disabled bool `json:"disabled,omitempty"`
}

// GatewayHook is one gateway hook folder.
type GatewayHook struct {
	Name  string `json:"name"`
	Files []File `json:"files"`
}

// File is one file of a gateway hook, its path relative to the folder
// (with /).
type File struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// Webhook is one outbound webhook, its URL redacted as everywhere.
type Webhook struct {
	URL    string   `json:"url"`
	Events []string `json:"events"`
}

// Sort puts a lock in its file order: shell hooks by event, keeping the
// config order within one (a stable sort of a list built in config order),
// gateway hooks by name, their files by path, webhooks by url. Nil lists
// become empty ones, so the file always has all three.
func (l *Lock) Sort() {
	sort.SliceStable(l.ShellHooks, func(i, j int) bool { return l.ShellHooks[i].Event < l.ShellHooks[j].Event })
	sort.SliceStable(l.GatewayHooks, func(i, j int) bool { return l.GatewayHooks[i].Name < l.GatewayHooks[j].Name })
	for i := range l.GatewayHooks {
		g := &l.GatewayHooks[i]
		sort.SliceStable(g.Files, func(a, b int) bool { return g.Files[a].Path < g.Files[b].Path })
		if g.Files == nil {
			g.Files = []File{}
		}
	}
	sort.SliceStable(l.OutboundWebhooks, func(i, j int) bool { return l.OutboundWebhooks[i].URL < l.OutboundWebhooks[j].URL })
	for i := range l.OutboundWebhooks {
		if l.OutboundWebhooks[i].Events == nil {
			l.OutboundWebhooks[i].Events = []string{}
		}
	}
	if l.ShellHooks == nil {
		l.ShellHooks = []ShellHook{}
	}
	if l.GatewayHooks == nil {
		l.GatewayHooks = []GatewayHook{}
	}
	if l.OutboundWebhooks == nil {
		l.OutboundWebhooks = []Webhook{}
	}
}

// Marshal renders the lock as the file holds it: sorted, two-space indent,
// a final newline, no HTML escaping (a command's `<` stays readable in a
// pull request). The same lock always gives the same bytes.
func Marshal(l *Lock) []byte {
	c := *l
	c.Version = Version
	c.Sort()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&c); err != nil {
		panic(err) // plain strings and numbers only: cannot fail
	}
	return buf.Bytes()
}

// Write writes the lock to path atomically (a temporary file in the same
// folder, then a rename), so a reader never sees half a lock.
func Write(path string, l *Lock) error { return writeBytes(path, Marshal(l)) }

// Error says a lock file cannot be used: unreadable, not JSON, another
// version, or a field of the wrong kind. The CLI maps it to exit 2 (a
// usage problem: the file given is not a lock).
type Error struct {
	Path   string
	Reason string
	Err    error
}

func (e *Error) Error() string {
	return fmt.Sprintf("lock file %s cannot be used: %s (write it with 'hermes hooks lock --output %s')", e.Path, e.Reason, e.Path)
}

func (e *Error) Unwrap() error { return e.Err }

// Read reads and checks a lock file.
func Read(path string) (*Lock, error) {
	data, err := regfile.ReadFile(path)
	if err != nil {
		reason := err.Error()
		if errors.Is(err, fs.ErrNotExist) {
			reason = "it does not exist"
		}
		return nil, &Error{Path: path, Reason: reason, Err: err}
	}
	return Parse(path, data)
}

// Parse checks the bytes of a lock file; path names it in errors.
func Parse(path string, data []byte) (*Lock, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var l Lock
	if err := dec.Decode(&l); err != nil {
		return nil, &Error{Path: path, Reason: "not a lock: " + err.Error(), Err: err}
	}
	if dec.More() {
		return nil, &Error{Path: path, Reason: "not a lock: more than one JSON value"}
	}
	if l.Version != Version {
		return nil, &Error{Path: path, Reason: fmt.Sprintf("version %d, this hermes reads version %d", l.Version, Version)}
	}
	for i, h := range l.ShellHooks {
		if h.Event == "" || h.Command == "" {
			return nil, &Error{Path: path, Reason: fmt.Sprintf("shell_hooks[%d] has no event or no command", i)}
		}
	}
	l.Sort()
	return &l, nil
}

// FindShell returns the lock's entry for the hook (event, matcher,
// command as written), the key a hook is registered under.
func (l *Lock) FindShell(event string, matcher *string, command string) (ShellHook, bool) {
	for _, h := range l.ShellHooks {
		if h.Event == event && h.Command == command && sameString(h.Matcher, matcher) {
			return h, true
		}
	}
	return ShellHook{}, false
}

func sameString(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// HashDir lists the regular files under dir (symlinks followed, folders
// named __pycache__ and *.pyc files skipped: Python writes them when it
// runs a handler), each with its sha256, paths relative to dir with /.
func HashDir(dir string) ([]File, error) {
	var files []File
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "__pycache__" {
				return filepath.SkipDir
			}
			return nil
		}
		if filepath.Ext(path) == ".pyc" {
			return nil
		}
		sum, err := hashFile(path)
		if err != nil {
			return err
		}
		if sum == "" {
			return nil // not a regular file
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		files = append(files, File{Path: filepath.ToSlash(rel), SHA256: sum})
		return nil
	})
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, err
}
