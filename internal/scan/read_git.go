package scan

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hermes-hooks/hermes/internal/shell"
)

// readGit reads what makes git run code by itself in this checkout:
// core.hooksPath and core.fsmonitor in the repository's config (a checkout
// handed over as an archive can carry its .git), and the hook folders
// projects commit and point core.hooksPath at (.githooks/, .husky/).
// core.fsmonitor is a command every `git status` runs — and agents run git
// status as a session starts.
func readGit(c *checkout, a *Agent) reading {
	var out reading
	hooksDirs := []string{}
	if cfg := c.gitConfig(); cfg != "" {
		data, err := readSmall(cfg)
		if err == nil {
			rel := c.rel(cfg)
			for _, kv := range gitCore(string(data)) {
				switch kv.key {
				case "hookspath":
					p := expandHome(kv.value, c.opt.Home)
					if !filepath.IsAbs(p) {
						p = filepath.Join(c.dir, p)
					}
					hooksDirs = append(hooksDirs, filepath.Clean(p))
					out.hooks = append(out.hooks, gitHooksIn(c, filepath.Clean(p), rel, kv.line)...)
				case "fsmonitor":
					if isGitBool(kv.value) {
						continue // the built-in daemon, not a command
					}
					out.hooks = append(out.hooks, Hook{File: rel, Line: kv.line, Event: "core.fsmonitor",
						Command: kv.value, shell: true})
				}
			}
		}
	}
	for _, d := range []string{".githooks", ".husky"} {
		p := c.abs(d)
		if slices.Contains(hooksDirs, p) {
			continue // already listed through core.hooksPath
		}
		out.hooks = append(out.hooks, gitHooksIn(c, p, "", 0)...)
	}
	return out
}

// gitHooksIn lists the hooks in a hooks folder: files named after a git
// hook. Husky's files run through sh whatever their mode; elsewhere git
// runs only executable files. cfg and line name the config line that
// points there ("" for a folder found in the checkout).
func gitHooksIn(c *checkout, dir, cfg string, line int) []Hook {
	var out []Hook
	husky := filepath.Base(dir) == ".husky" || filepath.Base(filepath.Dir(dir)) == ".husky"
	for _, name := range gitHookNames {
		p := filepath.Join(dir, name)
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() || (!husky && fi.Mode().Perm()&0o111 == 0) {
			continue
		}
		h := Hook{Event: name, File: c.rel(p), Command: p, shell: true, exe: true}
		if r, in := within(c.dir, p); in {
			h.Command = "./" + r
		}
		if husky {
			// Husky's wrapper runs each hook with sh, whatever its mode.
			h.Command, h.exe = "sh "+shell.Quote(h.Command), false
		}
		if cfg != "" {
			h.File, h.Line = cfg, line
		}
		out = append(out, h)
	}
	// A hooksPath outside the checkout with nothing there yet still runs
	// whatever appears there later: list the setting itself.
	if cfg != "" && len(out) == 0 {
		if _, in := within(c.dir, dir); !in {
			out = append(out, Hook{Event: "core.hooksPath", File: cfg, Line: line, Command: dir + "/", files: []string{dir}})
		}
	}
	return out
}

// gitConfig is the path of the repository's config file, "" when the
// checkout is not a repository. A worktree's .git is a file naming its git
// folder, whose commondir holds the shared config.
func (c *checkout) gitConfig() string {
	gitDir := c.abs(".git")
	fi, err := os.Stat(gitDir)
	if err != nil {
		return ""
	}
	if !fi.IsDir() {
		data, err := readSmall(gitDir)
		if err != nil {
			return ""
		}
		line := strings.TrimSpace(string(data))
		if !strings.HasPrefix(line, "gitdir:") {
			return ""
		}
		gitDir = strings.TrimSpace(strings.TrimPrefix(line, "gitdir:"))
		if !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(c.dir, gitDir)
		}
		if common, err := readSmall(filepath.Join(gitDir, "commondir")); err == nil {
			cd := strings.TrimSpace(string(common))
			if !filepath.IsAbs(cd) {
				cd = filepath.Join(gitDir, cd)
			}
			gitDir = cd
		}
	}
	return filepath.Join(gitDir, "config")
}

type gitKV struct {
	key, value string
	line       int
}

// gitCore reads the [core] section's keys (lower-cased) with their values
// and lines, as git-config(1) writes them: later values win, so all are
// returned in order and the caller sees every one.
func gitCore(text string) []gitKV {
	var out []gitKV
	section := ""
	for i, raw := range strings.Split(text, "\n") {
		l := strings.TrimSpace(raw)
		if l == "" || l[0] == '#' || l[0] == ';' {
			continue
		}
		if l[0] == '[' {
			end := strings.IndexByte(l, ']')
			if end < 0 {
				continue
			}
			section = strings.ToLower(strings.TrimSpace(l[1:end]))
			if rest := strings.TrimSpace(l[end+1:]); rest != "" {
				l = rest // "[core] hooksPath = x" on one line
			} else {
				continue
			}
		}
		if section != "core" {
			continue
		}
		key, value, ok := strings.Cut(l, "=")
		if !ok {
			continue
		}
		out = append(out, gitKV{key: strings.ToLower(strings.TrimSpace(key)), value: gitValue(value), line: i + 1})
	}
	return out
}

// gitValue unquotes a config value and drops a trailing comment.
func gitValue(v string) string {
	var b strings.Builder
	quoted := false
	for i := 0; i < len(v); i++ {
		ch := v[i]
		switch {
		case ch == '"':
			quoted = !quoted
		case ch == '\\' && i+1 < len(v):
			i++
			switch v[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(v[i])
			}
		case !quoted && (ch == '#' || ch == ';'):
			return strings.TrimSpace(b.String())
		default:
			b.WriteByte(ch)
		}
	}
	return strings.TrimSpace(b.String())
}

func isGitBool(v string) bool {
	switch strings.ToLower(v) {
	case "", "true", "false", "yes", "no", "on", "off", "1", "0":
		return true
	}
	return false
}

// expandHome expands a leading ~/ as git does for path settings.
func expandHome(p, home string) string {
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") {
		return path.Join(home, p[2:])
	}
	return p
}
