package scan

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes/internal/config"
)

// readHermes reads a config.yaml with hooks: in the checkout (a folder
// used as HERMES_HOME) and its gateway hooks, hooks/*/HOOK.yaml, with the
// rules of the agent's YAML reading (SPEC §14). Shell hooks run without a
// shell (§4); a gateway hook runs every file of its folder's handler.
func readHermes(c *checkout, a *Agent) reading {
	var out reading
	rel := "config.yaml"
	if fi, err := os.Stat(c.abs(rel)); err == nil && fi.Mode().IsRegular() && fi.Size() > maxConfigSize {
		out.problems = append(out.problems, fileProblem{file: rel, reason: "cannot be read: too large"})
	} else if err == nil && fi.Mode().IsRegular() {
		f, err := config.Load(c.abs(rel), config.MapEnv(nil))
		switch {
		case err != nil:
			out.problems = append(out.problems, fileProblem{file: rel, line: errLine(err), reason: strings.TrimPrefix(err.Error(), c.abs(rel)+": ")})
		case f.Hooks != nil:
			out.hooks = append(out.hooks, hermesShellHooks(f, rel)...)
		}
	}
	for _, hookYAML := range c.glob("hooks/*/HOOK.yaml") {
		out.hooks = append(out.hooks, hermesGatewayHooks(c, hookYAML)...)
	}
	return out
}

func errLine(err error) int {
	var se *config.SyntaxError
	if errors.As(err, &se) {
		return se.Line
	}
	var re *config.RefusedError
	if errors.As(err, &re) {
		return re.Line
	}
	return 0
}

// hermesShellHooks lists the entries of hooks: that have a command, as
// written (before ${VAR} expansion).
func hermesShellHooks(f *config.File, rel string) []Hook {
	var out []Hook
	if config.Resolve(f.Hooks).Kind != config.KindMapping {
		return nil
	}
	pairs, _ := config.Pairs(f.Hooks)
	for _, p := range pairs {
		if p.Key == config.HooksOutboundKey || p.Key == config.HooksOutputSpillKey {
			continue
		}
		list := config.Resolve(p.Value)
		if list.Kind != config.KindList {
			continue
		}
		for _, item := range list.Node.Content {
			item, exps := f.Item(nil, item)
			if config.Resolve(item).Kind != config.KindMapping {
				continue
			}
			entry, _ := config.Pairs(item)
			var cmd *yaml.Node
			var matcher *string
			for _, e := range entry {
				switch e.Key {
				case "command":
					cmd = e.Value
				case "matcher":
					if v := config.Resolve(e.Value); v.Kind == config.KindString {
						m := strings.TrimSpace(written(exps, v.Node))
						if m != "" {
							matcher = &m
						}
					}
				}
			}
			if cmd == nil {
				continue
			}
			v := config.Resolve(cmd)
			if v.Kind != config.KindString || strings.TrimSpace(v.Str) == "" {
				continue
			}
			out = append(out, Hook{File: rel, Line: cmd.Line, Event: p.Key, Matcher: matcher,
				Command: strings.TrimSpace(written(exps, v.Node))})
		}
	}
	return out
}

// written is a string value as the file has it, before expansion: exps
// are the expansions made in its item (config.File.Item).
func written(exps map[*yaml.Node]config.Expansion, n *yaml.Node) string {
	if x, ok := exps[n]; ok {
		return x.Written
	}
	return n.Value
}

// hermesGatewayHooks lists one hook per event a gateway hook declares; its
// code is every regular file of its folder (the handler imports them).
func hermesGatewayHooks(c *checkout, hookYAML string) []Hook {
	data, ok, err := c.readFile(hookYAML)
	if err != nil || !ok {
		return nil
	}
	var doc struct {
		Name    string    `yaml:"name"`
		Events  yaml.Node `yaml:"events"`
		Enabled *bool     `yaml:"enabled"`
	}
	if yaml.Unmarshal(data, &doc) != nil || doc.Enabled != nil && !*doc.Enabled {
		return nil
	}
	var events []string
	switch doc.Events.Kind {
	case yaml.ScalarNode:
		events = []string{doc.Events.Value}
	case yaml.SequenceNode:
		for _, e := range doc.Events.Content {
			events = append(events, e.Value)
		}
	}
	folder := path.Dir(hookYAML)
	var files []string
	_ = filepath.WalkDir(c.abs(folder), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == "__pycache__" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() && filepath.Ext(p) != ".pyc" {
			files = append(files, p)
		}
		return nil
	})
	var out []Hook
	for _, ev := range events {
		out = append(out, Hook{File: hookYAML, Line: doc.Events.Line, Event: ev,
			Command: "python3 " + folder + "/handler.py", files: files})
	}
	return out
}
