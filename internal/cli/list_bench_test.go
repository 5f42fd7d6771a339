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
	writeBenchHome(b, home, cfg.String(), entries)
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

// bigConfigScriptSHA is the sha256 of bigConfigHome's scripts.
const bigConfigScriptSHA = "306c6ca7407560340797866e077e053627ad409277d1b9da58106fce4cf717cb"

// bigConfigHome writes a home shaped like SPEC §29 item 2's 55 MB config,
// with n hooks: plain scalars (the config reader's fast path), four events,
// two scripts, a matcher on two of seven tool hooks, ${HOME} in one command
// of fifty, and every third hook approved.
func bigConfigHome(b testing.TB, n int) string {
	b.Helper()
	home := b.TempDir()
	for _, s := range []string{"hook-a.sh", "hook-b.sh"} {
		if err := os.WriteFile(filepath.Join(home, s), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil { // bigConfigScriptSHA
			b.Fatal(err)
		}
	}
	events := []string{"pre_tool_call", "post_tool_call", "pre_llm_call", "on_session_start"}
	var cfg strings.Builder
	var entries []string
	cfg.WriteString("model: gpt-4\nhooks:\n")
	k := 0
	for e, ev := range events {
		fmt.Fprintf(&cfg, "  %s:\n", ev)
		for i := 0; i < n/len(events); i++ {
			k++
			script, base := "hook-a.sh", home
			if k%5 == 0 {
				script = "hook-b.sh"
			}
			if k%50 == 0 {
				base = "${HERMES_HOME}"
			}
			if e < 2 && (k%7 == 0 || k%7 == 3) {
				cfg.WriteString("    - matcher: terminal\n")
				fmt.Fprintf(&cfg, "      command: %s/%s %07d\n", base, script, k)
			} else {
				fmt.Fprintf(&cfg, "    - command: %s/%s %07d\n", base, script, k)
			}
			cfg.WriteString("      timeout: 10\n")
			if k%3 == 0 {
				entries = append(entries, fmt.Sprintf(`{"approved_at": "2026-12-01T10:11:12Z", "command": "%s/%s %07d", "event": %q, "script_sha256_at_approval": %q}`, home, script, k, ev, bigConfigScriptSHA))
			}
		}
	}
	writeBenchHome(b, home, cfg.String(), entries)
	return home
}

// BenchmarkListBigConfig measures `hermes hooks list` (text and --json)
// in-process on configs shaped like SPEC §29 item 2's (bigConfigHome) at
// 10,000 and 40,000 hooks; ns/hook should stay flat, and times the 755,000
// hooks of the 55 MB config gives that bar's estimate (docs/performance.md).
func BenchmarkListBigConfig(b *testing.B) {
	for _, n := range []int{10000, 40000} {
		home := bigConfigHome(b, n)
		for _, format := range []string{"text", "json"} {
			b.Run(fmt.Sprintf("hooks=%d/%s", n, format), func(b *testing.B) {
				args := []string{"--home", home, "hooks", "list"}
				if format == "json" {
					args = append(args, "--json")
				}
				for b.Loop() {
					ios, _, _, _ := iostreams.Test()
					ios.Out, ios.ErrOut = io.Discard, io.Discard
					f := &Factory{IO: ios, Env: config.MapEnv(nil), Environ: os.Environ,
						UserHome: func() string { return home }, Runner: shell.Exec{}, Now: time.Now, Settings: NewSettings()}
					root := NewRootCmd(f)
					root.SetArgs(args)
					if err := root.Execute(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/hook")
			})
		}
	}
}

// writeBenchHome writes the config and an allowlist of the given entries
// (JSON objects) into the hermes home.
func writeBenchHome(b testing.TB, home, cfg string, entries []string) {
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte(cfg), 0o600); err != nil {
		b.Fatal(err)
	}
	allow := `{"approvals": [` + strings.Join(entries, ", ") + `]}`
	if err := os.WriteFile(filepath.Join(home, "shell-hooks-allowlist.json"), []byte(allow), 0o600); err != nil {
		b.Fatal(err)
	}
}
