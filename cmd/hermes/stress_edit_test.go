package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The config-editing half of the stress suite (SPEC §18, §22): concurrent
// edits under the config lock, writers that do not lock, and the §14 reader
// reading every result.

func (h *stressHome) configPath() string { return filepath.Join(h.home, "config.yaml") }

// listed reads the config as the agent does (hooks list --json, this tool's
// §14 reader) and fails unless it loads cleanly. It returns the hooks by
// (event, command).
func (h *stressHome) listed(when string) map[hookKey]int {
	h.t.Helper()
	r := h.run("hooks", "list", "--json")
	var out struct {
		ShellHooks []struct {
			Event, Command string
		} `json:"shell_hooks"`
	}
	if err := json.Unmarshal(r.stdout.Bytes(), &out); err != nil || r.code != 0 {
		data, _ := os.ReadFile(h.configPath())
		h.t.Fatalf("%s: list --json exited %d (%v):\n%s\nconfig:\n%.3000s", when, r.code, err, &r.stderr, data)
	}
	got := map[hookKey]int{}
	for _, s := range out.ShellHooks {
		got[hookKey{s.Event, s.Command}]++
	}
	return got
}

// settingsLines is a config with n top-level settings s000…, which every
// edit must keep.
func settingsLines(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "s%03d: value %d\n", i, i)
	}
	return b.String()
}

var settingRE = regexp.MustCompile(`(?m)^s[0-9]{3}: `)

func addArgs(cmd string) []string { return []string{"hooks", "add", "pre_tool_call", cmd} }

// TestStressConcurrentAdd: 32 (full: 64) adds at once, while a writer that
// does not lock appends to the file: every add that said done has its hook,
// every setting survives, and the agent's reader reads the result.
func TestStressConcurrentAdd(t *testing.T) {
	n := stressSize(64, 32)
	rounds := stressSize(5, 2)
	h := newStressHome(t, buildHermes(t))
	cmds := h.writeHooks("add", n)
	var redone, failed int
	start := time.Now()
	for round := range rounds {
		if err := os.WriteFile(h.configPath(), []byte(settingsLines(50)), 0o600); err != nil {
			t.Fatal(err)
		}
		// The agent's dashboard saving now and then, without the lock: an
		// append of a comment line every 5–40 ms.
		stop := make(chan struct{})
		var appends atomic.Int64
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(round), 7))
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				case <-time.After(time.Duration(5+rng.IntN(35)) * time.Millisecond):
				}
				f, err := os.OpenFile(h.configPath(), os.O_WRONLY|os.O_APPEND, 0)
				if err != nil {
					continue
				}
				fmt.Fprintf(f, "# dashboard save %d\n", i)
				f.Close()
				appends.Add(1)
			}
		}()
		var invocations [][]string
		for _, c := range cmds {
			invocations = append(invocations, addArgs(c))
		}
		results := h.startAll(invocations)
		close(stop)
		wg.Wait()
		got := h.listed(fmt.Sprintf("round %d", round))
		for i, r := range results {
			k := hookKey{"pre_tool_call", cmds[i]}
			switch {
			case r.code == 0 && got[k] != 1:
				t.Errorf("round %d: add %s said done, but the config has it %d time(s)", round, cmds[i], got[k])
			case r.code != 0 && !strings.Contains(r.stderr.String(), "kept changing"):
				t.Errorf("round %d: add %s exited %d:\n%s", round, cmds[i], r.code, &r.stderr)
			case r.code != 0:
				failed++
			}
		}
		data, _ := os.ReadFile(h.configPath())
		if c := len(settingRE.FindAll(data, -1)); c != 50 {
			t.Errorf("round %d: %d of 50 settings left", round, c)
		}
		if m, _ := filepath.Glob(filepath.Join(h.home, ".config.yaml.tmp-*")); len(m) > 0 {
			t.Errorf("round %d: temp files left: %q", round, m)
		}
		redone += int(appends.Load())
		if t.Failed() {
			t.FailNow()
		}
	}
	t.Logf("concurrent add: %d rounds × %d adds with a non-locking writer appending (%d appends in all): every add reported done was in the config, %d gave up saying the file kept changing (%.2f s per round)",
		rounds, n, redone, failed, time.Since(start).Seconds()/float64(rounds))
}

// TestStressAddRacingDelete: add and delete of one hook at once. Whatever
// the order, the end state is what the exits said: never a deleted hook
// brought back, never an added one lost.
func TestStressAddRacingDelete(t *testing.T) {
	rounds := stressSize(100, 15)
	h := newStressHome(t, buildHermes(t))
	cmd := h.writeHooks("race", 1)[0]
	other := h.writeHooks("other", 1)[0]
	var outcomes [3]int // add then delete; delete (none) then add; other
	for round := range rounds {
		h.writeConfig("pre_tool_call", 0, other)
		rs := h.startAll([][]string{addArgs(cmd), {"hooks", "delete", cmd}})
		add, del := rs[0], rs[1]
		got := h.listed(fmt.Sprintf("round %d", round))
		k := hookKey{"pre_tool_call", cmd}
		if add.code != 0 {
			t.Fatalf("round %d: add exited %d:\n%s", round, add.code, &add.stderr)
		}
		switch {
		case del.code == 0 && got[k] == 0:
			outcomes[0]++
		case del.code == 1 && strings.Contains(del.stderr.String(), "No shell hook") && got[k] == 1:
			outcomes[1]++
		default:
			t.Fatalf("round %d: delete exited %d (%s) and the config has the hook %d time(s)", round, del.code, &del.stderr, got[k])
		}
		if got[hookKey{"pre_tool_call", other}] != 1 {
			t.Fatalf("round %d: an unrelated hook was lost", round)
		}
	}
	t.Logf("add racing delete: %d rounds: %d add-then-delete (hook gone), %d delete-then-add (hook there); never otherwise", rounds, outcomes[0], outcomes[1])
}

// TestStressInPlaceWriter: a program saving the config in place (truncate,
// write half, pause, write the rest) races add. No version the adds write
// may hold fewer than the 200 settings (SPEC §22: a read is stable before it
// is edited).
func TestStressInPlaceWriter(t *testing.T) {
	adds := stressSize(200, 30)
	const settings = 200
	h := newStressHome(t, buildHermes(t))
	cmds := h.writeHooks("inplace", adds)
	full := []byte(settingsLines(settings))
	if err := os.WriteFile(h.configPath(), full, 0o600); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var violations []string
	check := func(who string, data []byte) {
		if !bytes.Contains(data, []byte("hooks:")) {
			return // the writer's own version (or its half-written one)
		}
		if c := len(settingRE.FindAll(data, -1)); c < settings {
			mu.Lock()
			violations = append(violations, fmt.Sprintf("%s saw a version written by add with %d of %d settings", who, c, settings))
			mu.Unlock()
		}
	}
	stop := make(chan struct{})
	var rewrites atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		rng := rand.New(rand.NewPCG(1, 2))
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Duration(rng.IntN(15)) * time.Millisecond):
			}
			cur, _ := os.ReadFile(h.configPath())
			check("the in-place writer", cur)
			f, err := os.OpenFile(h.configPath(), os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				continue
			}
			half := len(full) / 2
			f.Write(full[:half])
			time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond) // a slow writer, mid-save
			f.Write(full[half:])
			f.Close()
			rewrites.Add(1)
		}
	}()
	var ok, gaveUp int
	var why string
	for _, c := range cmds {
		r := h.run(addArgs(c)...)
		switch {
		case r.code == 0:
			ok++
		case strings.Contains(r.stderr.String(), "kept changing") || strings.Contains(r.stderr.String(), "cannot be read") || strings.Contains(r.stderr.String(), "syntax"):
			gaveUp++
			why = strings.TrimSpace(r.stderr.String())
		default:
			t.Errorf("add exited %d:\n%s", r.code, &r.stderr)
		}
		cur, _ := os.ReadFile(h.configPath())
		check("the test after an add", cur)
	}
	close(stop)
	wg.Wait()
	for _, v := range violations {
		t.Error(v)
	}
	t.Logf("in-place writer: %d adds against %d in-place rewrites (truncate, half, pause up to 3 ms, rest): %d done, %d gave up (last: %q), %d versions with lost settings",
		adds, rewrites.Load(), ok, gaveUp, why, len(violations))
}
