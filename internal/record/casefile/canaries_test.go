package casefile

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/catalog/tools"
	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// The starter set: at least 40 calls (SPEC §26), the ones the spec names
// among them, each with the agent's current tool name and arguments its
// schema has (a canary of a tool the agent never sends tests nothing).
func TestCanaryStarterSet(t *testing.T) {
	cs := Canaries()
	if len(cs) < 40 {
		t.Fatalf("%d canaries, want at least 40", len(cs))
	}
	names := map[string]bool{}
	commands := map[string]bool{}
	for _, c := range cs {
		if names[c.Name] {
			t.Errorf("two canaries are called %q", c.Name)
		}
		names[c.Name] = true
		if !c.Canary || c.Event != "pre_tool_call" || c.Expect != (Expect{}) {
			t.Errorf("%s: canary %t, event %s, expect %+v", c.Name, c.Canary, c.Event, c.Expect)
		}
		p, err := pyjson.DecodeObject(c.Payload)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		name := p.Str("tool_name")
		tool, ok := tools.Lookup(name)
		if !ok || tool.Status != "current" {
			t.Errorf("%s: tool %q is not one of the agent's current tools (status %q)", c.Name, name, tool.Status)
			continue
		}
		args := p.Value("args").(*pyjson.Object)
		for _, k := range args.Keys() {
			if _, ok := tool.Arg(k); !ok {
				t.Errorf("%s: %s takes no argument %q", c.Name, name, k)
			}
		}
		for _, a := range tool.Args {
			if a.Required && !args.Has(a.Name) {
				t.Errorf("%s: %s needs %q", c.Name, name, a.Name)
			}
		}
		if name == "terminal" {
			commands[args.Str("command")] = true
		}
	}
	for _, want := range []string{"ls -la", "git status", "git diff", "mkdir -p /tmp/x 2>/dev/null", "rm -rf ./build", "npm test", "pytest -q", "go build ./..."} {
		if !commands[want] {
			t.Errorf("the starter set lacks terminal %q", want)
		}
	}
	for _, tool := range []string{"read_file", "write_file", "patch", "search_files", "web_extract"} {
		found := false
		for n := range names {
			found = found || strings.HasPrefix(n, "canary: "+tool+":")
		}
		if !found {
			t.Errorf("the starter set lacks a %s call", tool)
		}
	}
	var out bytes.Buffer
	if err := Write(&out, CanaryHeader(), cs); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "# "+CanaryMadeBy) || strings.Count(out.String(), "  canary: true\n") != len(cs) {
		t.Errorf("the file does not start with its comment or lacks a canary mark:\n%.400s", out.String())
	}
}
