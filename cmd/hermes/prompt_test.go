//go:build unix

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	expect "github.com/Netflix/go-expect"
	"github.com/creack/pty"
	"github.com/hinshun/vt10x"
)

// The prompts are proved the way a person meets them: the real hermes
// binary (the copy testscript.Main puts on PATH, which runs main's run())
// with its three standard streams on a pseudo-terminal, driven by keys.
// The pty is the program's controlling terminal, as in a login session.
//
// survey asks the terminal where the cursor is (ESC[6n) and waits for the
// answer; a bare pty never answers, so everything the program prints is
// fed to a vt10x emulator, which writes the reply back as a terminal would.
// The emulator's screen is also what the assertions read: what a person
// would see once escape codes are applied.

// failAfter only bounds a test that is going wrong; nothing waits for it.
const failAfter = 30 * time.Second

const (
	screenCols = 200
	screenRows = 60
)

// session is one hermes process at a terminal.
type session struct {
	t       *testing.T
	console *expect.Console
	screen  vt10x.Terminal
	cmd     *exec.Cmd
	raw     strings.Builder // every byte the program printed, as read
	done    bool            // the process was waited for
}

// startAtTerminal runs hermes with args at a fresh pseudo-terminal, with
// HOME=home and HERMES_HOME=home/.hermes. It skips the test when the
// system has no pseudo-terminals.
func startAtTerminal(t *testing.T, home string, args ...string) *session {
	t.Helper()
	if _, err := os.Stat("/dev/ptmx"); err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	bin, err := exec.LookPath("hermes")
	if err != nil {
		t.Fatalf("hermes is not on PATH (TestMain's testscript.Main puts it there): %v", err)
	}
	// The emulator's replies (the cursor position) go back to the program
	// as if typed: through this pipe into the console's input.
	replyR, replyW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	screen := vt10x.New(vt10x.WithWriter(replyW), vt10x.WithSize(screenCols, screenRows))
	console, err := expect.NewConsole(
		expect.WithStdin(replyR),
		expect.WithStdout(screen),
		expect.WithCloser(replyW, replyR),
		expect.WithDefaultTimeout(failAfter),
	)
	if err != nil {
		replyR.Close()
		replyW.Close()
		t.Skipf("cannot open a pseudo-terminal: %v", err)
	}
	s := &session{t: t, console: console, screen: screen}
	t.Cleanup(s.close)
	if err := pty.Setsize(console.Tty(), &pty.Winsize{Rows: screenRows, Cols: screenCols}); err != nil {
		t.Fatalf("setting the terminal size: %v", err)
	}

	s.cmd = exec.Command(bin, args...)
	s.cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"HERMES_HOME=" + filepath.Join(home, ".hermes"),
		"TERM=xterm-256color",
	}
	s.cmd.Dir = home
	tty := console.Tty()
	s.cmd.Stdin, s.cmd.Stdout, s.cmd.Stderr = tty, tty, tty
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	// Only the child holds the terminal now, so its exit ends the output.
	_ = tty.Close()
	return s
}

// expect reads the program's output until the screen shows all of texts.
func (s *session) expect(texts ...string) {
	s.t.Helper()
	out, err := s.console.Expect(onScreen(s.screen, texts))
	s.raw.WriteString(out)
	if err != nil {
		s.t.Fatalf("waiting for the terminal to show %q: %v\nscreen:\n%s\nraw output: %q", texts, err, s.text(), s.raw.String())
	}
}

// onScreen is an expect condition met when the emulator's screen shows
// every one of texts (escape codes applied, so colours do not split them).
func onScreen(screen vt10x.Terminal, texts []string) expect.ExpectOpt {
	return func(opts *expect.ExpectOpts) error {
		opts.Matchers = append(opts.Matchers, screenMatcher{screen, texts})
		return nil
	}
}

type screenMatcher struct {
	screen vt10x.Terminal
	texts  []string
}

func (m screenMatcher) Match(v any) bool {
	if _, ok := v.(*bytes.Buffer); !ok {
		return false // an error, not output
	}
	shown := m.screen.String()
	for _, text := range m.texts {
		if !strings.Contains(shown, text) {
			return false
		}
	}
	return true
}

func (m screenMatcher) Criteria() any { return m.texts }

// atKeyboard waits until a survey text prompt (Confirm) reads the
// keyboard, so keys sent next reach it as keys.
//
// survey switches the terminal to raw mode and then asks where the cursor
// is (ESC[6n). Waiting for the query proves raw mode (before it, Ctrl-C
// would be a signal, not a key). The query is left unanswered until the
// next read of the output: survey drops keys that arrive in the same
// read as a cursor report, after it, but keeps keys that come before it,
// so keys must be sent while the report is still pending.
func (s *session) atKeyboard() {
	s.t.Helper()
	out, err := s.console.ExpectString("\x1b[6") // the final 'n' stays unread
	s.raw.WriteString(out)
	if err != nil {
		s.t.Fatalf("waiting for the prompt to read the keyboard: %v\nscreen:\n%s", err, s.text())
	}
}

// send types keys.
func (s *session) send(keys string) {
	s.t.Helper()
	if _, err := s.console.Send(keys); err != nil {
		s.t.Fatalf("typing %q: %v", keys, err)
	}
}

// wait reads the output to the end and returns the exit code.
func (s *session) wait() int {
	s.t.Helper()
	out, err := s.console.ExpectEOF()
	s.raw.WriteString(out)
	if err != nil {
		s.t.Fatalf("waiting for hermes to finish: %v\nscreen:\n%s", err, s.text())
	}
	err = s.cmd.Wait()
	s.done = true
	s.t.Logf("hermes %s; the terminal at exit:\n%s", strings.Join(s.cmd.Args[1:], " "), s.text())
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitCode()
	}
	s.t.Fatalf("hermes: %v", err)
	return -1
}

// text is the screen as a person sees it, trailing blanks removed.
func (s *session) text() string {
	lines := strings.Split(s.screen.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// shows fails unless every one of texts is on the screen.
func (s *session) shows(texts ...string) {
	s.t.Helper()
	screen := s.text()
	for _, want := range texts {
		if !strings.Contains(screen, want) {
			s.t.Errorf("the terminal does not show %q; it shows:\n%s", want, screen)
		}
	}
}

// showsNot fails if any of texts is on the screen.
func (s *session) showsNot(texts ...string) {
	s.t.Helper()
	screen := s.text()
	for _, bad := range texts {
		if strings.Contains(screen, bad) {
			s.t.Errorf("the terminal shows %q, which it should not:\n%s", bad, screen)
		}
	}
}

// showsLine fails unless line is a whole line of the screen.
func (s *session) showsLine(line string) {
	s.t.Helper()
	screen := s.text()
	for _, l := range strings.Split(screen, "\n") {
		if strings.TrimSpace(l) == line {
			return
		}
	}
	s.t.Errorf("the terminal does not show the line %q; it shows:\n%s", line, screen)
}

func (s *session) close() {
	if !s.done && s.cmd != nil && s.cmd.Process != nil {
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
	}
	_ = s.console.Close()
}

// runOffTerminal runs hermes with no terminal (as CI would) and fails on a
// non-zero exit.
func runOffTerminal(t *testing.T, home string, args ...string) string {
	t.Helper()
	bin, err := exec.LookPath("hermes")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "HERMES_HOME=" + filepath.Join(home, ".hermes"), "NO_COLOR=1"}
	cmd.Dir = home
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("hermes %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// newHome makes HOME with a .hermes holding config.yaml and the given
// scripts (name → content, made executable).
func newHome(t *testing.T, config string, scripts map[string]string) string {
	t.Helper()
	home := t.TempDir()
	hermesHome := filepath.Join(home, ".hermes")
	if err := os.MkdirAll(hermesHome, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(hermesHome, "config.yaml"), config, 0o644)
	for name, content := range scripts {
		writeFile(t, filepath.Join(hermesHome, name), content, 0o755)
	}
	return home
}

func writeFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

type approval struct {
	Event   string `json:"event"`
	Command string `json:"command"`
	Via     string `json:"approved_via"`
	SHA256  string `json:"script_sha256_at_approval"`
}

// approvals reads the allowlist of home; none when there is no file.
func approvals(t *testing.T, home string) []approval {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(home, ".hermes", "shell-hooks-allowlist.json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Approvals []approval `json:"approvals"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatalf("allowlist: %v\n%s", err, data)
	}
	return file.Approvals
}

func sha256Of(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

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

func TestPromptRunEventApproves(t *testing.T) {
	t.Parallel()
	home := newHome(t, oneHookConfig, map[string]string{"hook.sh": firingHook})
	script := filepath.Join(home, ".hermes", "hook.sh")

	s := startAtTerminal(t, home, "hooks", "run-event", "on_session_start")
	s.expect("Allow this hook to run?")
	s.atKeyboard()
	s.send("y\r")
	if code := s.wait(); code != 0 {
		t.Fatalf("exit code %d, want 0; screen:\n%s", code, s.text())
	}
	s.shows(
		"event:   on_session_start",
		"command: ~/.hermes/hook.sh",
		"script:  "+script,
		credentialsWarning,
		"? Allow this hook to run? Yes",
		"Firing 1 hook(s) for event 'on_session_start':",
	)

	got := approvals(t, home)
	if len(got) != 1 || got[0].Event != "on_session_start" || got[0].Command != "~/.hermes/hook.sh" || got[0].Via != "prompt" {
		t.Fatalf("allowlist approvals = %+v, want one on_session_start ~/.hermes/hook.sh approved_via prompt", got)
	}
	if want := sha256Of(t, script); got[0].SHA256 != want {
		t.Errorf("recorded sha256 %s, want the script's %s", got[0].SHA256, want)
	}
	if !exists(filepath.Join(home, ".hermes", "fired")) {
		t.Error("the approved hook did not fire: no side-effect file")
	}
}

func TestPromptRunEventEnterDeclines(t *testing.T) {
	t.Parallel()
	home := newHome(t, oneHookConfig, map[string]string{"hook.sh": firingHook})

	s := startAtTerminal(t, home, "hooks", "run-event", "on_session_start")
	s.expect("Allow this hook to run? (y/N)")
	s.atKeyboard()
	s.send("\r")
	if code := s.wait(); code != 0 {
		t.Fatalf("exit code %d, want 0; screen:\n%s", code, s.text())
	}
	s.shows(credentialsWarning, "? Allow this hook to run? No", "skipped (not approved)")

	if got := approvals(t, home); len(got) != 0 {
		t.Errorf("declining recorded approvals: %+v", got)
	}
	if exists(filepath.Join(home, ".hermes", "fired")) {
		t.Error("the declined hook fired")
	}
}

func TestPromptRunEventReapprovalShowsDiff(t *testing.T) {
	t.Parallel()
	home := newHome(t, oneHookConfig, map[string]string{"hook.sh": firingHook})
	script := filepath.Join(home, ".hermes", "hook.sh")
	runOffTerminal(t, home, "hooks", "accept", "--all", "--yes")
	before := approvals(t, home)
	if len(before) != 1 || before[0].SHA256 != sha256Of(t, script) {
		t.Fatalf("accept --all --yes recorded %+v", before)
	}
	writeFile(t, script, strings.Replace(firingHook, "# old line", "# new line", 1), 0o755)

	s := startAtTerminal(t, home, "hooks", "run-event", "on_session_start")
	s.expect("Allow this hook to run?")
	s.atKeyboard()
	s.send("y\r")
	if code := s.wait(); code != 0 {
		t.Fatalf("exit code %d, want 0; screen:\n%s", code, s.text())
	}
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

	got := approvals(t, home)
	if len(got) != 1 || got[0].Via != "prompt" {
		t.Fatalf("allowlist approvals = %+v, want the one hook re-approved via prompt", got)
	}
	if want := sha256Of(t, script); got[0].SHA256 != want || got[0].SHA256 == before[0].SHA256 {
		t.Errorf("recorded sha256 %s, want the new script's %s (old %s)", got[0].SHA256, want, before[0].SHA256)
	}
	if !exists(filepath.Join(home, ".hermes", "fired")) {
		t.Error("the re-approved hook did not fire")
	}
}

func TestPromptRunEventCtrlC(t *testing.T) {
	t.Parallel()
	home := newHome(t, oneHookConfig, map[string]string{"hook.sh": firingHook})

	s := startAtTerminal(t, home, "hooks", "run-event", "on_session_start")
	s.expect("Allow this hook to run?")
	s.atKeyboard()
	s.send("\x03")
	if code := s.wait(); code != 130 {
		t.Fatalf("exit code %d after Ctrl-C, want 130; screen:\n%s", code, s.text())
	}
	s.shows("interrupted")
	if got := approvals(t, home); len(got) != 0 {
		t.Errorf("Ctrl-C recorded approvals: %+v", got)
	}
	if exists(filepath.Join(home, ".hermes", "fired")) {
		t.Error("the hook fired after Ctrl-C")
	}
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
	s.send(" ")
	s.expect("> [x]  "+changedOption, "  [ ]  "+freshOption)
	s.send("\x1b[B")
	s.expect("  [x]  "+changedOption, "> [ ]  "+freshOption)
	s.send(" ")
	s.expect("  [x]  "+changedOption, "> [x]  "+freshOption)
	s.send("\x1b[A")
	s.expect("> [x]  "+changedOption, "  [x]  "+freshOption)
	s.send(" ")
	s.expect("> [ ]  "+changedOption, "  [x]  "+freshOption)
	picker := s.text()
	s.send("\r")
	if code := s.wait(); code != 0 {
		t.Fatalf("exit code %d, want 0; screen:\n%s", code, s.text())
	}

	// What the person chose from: every pending hook with its event,
	// command and script, the diff of the modified one, and the warning;
	// not the approved, unchanged hook.
	for _, want := range []string{
		credentialsWarning,
		"~/.hermes/changed.sh --verbose (on_session_start) changed since approval:",
		"-# old line",
		"+# new line",
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
	s.send(" ")
	s.expect("> [x]") // the key was read: the terminal is in raw mode
	s.send("\x03")
	if code := s.wait(); code != 130 {
		t.Fatalf("exit code %d after Ctrl-C, want 130; screen:\n%s", code, s.text())
	}
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
	if code := s.wait(); code != 0 {
		t.Fatalf("exit code %d, want 0; screen:\n%s", code, s.text())
	}
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
	home := newHome(t, oneHookConfig, map[string]string{"hook.sh": firingHook})

	s := startAtTerminal(t, home, "--no-color", "hooks", "run-event", "on_session_start")
	s.expect("Allow this hook to run?")
	s.atKeyboard()
	s.send("\r")
	if code := s.wait(); code != 0 {
		t.Fatalf("exit code %d, want 0; screen:\n%s", code, s.text())
	}
	if codes := sgr.FindAllString(s.raw.String(), -1); len(codes) > 0 {
		t.Errorf("--no-color, yet the prompt printed colour codes %q:\n%q", codes, s.raw.String())
	}
}

func TestPromptRunEventReapprovalNoSnapshot(t *testing.T) {
	t.Parallel()
	home := newHome(t, oneHookConfig, map[string]string{"hook.sh": firingHook})
	script := filepath.Join(home, ".hermes", "hook.sh")
	runOffTerminal(t, home, "hooks", "accept", "--all", "--yes")
	if err := os.RemoveAll(filepath.Join(home, ".hermes", "shell-hooks-snapshots")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, script, strings.Replace(firingHook, "# old line", "# new line", 1), 0o755)

	s := startAtTerminal(t, home, "hooks", "run-event", "on_session_start")
	s.expect("Allow this hook to run?")
	s.atKeyboard()
	s.send("\r")
	if code := s.wait(); code != 0 {
		t.Fatalf("exit code %d, want 0; screen:\n%s", code, s.text())
	}
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
	s.expect("Approve 2 hook(s)?")
	s.atKeyboard()
	s.send("y\r")
	if code := s.wait(); code != 0 {
		t.Fatalf("exit code %d, want 0; screen:\n%s", code, s.text())
	}
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
