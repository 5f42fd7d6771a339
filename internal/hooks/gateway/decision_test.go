package gateway

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func ok(name, result string) Result {
	return Result{Name: name, Status: StatusOK, Result: json.RawMessage(result)}
}

func TestDecide(t *testing.T) {
	str := func(p *string) string {
		if p == nil {
			return "null"
		}
		return *p
	}
	for _, c := range []struct {
		name    string
		results []Result
		want    string // decision message command by
		warns   int
	}{
		{"nothing decided", []Result{ok("a", "null"), ok("b", `{"decision":"allow"}`)}, "allow null null -1", 0},
		{"no hooks", nil, "allow null null -1", 0},
		{"deny default message", []Result{ok("a", `{"decision":"deny"}`)}, "deny Command `/status` was blocked by a hook. null 0", 0},
		{"deny blank message", []Result{ok("a", `{"decision":"deny","message":"  "}`)}, "deny Command `/status` was blocked by a hook. null 0", 0},
		{"deny own message", []Result{ok("a", `{"decision":"deny","message":"not here"}`)}, "deny not here null 0", 0},
		{"handled", []Result{ok("a", `{"decision":"handled","message":"done for you"}`)}, "handled done for you null 0", 0},
		{"handled silent", []Result{ok("a", `{"decision":"handled"}`)}, "handled null null 0", 0},
		{"rewrite", []Result{ok("a", `{"decision":"rewrite","command_name":"model","raw_args":"gpt-5 --fast"}`)}, "rewrite null /model gpt-5 --fast 0", 0},
		{"rewrite slash no args", []Result{ok("a", `{"decision":"rewrite","command_name":"/help"}`)}, "rewrite null /help 0", 0},
		{"rewrite without target passes", []Result{ok("a", `{"decision":"rewrite"}`), ok("b", `{"decision":"deny"}`)}, "deny Command `/status` was blocked by a hook. null 1", 1},
		{"allow passes on", []Result{ok("a", `{"decision":"allow"}`), ok("b", `{"decision":"handled"}`)}, "handled null null 1", 0},
		{"unknown passes on", []Result{ok("a", `{"decision":"Deny"}`), ok("b", `{"decision":"block"}`)}, "allow null null -1", 2},
		{"first wins", []Result{ok("a", `{"decision":"handled"}`), ok("b", `{"decision":"deny"}`)}, "handled null null 0", 0},
		{"error passes", []Result{{Name: "a", Status: StatusError, Error: "boom", Result: json.RawMessage(`{"decision":"deny"}`)}}, "allow null null -1", 0},
		{"repr passes", []Result{{Name: "a", Status: StatusOK, Repr: true, Result: json.RawMessage(`"{'decision': 'deny'}"`)}}, "allow null null -1", 0},
		{"not a dict", []Result{ok("a", `"deny"`), ok("b", `[{"decision":"deny"}]`)}, "allow null null -1", 0},
	} {
		d := Decide("command:status", nil, c.results)
		got := strings.Join([]string{d.Decision, str(d.Message), str(d.Command)}, " ") + " " + itoa(d.By)
		if got != c.want || len(d.Warnings) != c.warns {
			t.Errorf("%s: %s (warnings %q), want %s (%d warnings)", c.name, got, d.Warnings, c.want, c.warns)
		}
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

func TestIsCommandEvent(t *testing.T) {
	for ev, want := range map[string]bool{"command:status": true, "command:*": false, "command:": false, "agent:start": false, "commands:x": false} {
		if IsCommandEvent(ev) != want {
			t.Errorf("IsCommandEvent(%q) = %v", ev, !want)
		}
	}
}

// The gateway runs a slash command's exact subscribers, then command:*,
// and stops at the first decision: later handlers (Python in the same
// runner, or an executable) never run.
func TestFireStopsAtTheDecision(t *testing.T) {
	r := newRunner(t)
	root := t.TempDir()
	log := filepath.Join(t.TempDir(), "ran")
	py := func(name, ret string) string {
		return "def handle(e, c):\n    open(" + quote(log) + ", 'a').write('" + name + "\\n')\n    return " + ret + "\n"
	}
	writeFolder(t, root, "1-wild", folder{yaml: "events: ['command:*']\n", py: py("1-wild", `{"decision": "handled"}`)})
	writeFolder(t, root, "2-exact-allow", folder{yaml: "events: ['command:status']\n", py: py("2-exact-allow", `{"decision": "allow"}`)})
	writeFolder(t, root, "3-exact-deny", folder{yaml: "events: ['command:status']\n", py: py("3-exact-deny", `{"decision": "deny", "message": "no status"}`)})
	writeFolder(t, root, "4-exact-py", folder{yaml: "events: ['command:status']\n", py: py("4-exact-py", "None")})
	writeFolder(t, root, "5-exact-exec", folder{yaml: "events: ['command:status']\n",
		exe: "#!/bin/sh\necho 5-exact-exec >> '" + log + "'\n"})
	hooks := Match(Discover(root, known), "command:status")
	if got := strings.Join(names(hooks), " "); got != "2-exact-allow 3-exact-deny 4-exact-py 5-exact-exec 1-wild" {
		t.Fatalf("order %s: exact subscribers first, then command:*", got)
	}
	results, err := r.Fire(context.Background(), "command:status", nil, hooks)
	if err != nil {
		t.Fatal(err)
	}
	ran, _ := os.ReadFile(log)
	if string(ran) != "2-exact-allow\n3-exact-deny\n" {
		t.Errorf("ran %q, want the handlers up to the deny only", ran)
	}
	for _, res := range results[2:] {
		if !res.NotRun || !res.AfterDecision || !strings.Contains(res.Error, "3-exact-deny decided first (deny)") {
			t.Errorf("%s: %+v, want not run after the decision", res.Name, res)
		}
	}
	d := Decide("command:status", hooks, results)
	if d.Decision != DecisionDeny || *d.Message != "no status" || d.By != 1 {
		t.Errorf("decision %+v", d)
	}

	// Any other event runs every handler, decisions or not.
	results, err = r.Fire(context.Background(), "agent:start", nil, hooks)
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range results {
		if res.NotRun {
			t.Errorf("%s not run outside a command event: %s", res.Name, res.Error)
		}
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
