package hooks

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/guard"
	"github.com/hermes-hooks/hermes/internal/trust"
)

// InspectAsGuard plans protect through the invocation's caches (SPEC §29
// item 2); the verdict must be the one the guard's own probes, asked now
// and from no cache, give: for hooks that share a script, hooks of a
// modified, an unapproved, a world-writable and an interpreted script, and
// an already protected one — each asked after every other hook warmed the
// caches.
func TestInspectAsGuardDecidesAsNow(t *testing.T) {
	h := newTrustHome(t, "", map[string]string{"ok.sh": "#!/bin/sh\n", "edited.sh": "#!/bin/sh\n", "new.sh": "#!/usr/bin/env sh\n", "loose.sh": "#!/bin/sh\n"})
	h.writeConfig(strings.ReplaceAll(`hooks:
  pre_tool_call:
    - command: "~/ok.sh one"
    - command: "~/ok.sh two"
    - command: "~/edited.sh"
    - command: "~/new.sh"
    - command: "~/loose.sh"
    - command: "sh HOME/ok.sh three"
    - command: "/usr/bin/env sh HOME/ok.sh four"
    - command: "/opt/hermes/bin/hermes-guard --event pre_tool_call -- HOME/ok.sh five"
  post_tool_call:
    - command: "~/ok.sh one"
`, "HOME", h.dir))
	h.approveAll()
	s, list := h.load()
	list.Revoke("~/new.sh")
	h.write("edited.sh", "#!/bin/sh\n# edited\n", approvedMtime)
	if err := os.Chmod(h.path("loose.sh"), 0o777); err != nil {
		t.Fatal(err)
	}
	s, _ = h.load()
	for round := range 2 {
		for _, spec := range s.Parsed.Specs {
			got := s.InspectAsGuard(spec, list)
			want := s.inspectWith(spec, list, trust.Now(), guard.Settings, nil)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("round %d, %s %s: planned\n %+v\nthe guard now\n %+v", round, spec.Event, spec.Command, got.Verdict, want.Verdict)
			}
			shown := s.Inspect(spec, list)
			uncached := s.inspectWith(spec, list, s.cachedProbes(), s.TrustSettings(), nil)
			if !reflect.DeepEqual(shown, uncached) {
				t.Errorf("round %d, %s %s: shown\n %+v\nwithout the memo\n %+v", round, spec.Event, spec.Command, shown.Verdict, uncached.Verdict)
			}
		}
	}
	// Each script's lstat is asked once, by one resolver the caches share
	// (the check of its owner, the code finder, presence, CheckExecutable).
	if s.SafePaths().Resolver != &s.files || s.codeMemo.Files != &s.files {
		t.Errorf("the path checker and the code memo do not share the Setup's resolver")
	}
	// The cases are what they say they are.
	for i, allowed := range []bool{true, true, false, false, false, true, true, true, true} {
		if got := s.InspectAsGuard(s.Parsed.Specs[i], list); got.Allowed() != allowed {
			t.Errorf("%s: allowed %v (%s), want %v", s.Parsed.Specs[i].Command, got.Allowed(), got.Reason(), allowed)
		}
	}
	if got := s.InspectAsGuard(s.Parsed.Specs[4], list); got.Unsafe == nil {
		t.Errorf("a world-writable script is not unsafe: %+v", got.Verdict)
	}
}
