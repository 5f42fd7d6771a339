package claude

import (
	"strings"

	"github.com/hermes-hooks/hermes/internal/shell"
)

// ProjectDirVars are the spellings of CLAUDE_PROJECT_DIR a command uses.
var ProjectDirVars = []string{"${CLAUDE_PROJECT_DIR}", "$CLAUDE_PROJECT_DIR"}

// ShellArgv is how Claude Code runs a command hook: through sh -c. The
// guard runs the argv after its `--` as it is, so a command hook is
// written as this argv and an exec-form hook (args) as its own.
func ShellArgv(command string) []string { return []string{"sh", "-c", command} }

// ClaudeCommand returns the Claude command of a guard's argv after `--`
// when it is ShellArgv's form.
func ClaudeCommand(argv []string) (string, bool) {
	if len(argv) == 3 && argv[0] == "sh" && argv[1] == "-c" {
		return argv[2], true
	}
	return "", false
}

// ReplaceProjectDir writes dir for $CLAUDE_PROJECT_DIR and
// ${CLAUDE_PROJECT_DIR} in s.
func ReplaceProjectDir(s, dir string) string {
	for _, v := range ProjectDirVars {
		s = strings.ReplaceAll(s, v, dir)
	}
	return s
}

// UsesProjectDir reports whether s names CLAUDE_PROJECT_DIR.
func UsesProjectDir(s string) bool { return strings.Contains(s, "CLAUDE_PROJECT_DIR") }

// ScriptWords are the words SPEC §4's script rule is applied to for a
// dialect hook's argv (after the guard's `--`): for a command hook, its
// Claude command split as §4 splits, with CLAUDE_PROJECT_DIR replaced by
// projectDir (so "$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh is that file);
// for an exec-form hook, its own words. ok is false when the command
// cannot be split: it has no script file then.
func ScriptWords(argv []string, projectDir string) (words []string, ok bool) {
	cmd, isShell := ClaudeCommand(argv)
	if !isShell {
		return argv, len(argv) > 0
	}
	w, err := shell.Split(cmd)
	if err != nil || len(w) == 0 {
		return nil, false
	}
	for i := range w {
		w[i] = ReplaceProjectDir(w[i], projectDir)
	}
	return w, true
}

// scriptExtensions mirror SPEC §4's list.
var scriptExtensions = []string{".sh", ".bash", ".zsh", ".fish", ".py", ".pyw", ".rb", ".pl", ".lua", ".js", ".mjs", ".cjs", ".ts"}

// ScriptWord is the word SPEC §4 picks as the script among words, and
// whether it is a file (a word with a script extension, or one with a /
// or a leading ~) rather than the fallback first word, a program looked
// up in PATH: a pipeline of programs has no script file, and what is
// pinned for it is the command string itself.
func ScriptWord(words []string) (word string, file bool) {
	for _, w := range words {
		lw := strings.ToLower(w)
		for _, e := range scriptExtensions {
			if strings.HasSuffix(lw, e) {
				return w, true
			}
		}
	}
	for _, w := range words {
		if strings.Contains(w, "/") || strings.HasPrefix(w, "~") {
			return w, true
		}
	}
	if len(words) == 0 {
		return "", false
	}
	return words[0], false
}

// HasScriptFile reports whether ScriptWord finds a file among words.
func HasScriptFile(words []string) bool {
	_, f := ScriptWord(words)
	return f
}
