package hooks

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/hermes-hooks/hermes/internal/hookspec"
	"github.com/hermes-hooks/hermes/internal/shell"
)

func TestSelection(t *testing.T) {
	hs := []ShellHook{{Spec: hookspec.Spec{Command: "a"}}, {Spec: hookspec.Spec{Command: "b"}}, {Spec: hookspec.Spec{Command: "c"}}}
	tests := []struct {
		name       string
		sel        Selection
		reasons    []string // per hook of hs
		kept       []string
		unmatched  []string
		wouldEmpty bool
	}{
		{name: "zero selects all", reasons: []string{"", "", ""}, kept: []string{"a", "b", "c"}, wouldEmpty: true},
		{name: "only", sel: Selection{Only: []string{"b"}},
			reasons: []string{SkipNotOnly, "", SkipNotOnly}, kept: []string{"b"}},
		{name: "skip", sel: Selection{Skip: []string{"a", "c"}},
			reasons: []string{SkipSelected, "", SkipSelected}, kept: []string{"b"}},
		{name: "skip wins over only", sel: Selection{Only: []string{"a", "b"}, Skip: []string{"a"}},
			reasons: []string{SkipSelected, "", SkipNotOnly}, kept: []string{"b"}},
		{name: "unknown commands named once, in order", sel: Selection{Only: []string{"z", "a"}, Skip: []string{"y", "z"}},
			reasons: []string{"", SkipNotOnly, SkipNotOnly}, kept: []string{"a"}, unmatched: []string{"z", "y"}},
		{name: "exact strings only", sel: Selection{Only: []string{" a"}},
			reasons: []string{SkipNotOnly, SkipNotOnly, SkipNotOnly}, unmatched: []string{" a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var reasons, kept []string
			for _, h := range hs {
				reasons = append(reasons, tt.sel.SkipReason(h))
			}
			for _, h := range tt.sel.Filter(hs) {
				kept = append(kept, h.Command)
			}
			if !slices.Equal(reasons, tt.reasons) {
				t.Errorf("reasons = %q, want %q", reasons, tt.reasons)
			}
			if !slices.Equal(kept, tt.kept) {
				t.Errorf("kept = %q, want %q", kept, tt.kept)
			}
			if got := tt.sel.Unmatched(specsOf(hs)); !slices.Equal(got, tt.unmatched) {
				t.Errorf("unmatched = %q, want %q", got, tt.unmatched)
			}
			if tt.sel.Empty() != tt.wouldEmpty {
				t.Errorf("Empty() = %v", !tt.wouldEmpty)
			}
		})
	}
}

// A selection goes through the same loop as consent and matchers: a hook
// left out is listed with its reason and neither asked about nor run.
func TestDispatchSelection(t *testing.T) {
	runner := &fakeRunner{}
	e := testEngine(t, dispatchConfig, runner)
	c := &consentLog{answers: map[string]bool{"~/hook.sh approved": true, "~/hook.sh yes": true, "~/hook.sh no": true}}
	d, err := e.DispatchShellWith(context.Background(), "pre_tool_call", testObj(t, `{"tool_name": "terminal"}`),
		DispatchOptions{Consent: c.consent, Selection: Selection{
			Only: []string{"~/hook.sh yes", "~/hook.sh no", "~/hook.sh other-tool"}, Skip: []string{"~/hook.sh no"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"~/hook.sh approved: " + SkipNotOnly, "~/hook.sh yes: ", "~/hook.sh no: " + SkipSelected,
		"~/hook.sh other-tool: " + SkipMatcher}
	if got := skipReasons(d); !slices.Equal(got, want) {
		t.Errorf("runs = %q, want %q", got, want)
	}
	if got := runner.ran(); !slices.Equal(got, []string{"yes"}) {
		t.Errorf("ran %q, want only yes", got)
	}
	if !slices.Equal(c.asked, []string{"~/hook.sh yes"}) {
		t.Errorf("consent asked about %q, want only the selected hook", c.asked)
	}
}

// A policy test runs every hook the matcher lets through, approved or not,
// without asking, recording an approval or writing the audit log.
func TestDispatchPolicy(t *testing.T) {
	runner := &fakeRunner{answers: map[string]shell.Result{"no": exited(0, `{"action": "block", "message": "no"}`, "")}}
	e := testEngine(t, dispatchConfig, runner)
	approveCommands(t, e, "~/hook.sh approved")
	before, err := os.ReadFile(e.Store.Path)
	if err != nil {
		t.Fatal(err)
	}
	asked := func(h ShellHook) (Grant, error) {
		t.Errorf("consent asked about %s in a policy test", h.Command)
		return Grant{}, nil
	}
	d, err := e.DispatchShellWith(context.Background(), "pre_tool_call", testObj(t, `{"tool_name": "terminal"}`),
		DispatchOptions{Policy: true, Consent: asked})
	if err != nil {
		t.Fatal(err)
	}
	if got := runner.ran(); !slices.Equal(got, []string{"approved", "yes", "no"}) {
		t.Errorf("ran %q, want every hook the matcher lets through", got)
	}
	if !d.Blocked() {
		t.Errorf("outcome = %s, want the unapproved hook's block", d.Outcome.Object())
	}
	after, err := os.ReadFile(e.Store.Path)
	if err != nil {
		t.Fatal(err)
	}
	if string(before) != string(after) {
		t.Errorf("the allowlist changed:\n%s\n→\n%s", before, after)
	}
	if lines := auditLines(t, e); lines != nil {
		t.Errorf("a policy test wrote the audit log: %q", lines)
	}
}

func specsOf(hs []ShellHook) []hookspec.Spec {
	specs := make([]hookspec.Spec, len(hs))
	for i, h := range hs {
		specs[i] = h.Spec
	}
	return specs
}
