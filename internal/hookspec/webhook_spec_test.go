package hookspec

import (
	"fmt"
	"strings"
	"testing"
)

func webhookString(w Webhook) string {
	m := "-"
	if w.Matcher != nil {
		m = w.Matcher.Source
	}
	return fmt.Sprintf("[%d] %s %s ev=%s m=%s t=%d secret=%q env=%s signed=%t @%d",
		w.Index, w.Name, w.URL, strings.Join(w.Events, ","), m, w.Timeout, w.Secret, w.SecretEnv, w.Signed, w.Line)
}

func TestParseWebhooks(t *testing.T) {
	tests := []struct {
		name     string
		outbound string // the value of hooks.outbound, starting on line 3
		webhooks []string
		diags    []string
	}{
		{name: "absent entries", outbound: "\n"},
		{name: "empty list", outbound: " []\n"},
		{name: "a full entry", outbound: `
    - url: https://example.test/hermes
      name: audit
      events: [post_tool_call, on_session_end]
      matcher: terminal|patch
      timeout: 30
      secret_env: HOOK_SECRET
`, webhooks: []string{`[0] audit https://example.test/hermes ev=post_tool_call,on_session_end m=terminal|patch t=30 secret="s3" env=HOOK_SECRET signed=true @3`}},
		{name: "defaults: name is the url, timeout 10, unsigned", outbound: `
    - url: https://a.test
      events: [on_session_start]
`, webhooks: []string{`[0] https://a.test https://a.test ev=on_session_start m=- t=10 secret="" env= signed=false @3`}},
		{name: "literal secret", outbound: "\n    - {url: 'https://a.test', events: [pre_llm_call], secret: lit}\n",
			webhooks: []string{`[0] https://a.test https://a.test ev=pre_llm_call m=- t=10 secret="lit" env= signed=true @3`}},
		{name: "secret_env wins even when unset", outbound: "\n    - {url: 'https://a.test', events: [pre_llm_call], secret: lit, secret_env: UNSET_VAR}\n",
			webhooks: []string{`[0] https://a.test https://a.test ev=pre_llm_call m=- t=10 secret="" env=UNSET_VAR signed=false @3`},
			diags:    []string{"hooks.outbound[0].secret_env@3: environment variable UNSET_VAR is not set or empty; deliveries will be unsigned"}},
		{name: "not a list", outbound: " {url: x}\n",
			diags: []string{"hooks.outbound@2: outbound must be a list of webhooks"}},
		{name: "entry not a mapping", outbound: "\n    - https://a.test\n",
			diags: []string{`hooks.outbound[0]@3: a webhook must be a mapping with url and events, got "https://a.test"`}},
		{name: "url missing", outbound: "\n    - events: [pre_llm_call]\n",
			diags: []string{"hooks.outbound[0]@3: webhook has no url; skipped"}},
		{name: "url not http", outbound: "\n    - {url: 'ftp://a.test', events: [pre_llm_call]}\n    - {url: 'a.test/x', events: [pre_llm_call]}\n    - {url: 5, events: [pre_llm_call]}\n",
			diags: []string{`hooks.outbound[0].url@3: url "ftp://a.test" is not an http:// or https:// address; webhook skipped`,
				`hooks.outbound[1].url@4: url "a.test/x" is not an http`, "hooks.outbound[2].url@5: got 5"}},
		{name: "plain http warns but is kept", outbound: "\n    - url: http://a.test\n      events: [pre_llm_call]\n",
			webhooks: []string{`[0] http://a.test http://a.test ev=pre_llm_call m=- t=10 secret="" env= signed=false @3`},
			diags:    []string{`hooks.outbound[0].url@3: url "http://a.test" is plain http`}},
		{name: "events missing", outbound: "\n    - url: https://a.test\n",
			diags: []string{"hooks.outbound[0]@3: webhook has no events; skipped"}},
		{name: "events not a list", outbound: "\n    - url: https://a.test\n      events: post_tool_call\n",
			diags: []string{`hooks.outbound[0].events@4: events must be a list of event names, got "post_tool_call"`}},
		{name: "unknown events dropped", outbound: `
    - url: https://a.test
      events: [post_tol_call, 3, agent:start, on_session_end, on_session_end]
`, webhooks: []string{`[0] https://a.test https://a.test ev=on_session_end m=- t=10 secret="" env= signed=false @3`},
			diags: []string{`hooks.outbound[0].events[0]@4: unknown hook event "post_tol_call" — did you mean "post_tool_call"? (dropped from this webhook)`,
				"hooks.outbound[0].events[1]@4: an event name must be a string, got 3; dropped",
				`hooks.outbound[0].events[2]@4: "agent:start" is a gateway event: webhooks are delivered for shell events only; dropped`}},
		{name: "no valid event left", outbound: "\n    - url: https://a.test\n      events: [nope_zzz]\n",
			diags: []string{`hooks.outbound[0].events[0]@4: unknown hook event "nope_zzz"`,
				"hooks.outbound[0].events@4: webhook has no valid event left; skipped"}},
		{name: "matcher without a tool event", outbound: "\n    - url: https://a.test\n      events: [on_session_end]\n      matcher: terminal\n",
			webhooks: []string{`[0] https://a.test https://a.test ev=on_session_end m=- t=10 secret="" env= signed=false @3`},
			diags:    []string{"hooks.outbound[0].matcher@5: matcher only applies to tool events (pre_tool_call, post_tool_call) and this webhook has none; ignored"}},
		{name: "matcher as for shell hooks", outbound: "\n    - url: https://a.test\n      events: [pre_tool_call]\n      matcher: '(?<x>a)'\n",
			webhooks: []string{`[0] https://a.test https://a.test ev=pre_tool_call m=(?<x>a) t=10 secret="" env= signed=false @3`},
			diags:    []string{"hooks.outbound[0].matcher@5: (unknown extension ?<x at position 1)"}},
		{name: "timeout clamped to 1..60", outbound: `
    - {url: 'https://a.test', events: [pre_llm_call], timeout: 0}
    - {url: 'https://b.test', events: [pre_llm_call], timeout: 61}
    - {url: 'https://c.test', events: [pre_llm_call], timeout: "x"}
    - {url: 'https://d.test', events: [pre_llm_call], timeout: 2.5}
`, webhooks: []string{`[0] https://a.test https://a.test ev=pre_llm_call m=- t=1 secret="" env= signed=false @3`,
			`[1] https://b.test https://b.test ev=pre_llm_call m=- t=60 secret="" env= signed=false @4`,
			`[2] https://c.test https://c.test ev=pre_llm_call m=- t=10 secret="" env= signed=false @5`,
			`[3] https://d.test https://d.test ev=pre_llm_call m=- t=2 secret="" env= signed=false @6`},
			diags: []string{"hooks.outbound[0].timeout@3: timeout 0 is below 1 second; using 1",
				"hooks.outbound[1].timeout@4: above the maximum of 60 seconds for a webhook; using 60",
				`hooks.outbound[2].timeout@5: got "x"; using the default 10`}},
		{name: "secret of the wrong type is not echoed", outbound: "\n    - {url: 'https://a.test', events: [pre_llm_call], secret: [hunter2]}\n",
			webhooks: []string{`[0] https://a.test https://a.test ev=pre_llm_call m=- t=10 secret="" env= signed=false @3`},
			diags:    []string{"hooks.outbound[0].secret@3: secret must be a string; deliveries will be unsigned"}},
		{name: "index counts skipped entries", outbound: "\n    - bad\n    - {url: 'https://a.test', events: [pre_llm_call]}\n",
			webhooks: []string{`[1] https://a.test https://a.test ev=pre_llm_call m=- t=10 secret="" env= signed=false @4`},
			diags:    []string{"hooks.outbound[0]@3: a webhook must be a mapping"}},
	}
	env := map[string]string{"HOOK_SECRET": "s3"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, p := parseYAML(t, "hooks:\n  outbound:"+tt.outbound, env)
			if len(p.Specs) != 0 {
				t.Errorf("outbound entries became shell hooks: %v", p.Specs)
			}
			var got []string
			for _, w := range p.Webhooks {
				got = append(got, webhookString(w))
				if w.File != f.Path {
					t.Errorf("file %q, want %q", w.File, f.Path)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.webhooks, "\n") {
				t.Errorf("webhooks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.webhooks, "\n"))
			}
			checkDiagnostics(t, f.Path, p.Diagnostics, tt.diags)
			for _, d := range p.Diagnostics {
				if strings.Contains(d.Message, "hunter2") {
					t.Errorf("a diagnostic reveals the secret: %s", d)
				}
			}
		})
	}
}
