package claude

import (
	"slices"
	"testing"

	"github.com/hermes-hooks/hermes/internal/catalog/tools"
)

// TestUnseenBy: per hook, the Hermes tools that can do what its rule or
// matcher guards but never fire it (SPEC §24 item 3).
func TestUnseenBy(t *testing.T) {
	for _, tc := range []struct {
		matcher, rule string
		want          string // "" when nothing is unseen
	}{
		{"", "Edit(*.env)", "Edit(*.env) never sees terminal, execute_code (they can change files too)"},
		{"Edit|Write", "Edit(*.env)", "Edit(*.env) never sees terminal, execute_code (they can change files too)"},
		// Write is not Edit: patch (replace mode) edits files too, but a
		// Write rule sees every patch call, as the guard matches it.
		{"", "Write(*.env)", "Write(*.env) never sees terminal, execute_code (they can change files too)"},
		// A matcher narrower than the rule: the hook never fires for patch.
		{"Write", "Edit(*.env)", "Edit(*.env) never sees terminal, execute_code, patch (they can change files too)"},
		{"", "Bash(rm *)", "Bash(rm *) never sees execute_code, process_manage, cronjob_manage (they can run commands too)"},
		{"Bash", "", "matcher Bash never sees execute_code, process_manage, cronjob_manage (they can run commands too)"},
		{"Read", "Read(*.env)", "Read(*.env) never sees terminal, execute_code, search_files (they can read files too)"},
		{"", "Read(*.env)", "Read(*.env) never sees terminal, execute_code (they can read files too)"},
		{"Read|Write", "", "matcher Read|Write never sees terminal, execute_code (they can change files and read files too); patch (it can change files too); search_files (it can read files too)"},
		{"", "WebFetch(domain:example.com)", "WebFetch(domain:example.com) never sees terminal, execute_code, browser_navigate (they can fetch URLs too)"},
		// Nothing guarded: every tool, or tools of none of the abilities.
		{"", "", ""},
		{".*", "", ""},
		{"Glob|TodoWrite", "", ""},
		{"mcp__github__.*", "", ""},
		{"", "Bash", "Bash never sees execute_code, process_manage, cronjob_manage (they can run commands too)"},
	} {
		m, err := TranslateMatcher(tc.matcher)
		if err != nil {
			t.Fatalf("%q: %v", tc.matcher, err)
		}
		var rule *Rule
		if tc.rule != "" {
			r, err := ParseRule(tc.rule)
			if err != nil {
				t.Fatal(err)
			}
			rule = &r
		}
		got := ""
		if u := UnseenBy(tc.matcher, m, rule); u != nil {
			got = u.String()
		}
		if got != tc.want {
			t.Errorf("matcher %q rule %q:\n got  %q\n want %q", tc.matcher, tc.rule, got, tc.want)
		}
	}
}

// TestUnseenToolsSeeNothingTheRuleMatches: no tool is reported unseen
// whose call the rule matches — the report and the guard read the same
// tables.
func TestUnseenToolsSeeNothingTheRuleMatches(t *testing.T) {
	call := func(tool, args string) *Call {
		c, _, err := Input("pre_tool_call", wire("pre_tool_call", tool, args, ""))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	calls := map[string]string{
		"terminal": `{"command": "rm -rf x"}`, "write_file": `{"path": "/proj/.env"}`,
		"patch": `{"path": "/proj/.env", "old_string": "a", "new_string": "b"}`, "read_file": `{"path": "/proj/.env"}`,
		"search_files": `{"pattern": "x", "path": "/proj/.env"}`,
	}
	for _, text := range []string{"Bash(rm *)", "Edit(*.env)", "Write(*.env)", "Read(*.env)"} {
		r, _ := ParseRule(text)
		u := UnseenBy("", Matcher{}, &r)
		for tool, args := range calls {
			if r.Match(call(tool, args), "/proj", "/home/u") && slices.Contains(u.Tools(), tool) {
				t.Errorf("%s matches a %s call but reports it unseen", text, tool)
			}
		}
	}
}

// TestReachesAreHermesTools: every tool of the table is a current tool
// of the agent's catalogue, and every Claude tool that guards something is
// in the tool table.
func TestReachesAreHermesTools(t *testing.T) {
	for _, r := range Reaches {
		if tl, ok := tools.Lookup(r.Hermes); !ok || tl.Status != "current" {
			t.Errorf("%s is not a current tool of the agent's catalogue (%+v)", r.Hermes, tl)
		}
	}
	for n := range Guards {
		if len(HermesTools(n)) == 0 && Unmapped[n] == "" {
			t.Errorf("Claude tool %s guards something but is not in the tool table", n)
		}
	}
}
