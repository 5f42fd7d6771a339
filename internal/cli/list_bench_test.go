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

// benchHome writes a home with n pre_tool_call hooks over 10 scripts, each
// with its own matcher (so no cache of compiled patterns can help), all
// approved, plus 9n other allowlist entries (10n in all).
func benchHome(b *testing.B, n int) string {
	b.Helper()
	home := b.TempDir()
	var scripts []string
	for i := 0; i < 10; i++ {
		p := filepath.Join(home, fmt.Sprintf("hook%d.sh", i))
		if err := os.WriteFile(p, []byte("#!/bin/sh\ncat >/dev/null\n"), 0o755); err != nil {
			b.Fatal(err)
		}
		scripts = append(scripts, p)
	}
	var cfg strings.Builder
	cfg.WriteString("hooks:\n  pre_tool_call:\n")
	var entries []string
	for i := 0; i < n; i++ {
		cmd := fmt.Sprintf("%s --n %d", scripts[i%10], i)
		fmt.Fprintf(&cfg, "    - command: %q\n      matcher: \"terminal_%d|mcp__srv%d__\\\\w+\"\n      timeout: 10\n", cmd, i, i)
		entries = append(entries, fmt.Sprintf(`{"approved_at": "2026-11-29T10:11:12Z", "command": %q, "event": "pre_tool_call"}`, cmd))
	}
	for i := 0; i < 9*n; i++ {
		entries = append(entries, fmt.Sprintf(`{"approved_at": "2026-11-29T10:11:12Z", "command": "/elsewhere/hook %d", "event": "post_tool_call"}`, i))
	}
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte(cfg.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	allow := `{"approvals": [` + strings.Join(entries, ", ") + `]}`
	if err := os.WriteFile(filepath.Join(home, "shell-hooks-allowlist.json"), []byte(allow), 0o600); err != nil {
		b.Fatal(err)
	}
	return home
}

// BenchmarkList measures `hermes hooks list --json` in-process at 100,
// 1,000 and 10,000 hooks with 10x allowlist entries; time should grow
// linearly (ns/op divided by hooks stays about constant).
func BenchmarkList(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("hooks=%d", n), func(b *testing.B) {
			home := benchHome(b, n)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ios, _, _, _ := iostreams.Test()
				ios.Out, ios.ErrOut = io.Discard, io.Discard
				f := &Factory{IO: ios, Env: config.MapEnv(nil), Environ: os.Environ,
					UserHome: func() string { return home }, Runner: shell.Exec{}, Now: time.Now, Settings: NewSettings()}
				root := NewRootCmd(f)
				root.SetArgs([]string{"--home", home, "hooks", "list", "--json"})
				if err := root.Execute(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/hook")
		})
	}
}
