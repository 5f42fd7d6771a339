package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/cli"
)

// BenchmarkRunEventOverhead measures SPEC §12's first quality bar: the
// whole-process cost of `hermes hooks run-event` with one approved trivial
// hook against exec'ing the hook's script directly with the same stdin.
// The two are interleaved so that machine noise hits both alike.
//
// ns/op is one run-event; direct-ns/op one direct exec; ratio their
// quotient; overhead-ms/op what hermes adds (the bar: a few milliseconds).
func BenchmarkRunEventOverhead(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "hermes")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}

	home := filepath.Join(dir, "home")
	hermesHome := filepath.Join(home, ".hermes")
	if err := os.MkdirAll(hermesHome, 0o755); err != nil {
		b.Fatal(err)
	}
	script := filepath.Join(hermesHome, "hook.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ncat >/dev/null\n"), 0o755); err != nil {
		b.Fatal(err)
	}
	cfg := "hooks:\n  pre_tool_call:\n    - command: \"~/.hermes/hook.sh\"\n"
	if err := os.WriteFile(filepath.Join(hermesHome, "config.yaml"), []byte(cfg), 0o600); err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(), "HOME="+home, "HERMES_HOME="+hermesHome, "NO_COLOR=1",
		"HERMES_ACCEPT_HOOKS=", "HERMES_SAFE_MODE=")

	// Approve the hook once, and capture the exact stdin it gets.
	run := func(args ...string) []byte {
		cmd := exec.Command(bin, args...)
		cmd.Env, cmd.Dir = env, dir
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("hermes %q: %v\n%s", args, err, out)
		}
		return out
	}
	run("--accept-hooks", "hooks", "run-event", "pre_tool_call")
	stdin := lastLine(run("hooks", "run-event", "pre_tool_call", "--dry-run"))
	if !bytes.HasPrefix(stdin, []byte(`{"hook_event_name": "pre_tool_call"`)) {
		b.Fatalf("dry run did not end with the stdin: %s", stdin)
	}

	fire := exec.Command(bin, "hooks", "run-event", "pre_tool_call")
	fireArgs := fire.Args
	var hermesTime, directTime time.Duration
	b.ResetTimer()
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		direct := exec.Command(script)
		direct.Env, direct.Dir, direct.Stdin = env, dir, bytes.NewReader(stdin)
		t0 := time.Now()
		if err := direct.Run(); err != nil {
			b.Fatal(err)
		}
		directTime += time.Since(t0)

		cmd := exec.Command(bin, fireArgs[1:]...)
		cmd.Env, cmd.Dir = env, dir
		t0 = time.Now()
		b.StartTimer()
		err := cmd.Run()
		b.StopTimer()
		hermesTime += time.Since(t0)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(directTime.Nanoseconds())/float64(b.N), "direct-ns/op")
	b.ReportMetric(float64(hermesTime)/float64(directTime), "ratio")
	b.ReportMetric(float64((hermesTime-directTime).Nanoseconds())/float64(b.N)/1e6, "overhead-ms/op")
}

// lastLine is the last non-empty line of out.
func lastLine(out []byte) []byte {
	lines := bytes.Split(bytes.TrimRight(out, "\n"), []byte("\n"))
	return lines[len(lines)-1]
}

// BenchmarkRunEventInProcess is run-event's own work without process
// start-up: load the config and allowlist, fire one approved trivial hook,
// evaluate, append to the audit log, render.
func BenchmarkRunEventInProcess(b *testing.B) {
	home := b.TempDir()
	script := filepath.Join(home, "hook.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ncat >/dev/null\n"), 0o755); err != nil {
		b.Fatal(err)
	}
	cfg := "hooks:\n  pre_tool_call:\n    - command: \"" + script + "\"\n"
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte(cfg), 0o600); err != nil {
		b.Fatal(err)
	}
	fire := func(args ...string) {
		f := cli.NewFactory()
		f.IO.Out, f.IO.ErrOut = io.Discard, io.Discard
		root := cli.NewRootCmd(f)
		root.SetArgs(append([]string{"--home", home}, args...))
		if err := root.Execute(); err != nil {
			b.Fatal(err)
		}
	}
	fire("--accept-hooks", "hooks", "run-event", "pre_tool_call")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		fire("hooks", "run-event", "pre_tool_call")
	}
}
