package cli

import (
	"slices"
	"strings"
	"testing"
)

func TestNewCmdTestCasesArgs(t *testing.T) {
	tests := []struct {
		args    []string
		wantErr string
		check   func(*testOptions) bool
	}{
		{args: []string{"--cases", "c.yaml", "--junit", "out.xml", "--watch", "--json"},
			check: func(o *testOptions) bool {
				return o.Cases == "c.yaml" && o.JUnit == "out.xml" && o.Watch && o.Output && o.Event == ""
			}},
		{args: []string{"pre_tool_call", "--only", "a, b", "--only", "c", "--skip", "d"},
			check: func(o *testOptions) bool {
				// A comma stays inside one command.
				return o.Event == "pre_tool_call" && slices.Equal(o.Only, []string{"a, b", "c"}) && slices.Equal(o.Skip, []string{"d"})
			}},
		{args: []string{"pre_tool_call", "--watch"}, check: func(o *testOptions) bool { return o.Watch && o.Cases == "" }},
		{args: []string{"--cases", "c.yaml", "pre_tool_call"}, wantErr: "give no event"},
		{args: []string{"--cases", "c.yaml", "-"}, wantErr: "give no event"},
		{args: []string{"--cases", "c.yaml", "--dry-run"}, wantErr: "--dry-run cannot be used with --cases"},
		{args: []string{"--cases", "c.yaml", "--payload-file", "p.json"}, wantErr: "--payload-file cannot be used with --cases"},
		{args: []string{"--cases", " "}, wantErr: "--cases is empty"},
		{args: []string{"pre_tool_call", "--junit", "x.xml"}, wantErr: "give --cases FILE too"},
		{args: []string{"agent:start", "--skip", "x"}, wantErr: `"agent:start" is a gateway event`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			got, err := parseArgs(t, newCmdTest, tt.args...)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || got != nil {
					t.Fatalf("err = %v (runF called: %v), want one containing %q", err, got != nil, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(got) {
				t.Errorf("options = %+v", *got)
			}
		})
	}
}

func TestNewCmdRunEventSelectArgs(t *testing.T) {
	got, err := parseArgs(t, newCmdRunEvent, "pre_tool_call", "--only", "a", "--skip", "b", "--skip", "c")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Only, []string{"a"}) || !slices.Equal(got.Skip, []string{"b", "c"}) {
		t.Errorf("options = %+v", *got)
	}
	if _, err := parseArgs(t, newCmdRunEvent, "session:start", "--only", "a"); err == nil || !strings.Contains(err.Error(), "gateway event") {
		t.Errorf("gateway event with --only: %v", err)
	}
}

// A failed case exits 1 after the report; a case file with problems exits
// 2 and runs nothing (the fake runner sees no request).
func TestTestCasesExitCodes(t *testing.T) {
	h := newHookHarness(t, testCfg, false)
	h.runner.result.Stdout = `{"action": "block", "message": "refusing"}`
	passing := h.write(t, "cases.yaml", "- {name: blocked, event: pre_tool_call, payload: {tool_name: terminal}, expect: {action: block, message_contains: refusing}}\n", 0o644)
	failing := h.write(t, "failing.yaml", "- {name: allowed, event: pre_tool_call, payload: {tool_name: terminal}, expect: {action: allow}}\n", 0o644)
	bad := h.write(t, "bad.yaml", "- {name: x, event: pre_tool_call, expect: {action: allow, colour: red}}\n", 0o644)
	if code := h.run("hooks", "test", "--cases", passing); code != 0 {
		t.Fatalf("passing case: exit %d; stdout %s stderr %s", code, h.out, h.err)
	}
	if code := h.run("hooks", "test", "--cases", failing); code != 1 {
		t.Fatalf("failing case: exit %d; stdout %s", code, h.out)
	}
	if !strings.Contains(h.out.String(), `action: expected "allow", got "block"`) {
		t.Errorf("the failure does not show expected vs got:\n%s", h.out)
	}
	ran := len(h.runner.requests)
	if code := h.run("hooks", "test", "--cases", bad); code != 2 {
		t.Fatalf("bad case file: exit %d", code)
	}
	if !strings.Contains(h.err.String(), "bad.yaml:1: cases[0].expect: unknown key \"colour\"") {
		t.Errorf("stderr:\n%s", h.err)
	}
	if len(h.runner.requests) != ran {
		t.Error("a hook ran for a case file with a problem")
	}
}
