package chaos

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes/internal/code"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// editedLine is what the edited fault appends to a copy of the script.
const editedLine = "# edited, not approved (hermes hooks doctor --chaos)\n"

// Prepare makes fault for h in the lab: the argv, environment and timeout
// the agent would run it with. fields are the payload's.
func (l *Lab) Prepare(h hooks.ShellHook, f Fault, fields *pyjson.Object) (Trial, error) {
	t := Trial{Fault: f, FailClosed: h.FailClosed, Timeout: time.Duration(h.Timeout) * time.Second}
	argv, prefix, inner, err := l.hookArgv(h)
	if err != nil {
		return t, err
	}
	t.Argv, t.Env = argv, l.env(h, fields)
	// A protected hook's COMMAND replaced: the guard approves it only from
	// a throwaway allowlist (judged: the content it is to compare, nil for
	// the file as it is).
	replace := func(newInner []string, judged []byte) error {
		t.Argv = append(slices.Clone(prefix), newInner...)
		if h.Guard == nil {
			return nil
		}
		home, err := l.approveIn(h.Event, t.Argv, judged)
		if err != nil {
			return err
		}
		t.Env = l.env(h, fields, home)
		return nil
	}
	standIn := func(name, body string) error {
		p, err := l.standIn(name, body)
		if err != nil {
			return err
		}
		return replace(asRun(inner, p), nil)
	}
	script := h.Script
	hasFile := h.HasScriptFile() && !h.NoScript
	switch f {
	case Baseline:
	case DependencyMissing:
		dir, err := l.reducedPath(inner, script)
		if err != nil {
			return t, err
		}
		t.Env = l.env(h, fields, "PATH="+dir)
	case InterpreterMissing:
		if hasFile && h.FirstWord {
			newInner, _, na, err := l.copied(inner, script, h, withInterpreter, 0o700)
			if na != "" || err != nil {
				t.NA = na
				return t, err
			}
			return t, replace(newInner, nil)
		}
		newInner := slices.Clone(inner)
		newInner[0] = missingDir + "/" + filepath.Base(inner[0])
		return t, replace(newInner, nil)
	case Crash:
		return t, standIn("crash.sh", "kill -KILL $$\n")
	case ExitNoOutput:
		return t, standIn("exit1.sh", "exit 1\n")
	case Garbage:
		return t, standIn("garbage.sh", "echo 'not json'\n")
	case Slow:
		sleep, err := exec.LookPath("sleep")
		if err != nil {
			sleep = "/bin/sleep"
		}
		t.Timeout = min(t.Timeout, SlowTimeout)
		if t.Timeout <= 0 {
			t.Timeout = SlowTimeout
		}
		return t, standIn("slow.sh", "exec "+shell.Quote(sleep)+" 3600\n")
	case Edited, Unreadable:
		if !hasFile {
			t.NA = "no script file"
			return t, nil
		}
		change, mode := slices.Clone[[]byte], os.FileMode(0o700)
		if f == Edited {
			change = func(b []byte) []byte { return append(slices.Clone(b), editedLine...) }
		} else {
			mode = 0 // unreadable
		}
		newInner, content, na, err := l.copied(inner, script, h, change, mode)
		if na != "" || err != nil {
			t.NA = na
			return t, err
		}
		// The approval is of the script as it is: the copy is not it.
		return t, replace(newInner, content)
	default:
		return t, fmt.Errorf("unknown fault %q", f)
	}
	return t, nil
}

// asRun is how a stand-in takes COMMAND's place: through "sh -c" when the
// hook runs through it (a Claude Code command hook), else alone.
func asRun(inner []string, standIn string) []string {
	if len(inner) == 3 && inner[1] == "-c" && filepath.Base(inner[0]) == "sh" {
		return []string{inner[0], "-c", shell.Quote(standIn)}
	}
	return []string{standIn}
}

// copied points COMMAND at a copy of the script holding change(its
// content), with mode: the new argv and the script's content as it is. na
// says why the fault does not apply (the script cannot be read, or its
// path is not a word of the command).
func (l *Lab) copied(inner []string, script string, h hooks.ShellHook, change func([]byte) []byte, mode os.FileMode) (newInner []string, content []byte, na string, err error) {
	content, err = os.ReadFile(script)
	if err != nil {
		return nil, nil, "the script cannot be read", nil
	}
	copyPath := l.path(filepath.Base(script))
	if err := os.WriteFile(copyPath, change(content), 0o700); err != nil {
		return nil, nil, "", err
	}
	if mode != 0o700 {
		if err := os.Chmod(copyPath, mode); err != nil {
			return nil, nil, "", err
		}
	}
	newInner, ok := substitute(inner, script, copyPath, h)
	if !ok {
		return nil, nil, "the script's path is not a word of the command", nil
	}
	return newInner, content, "", nil
}

// withInterpreter is content with its "#!" line naming an interpreter that
// does not exist (one is added when it has none).
func withInterpreter(content []byte) []byte {
	line, rest, found := bytes.Cut(content, []byte("\n"))
	name := "sh"
	if bytes.HasPrefix(line, []byte("#!")) {
		if interp, arg, ok := code.ShebangLine(line); ok {
			w := strings.Fields(interp + " " + arg)
			name = filepath.Base(w[len(w)-1])
		}
		if !found {
			rest = nil
		}
	} else {
		rest = content
	}
	return append([]byte("#!"+missingDir+"/"+name+"\n"), rest...)
}

// substitute points COMMAND at a copy of the script instead of the
// script: the word that is the script's path, or, in a Claude Code
// command (sh -c '"$CLAUDE_PROJECT_DIR"/…'), the path written from the
// project folder.
func substitute(inner []string, script, copyPath string, h hooks.ShellHook) ([]string, bool) {
	out := slices.Clone(inner)
	for i, w := range out {
		if w == script {
			out[i] = copyPath
			return out, true
		}
	}
	if h.Guard == nil || len(out) != 3 || out[1] != "-c" {
		return nil, false
	}
	project := h.Guard.Extra["--project-dir"]
	rel, err := filepath.Rel(project, script)
	if project == "" || err != nil || strings.HasPrefix(rel, "..") {
		return nil, false
	}
	for _, form := range []string{`"$CLAUDE_PROJECT_DIR"/`, `"${CLAUDE_PROJECT_DIR}"/`, `$CLAUDE_PROJECT_DIR/`, `${CLAUDE_PROJECT_DIR}/`} {
		if strings.Contains(out[2], form+rel) {
			out[2] = strings.Replace(out[2], form+rel, shell.Quote(copyPath), 1)
			return out, true
		}
	}
	return nil, false
}

// reducedPath makes a folder holding only links to the hook's program and
// interpreters (COMMAND's first word, and what the script's "#!" line
// names), and returns it: any other program the script calls is missing.
func (l *Lab) reducedPath(inner []string, script string) (string, error) {
	dir := l.path("path")
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", err
	}
	links := map[string]string{}
	if len(inner) > 0 {
		if p, err := exec.LookPath(inner[0]); err == nil {
			links[filepath.Base(inner[0])] = p
		}
	}
	if script != "" {
		for name, p := range interpreters(script) {
			links[name] = p
		}
	}
	for name, target := range links {
		if abs, err := filepath.Abs(target); err == nil {
			target = abs
		}
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			return "", err
		}
	}
	return dir, nil
}
