package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// bigListHome writes SPEC §29 item 2's config at n hooks: four events,
// plain one-line values (the shape the config reader reads without
// yaml.v3), two scripts, a matcher on two of seven tool hooks, ${HOME} in
// one command of fifty, and every third hook approved with its script's
// sha256 (755,000 hooks: 55 MB with /tmp/lb/home's paths, 77 MB with a
// test's longer temporary folder). It returns the number of approved
// hooks.
func bigListHome(t *testing.T, h *stressHome, n int) (approved int) {
	body := "exit 0\n"
	scripts := []string{h.writeScript("hook-a.sh", body), h.writeScript("hook-b.sh", body)}
	sum := sha256.Sum256([]byte("#!/bin/sh\n" + body))
	events := []string{"pre_tool_call", "post_tool_call", "pre_llm_call", "on_session_start"}
	var cfg, allow strings.Builder
	cfg.WriteString("model: gpt-4\nhooks:\n")
	allow.WriteString(`{"approvals": [`)
	k := 0
	for e, ev := range events {
		fmt.Fprintf(&cfg, "  %s:\n", ev)
		count := n / len(events)
		if e == len(events)-1 {
			count = n - k
		}
		for range count {
			k++
			script := scripts[0]
			if k%5 == 0 {
				script = scripts[1]
			}
			written, runs := script, script
			if k%50 == 0 {
				written = "${HOME}" + strings.TrimPrefix(script, h.root)
			}
			if e < 2 && (k%7 == 0 || k%7 == 3) {
				cfg.WriteString("    - matcher: terminal\n")
				fmt.Fprintf(&cfg, "      command: %s %07d\n", written, k)
			} else {
				fmt.Fprintf(&cfg, "    - command: %s %07d\n", written, k)
			}
			cfg.WriteString("      timeout: 10\n")
			if k%3 == 0 {
				if approved > 0 {
					allow.WriteString(", ")
				}
				fmt.Fprintf(&allow, `{"approved_at": "2026-12-01T00:00:00Z", "approved_via": "accept", "command": "%s %07d", "event": %q, "script_sha256_at_approval": %q}`,
					runs, k, ev, hex.EncodeToString(sum[:]))
				approved++
			}
		}
	}
	allow.WriteString("]}")
	if err := os.WriteFile(h.configPath(), []byte(cfg.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(h.allowlistPath(), []byte(allow.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return approved
}

// TestStressListBigConfig is SPEC §29 item 2's `list` of a config of
// 755,000 hooks (55 MB; 4,000 hooks in `go test`), text and --json, and an
// `add` to it: every hook is listed, each approved one as allowed, and the
// add keeps them all. The times and peak RSS are logged for
// docs/performance.md (bar: list under 5 s; add under 10 s and 1 GiB),
// not asserted: the machine is shared.
func TestStressListBigConfig(t *testing.T) {
	n := stressSize(755000, 4000)
	h := newStressHome(t, buildHermes(t))
	approved := bigListHome(t, h, n)
	if fi, err := os.Stat(h.configPath()); err == nil {
		t.Logf("config: %d hooks, %.1f MB; %d approved", n, float64(fi.Size())/1e6, approved)
	}

	r := h.runMeasured("hooks", "list")
	if r.code != 0 || r.stderr.Len() > 0 {
		t.Fatalf("list exited %d:\n%.2000s", r.code, &r.stderr)
	}
	allowed := bytes.Count(r.stdout.Bytes(), []byte("\n    ✓ allowed  "))
	unapproved := bytes.Count(r.stdout.Bytes(), []byte("\n    ✗ not allowlisted  "))
	if allowed != approved || allowed+unapproved != n {
		t.Fatalf("list shows %d allowed and %d not allowlisted, want %d and %d", allowed, unapproved, approved, n-approved)
	}
	t.Logf("list of %d hooks: %v, peak RSS %d MiB, %d MB written", n, r.elapsed.Round(time.Millisecond), r.maxRSSKiB>>10, r.stdout.Len()>>20)

	r = h.runMeasured("hooks", "list", "--json")
	if r.code != 0 || r.stderr.Len() > 0 {
		t.Fatalf("list --json exited %d:\n%.2000s", r.code, &r.stderr)
	}
	if got := bytes.Count(r.stdout.Bytes(), []byte(`"approved": true,`)); got != approved {
		t.Fatalf("list --json shows %d approved hooks, want %d", got, approved)
	}
	if got := bytes.Count(r.stdout.Bytes(), []byte(`"approved": false,`)); got != n-approved {
		t.Fatalf("list --json shows %d hooks not approved, want %d", got, n-approved)
	}
	t.Logf("list --json of %d hooks: %v, peak RSS %d MiB", n, r.elapsed.Round(time.Millisecond), r.maxRSSKiB>>10)

	added := h.writeScript("added.sh", "exit 0\n")
	r = h.runMeasured("hooks", "add", "pre_tool_call", added)
	if r.code != 0 {
		t.Fatalf("add exited %d:\n%.2000s", r.code, &r.stderr)
	}
	data, err := os.ReadFile(h.configPath())
	if err != nil {
		t.Fatal(err)
	}
	if got := bytes.Count(data, []byte("command: ")); got != n+1 || !bytes.Contains(data, []byte(added)) {
		t.Fatalf("after add: %d commands in the config (want %d), the added one there: %v", got, n+1, bytes.Contains(data, []byte(added)))
	}
	t.Logf("add to %d hooks: %v, peak RSS %d MiB", n, r.elapsed.Round(time.Millisecond), r.maxRSSKiB>>10)
}
