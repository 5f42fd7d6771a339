package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/iostreams"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// claudeSettings is a project settings file with n command hooks over
// the events and matchers of a real one.
func claudeSettings(n int) string {
	events := []string{"PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"}
	matchers := []string{"Bash", "Edit|Write", "Read", ""}
	var b strings.Builder
	b.WriteString(`{"hooks": {`)
	per := (n + len(events) - 1) / len(events)
	done := 0
	for ei, ev := range events {
		if ei > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q: [", ev)
		for i := 0; i < per && done < n; i, done = i+1, done+1 {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `{"matcher": %q, "hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/h%d.sh --n %d", "timeout": 10}]}`, matchers[ei], i%10, done)
		}
		b.WriteString("]")
	}
	b.WriteString("}}")
	return b.String()
}

func benchImportHome(b *testing.B, n int) (home, settings string) {
	b.Helper()
	home = b.TempDir()
	project := filepath.Join(home, "project", ".claude")
	if err := os.MkdirAll(project, 0o755); err != nil {
		b.Fatal(err)
	}
	settings = filepath.Join(project, "settings.json")
	if err := os.WriteFile(settings, []byte(claudeSettings(n)), 0o644); err != nil {
		b.Fatal(err)
	}
	return home, settings
}

// BenchmarkImportClaude measures `hermes hooks import claude` in-process
// into an empty config at 1,000 and 10,000 hooks; time should grow
// linearly (ns/hook about constant).
func BenchmarkImportClaude(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("hooks=%d", n), func(b *testing.B) {
			home, settings := benchImportHome(b, n)
			cfg := filepath.Join(home, "config.yaml")
			for i := 0; i < b.N; i++ {
				os.Remove(cfg)
				ios, _, _, _ := iostreams.Test()
				ios.Out, ios.ErrOut = io.Discard, io.Discard
				f := &Factory{IO: ios, Env: config.MapEnv(nil), Environ: os.Environ,
					UserHome: func() string { return home }, Runner: shell.Exec{}, Now: time.Now, Settings: NewSettings()}
				cmd := newCmdImportClaude(f, func(o *importClaudeOptions) error {
					o.Guard = func() (string, error) { return "/usr/local/bin/hermes-guard", nil }
					return importClaudeRun(o.cmd, o)
				})
				cmd.SetArgs([]string{settings, "--json"})
				f.Settings.Set("home", home)
				if err := cmd.Execute(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/hook")
		})
	}
}
