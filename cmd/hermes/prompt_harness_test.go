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
	return startAtTerminalWith(t, home, nil, args...)
}

// startAtTerminalWith is startAtTerminal with more environment variables.
func startAtTerminalWith(t *testing.T, home string, env []string, args ...string) *session {
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
	s.cmd.Env = append(s.cmd.Env, env...)
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

// answer waits until the screen shows question and its prompt reads the
// keyboard, then types keys.
func (s *session) answer(question, keys string) {
	s.t.Helper()
	s.expect(question)
	s.atKeyboard()
	s.send(keys)
}

// press types key and waits until the screen shows all of texts (the
// program's answer to the key).
func (s *session) press(key string, texts ...string) {
	s.t.Helper()
	s.send(key)
	s.expect(texts...)
}

// exits reads the output to the end and fails the test unless hermes
// exited with code.
func (s *session) exits(code int) {
	s.t.Helper()
	if got := s.wait(); got != code {
		s.t.Fatalf("exit code %d, want %d; screen:\n%s", got, code, s.text())
	}
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
	out, err := hermesCmd(t, home, args...).CombinedOutput()
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
