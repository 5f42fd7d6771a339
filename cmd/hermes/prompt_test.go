//go:build unix

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The prompts of run-event and accept, met at a real terminal
// (prompt_harness_test.go drives it).

// A hook that leaves a trace when it fires.
const firingHook = `#!/bin/sh
# old line
echo fired > "$HERMES_HOME/fired"
`

const oneHookConfig = `hooks:
  on_session_start:
    - command: "~/.hermes/hook.sh"
`

const credentialsWarning = "Commands run with your full user credentials. Only approve commands you trust."

// oneHookHome is a home whose one on_session_start hook is firingHook,
// not approved; script is the hook's path.
func oneHookHome(t *testing.T) (home, script string) {
	t.Helper()
	home = newHome(t, oneHookConfig, map[string]string{"hook.sh": firingHook})
	return home, filepath.Join(home, ".hermes", "hook.sh")
}

// approvedThenModified is oneHookHome with the hook approved off a
// terminal and then its script edited ("# old line" becomes "# new line"),
// so that it needs re-approval. before is the approval of the old script.
func approvedThenModified(t *testing.T) (home, script string, before approval) {
	t.Helper()
	home, script = oneHookHome(t)
	runOffTerminal(t, home, "hooks", "accept", "--all", "--yes")
	approved := approvals(t, home)
	if len(approved) != 1 || approved[0].SHA256 != sha256Of(t, script) {
		t.Fatalf("accept --all --yes recorded %+v", approved)
	}
	writeFile(t, script, strings.Replace(firingHook, "# old line", "# new line", 1), 0o755)
	return home, script, approved[0]
}

// runEventAtTerminal starts `hermes [global...] hooks run-event
// on_session_start` at a terminal.
func runEventAtTerminal(t *testing.T, home string, global ...string) *session {
	t.Helper()
	return startAtTerminal(t, home, append(global, "hooks", "run-event", "on_session_start")...)
}

// fired tells whether firingHook ran in home.
func fired(home string) bool {
	_, err := os.Stat(filepath.Join(home, ".hermes", "fired"))
	return err == nil
}

// approvedAtPrompt fails the test unless the allowlist of home holds one
// approval, made at the prompt, of script as it is now, and the hook
// fired. It returns the approval.
func approvedAtPrompt(t *testing.T, home, script string) approval {
	t.Helper()
	got := approvals(t, home)
	if len(got) != 1 || got[0].Via != "prompt" {
		t.Fatalf("allowlist approvals = %+v, want the one hook approved_via prompt", got)
	}
	if want := sha256Of(t, script); got[0].SHA256 != want {
		t.Errorf("recorded sha256 %s, want the script's %s", got[0].SHA256, want)
	}
	if !fired(home) {
		t.Error("the approved hook did not fire: no side-effect file")
	}
	return got[0]
}

// notApproved fails the test if, after answer, the allowlist of home holds
// an approval or the hook fired.
func notApproved(t *testing.T, home, answer string) {
	t.Helper()
	if got := approvals(t, home); len(got) != 0 {
		t.Errorf("%s recorded approvals: %+v", answer, got)
	}
	if fired(home) {
		t.Errorf("the hook fired after %s", answer)
	}
}

func TestPromptRunEventApproves(t *testing.T) {
	t.Parallel()
	home, script := oneHookHome(t)

	s := runEventAtTerminal(t, home)
	s.answer("Allow this hook to run?", "y\r")
	s.exits(0)
	s.shows(
		"event:   on_session_start",
		"command: ~/.hermes/hook.sh",
		"script:  "+script,
		credentialsWarning,
		"? Allow this hook to run? Yes",
		"Firing 1 hook(s) for event 'on_session_start':",
	)

	if a := approvedAtPrompt(t, home, script); a.Event != "on_session_start" || a.Command != "~/.hermes/hook.sh" {
		t.Errorf("approval = %+v, want on_session_start ~/.hermes/hook.sh", a)
	}
}

func TestPromptRunEventEnterDeclines(t *testing.T) {
	t.Parallel()
	home, _ := oneHookHome(t)

	s := runEventAtTerminal(t, home)
	s.answer("Allow this hook to run? (y/N)", "\r")
	s.exits(0)
	s.shows(credentialsWarning, "? Allow this hook to run? No", "skipped (not approved)")

	notApproved(t, home, "declining")
}

func TestPromptRunEventReapprovalShowsDiff(t *testing.T) {
	t.Parallel()
	home, script, before := approvedThenModified(t)

	s := runEventAtTerminal(t, home)
	s.answer("Allow this hook to run?", "y\r")
	s.exits(0)
	s.shows(
		"event:   on_session_start",
		"command: ~/.hermes/hook.sh",
		"script:  "+script,
		"modified since approval",
		"-# old line",
		"+# new line",
		credentialsWarning,
		"? Allow this hook to run? Yes",
	)

	if a := approvedAtPrompt(t, home, script); a.SHA256 == before.SHA256 {
		t.Errorf("the re-approval kept the old script's sha256 %s", a.SHA256)
	}
}

func TestPromptRunEventCtrlC(t *testing.T) {
	t.Parallel()
	home, _ := oneHookHome(t)

	s := runEventAtTerminal(t, home)
	s.answer("Allow this hook to run?", "\x03")
	s.exits(130)
	s.shows("interrupted")
	notApproved(t, home, "Ctrl-C")
}

// Three hooks: one approved and unchanged (not pending), one modified
// since approval, one never approved.
const threeHooksConfig = `hooks:
  on_session_start:
    - command: "~/.hermes/steady.sh"
    - command: "~/.hermes/changed.sh --verbose"
  pre_llm_call:
    - command: "~/.hermes/fresh.sh"
`

// threeHooksHome approves steady.sh and changed.sh off a terminal, then
// changes changed.sh and adds fresh.sh to the config. It returns the home
// and changed.sh's approval before the change.
func threeHooksHome(t *testing.T) (home string, oldChanged approval) {
	t.Helper()
	home = newHome(t, `hooks:
  on_session_start:
    - command: "~/.hermes/steady.sh"
    - command: "~/.hermes/changed.sh --verbose"
`, map[string]string{
		"steady.sh":  "#!/bin/sh\nexit 0\n",
		"changed.sh": "#!/bin/sh\n# old line\nexit 0\n",
		"fresh.sh":   "#!/bin/sh\nexit 0\n",
	})
	runOffTerminal(t, home, "hooks", "accept", "--all", "--yes")
	writeFile(t, filepath.Join(home, ".hermes", "changed.sh"), "#!/bin/sh\n# new line\nexit 0\n", 0o755)
	writeFile(t, filepath.Join(home, ".hermes", "config.yaml"), threeHooksConfig, 0o644)
	for _, a := range approvals(t, home) {
		if a.Command == "~/.hermes/changed.sh --verbose" {
			oldChanged = a
		}
	}
	if oldChanged.SHA256 == "" {
		t.Fatalf("setup: changed.sh was not approved with a sha256: %+v", approvals(t, home))
	}
	return home, oldChanged
}

func TestPromptAcceptPicksOne(t *testing.T) {
	t.Parallel()
	home, oldChanged := threeHooksHome(t)
	dir := filepath.Join(home, ".hermes")
	changedOption := "on_session_start  ~/.hermes/changed.sh --verbose  [modified since approval] - script: " + filepath.Join(dir, "changed.sh")
	freshOption := "pre_llm_call  ~/.hermes/fresh.sh  [never approved] - script: " + filepath.Join(dir, "fresh.sh")

	s := startAtTerminal(t, home, "hooks", "accept")
	s.expect("> [ ]  "+changedOption, "  [ ]  "+freshOption)
	// Tick the first, move down, tick the second, back up, untick the
	// first. Each key is waited for on the screen (the whole list redrawn);
	// the first one seen also proves survey reads the keyboard in raw mode.
	s.press(" ", "> [x]  "+changedOption, "  [ ]  "+freshOption)
	s.press("\x1b[B", "  [x]  "+changedOption, "> [ ]  "+freshOption)
	s.press(" ", "  [x]  "+changedOption, "> [x]  "+freshOption)
	s.press("\x1b[A", "> [x]  "+changedOption, "  [x]  "+freshOption)
	s.press(" ", "> [ ]  "+changedOption, "  [x]  "+freshOption)
	picker := s.text()
	s.send("\r")
	s.exits(0)

	// What the person chose from: every pending hook with its event,
	// command and script, the diff of the modified one, and the warning;
	// not the approved, unchanged hook.
	for _, want := range []string{
		credentialsWarning,
		"on_session_start  ~/.hermes/changed.sh --verbose  [modified since approval]  script: " + filepath.Join(dir, "changed.sh"),
		"What changed since approval:",
		"-# old line",
		"+# new line",
		// A first approval shows the script: its hash and first lines.
		"sha256:  " + sha256Of(t, filepath.Join(dir, "fresh.sh")),
		"│ #!/bin/sh",
		"? Approve which hooks?",
		"> [ ]  " + changedOption,
		"  [x]  " + freshOption,
	} {
		if !strings.Contains(picker, want) {
			t.Errorf("the multi-select screen does not show %q:\n%s", want, picker)
		}
	}
	if strings.Contains(picker, "steady.sh") {
		t.Errorf("the approved, unchanged hook was offered:\n%s", picker)
	}
	s.shows("approved  pre_llm_call  ~/.hermes/fresh.sh")
	s.showsNot("approved  on_session_start")

	got := approvals(t, home)
	byCommand := map[string]approval{}
	for _, a := range got {
		byCommand[a.Command] = a
	}
	fresh, ok := byCommand["~/.hermes/fresh.sh"]
	if !ok || fresh.Event != "pre_llm_call" || fresh.Via != "accept" || fresh.SHA256 != sha256Of(t, filepath.Join(dir, "fresh.sh")) {
		t.Errorf("fresh.sh approval = %+v (found %v), want pre_llm_call via accept with its sha256", fresh, ok)
	}
	if changed := byCommand["~/.hermes/changed.sh --verbose"]; changed != oldChanged {
		t.Errorf("the modified hook, not picked, was re-approved: %+v, was %+v", changed, oldChanged)
	}
	if len(got) != 3 {
		t.Errorf("allowlist has %d approvals, want 3 (two from setup, one picked): %+v", len(got), got)
	}
}

func TestPromptAcceptCtrlC(t *testing.T) {
	t.Parallel()
	home, _ := threeHooksHome(t)
	before := approvals(t, home)

	s := startAtTerminal(t, home, "hooks", "accept")
	s.expect("Approve which hooks?")
	s.press(" ", "> [x]") // the key was read: the terminal is in raw mode
	s.send("\x03")
	s.exits(130)
	s.shows("interrupted")
	if got := approvals(t, home); len(got) != len(before) {
		t.Errorf("Ctrl-C changed the allowlist: %+v, was %+v", got, before)
	}
}

func TestPromptAcceptNothingPicked(t *testing.T) {
	t.Parallel()
	home, _ := threeHooksHome(t)
	before := approvals(t, home)

	s := startAtTerminal(t, home, "hooks", "accept")
	s.expect("Approve which hooks?", "fresh.sh")
	s.send("\r")
	s.exits(0)
	s.shows("Nothing approved.")
	s.showsNot("every configured shell hook is approved") // two are pending
	if got := approvals(t, home); len(got) != len(before) {
		t.Errorf("picking nothing changed the allowlist: %+v, was %+v", got, before)
	}
}

// sgr matches a colour (Select Graphic Rendition) escape sequence.
var sgr = regexp.MustCompile(`\x1b\[[0-9;]*m`)

func TestPromptNoColor(t *testing.T) {
	t.Parallel()
	home, _ := oneHookHome(t)

	s := runEventAtTerminal(t, home, "--no-color")
	s.answer("Allow this hook to run?", "\r")
	s.exits(0)
	if codes := sgr.FindAllString(s.raw.String(), -1); len(codes) > 0 {
		t.Errorf("--no-color, yet the prompt printed colour codes %q:\n%q", codes, s.raw.String())
	}
}

func TestPromptRunEventReapprovalNoSnapshot(t *testing.T) {
	t.Parallel()
	home, _, _ := approvedThenModified(t)
	if err := os.RemoveAll(filepath.Join(home, ".hermes", "shell-hooks-snapshots")); err != nil {
		t.Fatal(err)
	}

	s := runEventAtTerminal(t, home)
	s.answer("Allow this hook to run?", "\r")
	s.exits(0)
	s.shows("modified since approval", "no snapshot", "? Allow this hook to run? No")
	// The reason there is no diff must not swallow the warning's line.
	s.showsLine(credentialsWarning)
}

func TestPromptAcceptAllConfirms(t *testing.T) {
	t.Parallel()
	home, _ := threeHooksHome(t)
	dir := filepath.Join(home, ".hermes")

	// --all without --yes at a terminal lists the pending hooks and asks.
	s := startAtTerminal(t, home, "hooks", "accept", "--all")
	s.answer("Approve 2 hook(s)?", "y\r")
	s.exits(0)
	s.shows(
		"on_session_start  ~/.hermes/changed.sh --verbose  (script: "+filepath.Join(dir, "changed.sh")+")",
		"pre_llm_call  ~/.hermes/fresh.sh  (script: "+filepath.Join(dir, "fresh.sh")+")",
		"approved  on_session_start  ~/.hermes/changed.sh --verbose",
		"approved  pre_llm_call  ~/.hermes/fresh.sh",
	)
	for _, a := range approvals(t, home) {
		if a.Via != "accept" {
			t.Errorf("%s approved_via %q, want accept", a.Command, a.Via)
		}
		if a.Command == "~/.hermes/changed.sh --verbose" && a.SHA256 != sha256Of(t, filepath.Join(dir, "changed.sh")) {
			t.Errorf("changed.sh re-approved with sha256 %s, not the script's", a.SHA256)
		}
	}
	if got := approvals(t, home); len(got) != 3 {
		t.Errorf("allowlist has %d approvals, want 3: %+v", len(got), got)
	}
}
