package hookspec

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/config"
)

// parseYAML loads content as a config file and parses its hooks block the
// way a command does.
func parseYAML(t *testing.T, content string, env map[string]string) (*config.File, *Parsed) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := config.Load(path, config.MapEnv(env))
	if err != nil {
		t.Fatal(err)
	}
	return f, Parse(f, catalog.NewCatalogue(f.Settings.ExtraEvents), config.MapEnv(env))
}

// specString summarises a spec: event[index] "command" m=matcher t=timeout
// (with * when set by the entry) fc=fail_closed @line.
func specString(s Spec) string {
	m := "-"
	if s.Matcher != nil {
		m = s.Matcher.Source
		if s.Matcher.Literal() {
			m += "(literal)"
		}
	}
	set := ""
	if s.TimeoutSet {
		set = "*"
	}
	return fmt.Sprintf("%s[%d] %q m=%s t=%d%s fc=%t @%d", s.Event, s.Index, s.Command, m, s.Timeout, set, s.FailClosed, s.Line)
}

// checkDiagnostics compares diagnostics with wants of the form
// "path@line: message substring".
func checkDiagnostics(t *testing.T, file string, got []config.Diagnostic, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("got %d diagnostics, want %d:\n%s", len(got), len(want), diagList(got))
		return
	}
	for i, w := range want {
		level := "warning"
		if rest, ok := strings.CutPrefix(w, "info "); ok {
			level, w = config.LevelInfo, rest
		}
		where, msg, _ := strings.Cut(w, ": ")
		d := got[i]
		if d.Path+"@"+strconv.Itoa(d.Line) != where || !strings.Contains(d.Message, msg) || d.File != file || d.Level != level {
			t.Errorf("diagnostic %d = %s\nwant %s: …%s…", i, d, where, msg)
		}
	}
}

func diagList(ds []config.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "  %s@%d: %s\n", d.Path, d.Line, d.Message)
	}
	return b.String()
}

// TestParseRules has one case per rule of SPEC §2.1.
func TestParseRules(t *testing.T) {
	tests := []struct {
		name  string
		yaml  string
		specs []string
		diags []string
	}{
		{name: "hooks absent", yaml: "model: x\n"},
		{name: "hooks null", yaml: "hooks:\n"},
		{name: "hooks ~", yaml: "hooks: ~\n"},
		{name: "hooks a list", yaml: "a: 1\nhooks: [x]\n",
			diags: []string{"hooks@2: hooks must be a mapping"}},
		{name: "hooks a scalar", yaml: "hooks: yes\n",
			diags: []string{"hooks@1: got yes; no shell hooks are loaded"}},
		{name: "a valid entry with every field", yaml: `hooks:
  pre_tool_call:
    - matcher: "terminal|patch"
      command: "  ~/guard.sh --strict  "
      timeout: 10
      fail_closed: true
  post_tool_call:
    - command: python3 log.py
`, specs: []string{`pre_tool_call[0] "~/guard.sh --strict" m=terminal|patch t=10* fc=true @3`,
			`post_tool_call[0] "python3 log.py" m=- t=60 fc=false @8`}},
		{name: "events in file order, entries in list order", yaml: `hooks:
  on_session_end:
    - command: b
    - command: c
  pre_llm_call:
    - command: a
`, specs: []string{`on_session_end[0] "b" m=- t=60 fc=false @3`, `on_session_end[1] "c" m=- t=60 fc=false @4`,
			`pre_llm_call[0] "a" m=- t=60 fc=false @6`}},
		{name: "outbound and output_spill are not events", yaml: `hooks:
  outbound: []
  output_spill: {max: 3}
`},
		{name: "unknown event with a close name", yaml: "hooks:\n  pre_tol_call:\n    - command: x\n",
			diags: []string{`hooks.pre_tol_call@2: unknown hook event "pre_tol_call" — did you mean "pre_tool_call"?`}},
		{name: "unknown event with no close name", yaml: "hooks:\n  zzzz:\n",
			diags: []string{`hooks.zzzz@2: unknown hook event "zzzz"; see 'hermes hooks events' for the valid names`}},
		{name: "unknown event in capitals", yaml: "hooks:\n  PRE_TOOL_CALL:\n",
			diags: []string{`hooks.PRE_TOOL_CALL@2: unknown hook event "PRE_TOOL_CALL" — did you mean "pre_tool_call"?`}},
		{name: "unknown event with a trailing space", yaml: "hooks:\n  'pre_tool_call ':\n",
			diags: []string{`hooks.pre_tool_call @2: unknown hook event "pre_tool_call " — did you mean "pre_tool_call"?`}},
		{name: "gateway event in hooks", yaml: "hooks:\n  agent:start:\n    - command: x\n",
			diags: []string{`hooks.agent:start@2: "agent:start" is a gateway event`}},
		{name: "extra events are valid", yaml: "hooks_extra_events: [my_new_event]\nhooks:\n  my_new_event:\n    - command: x\n",
			specs: []string{`my_new_event[0] "x" m=- t=60 fc=false @4`}},
		{name: "transform_api_error_classification refused", yaml: "hooks:\n  transform_api_error_classification:\n    - command: x\n",
			diags: []string{"hooks.transform_api_error_classification@2: shell hooks cannot serve transform_api_error_classification"}},
		{name: "empty event value", yaml: "hooks:\n  pre_tool_call:\n  post_tool_call: []\n"},
		{name: "event value not a list", yaml: "hooks:\n  pre_tool_call:\n    command: x\n",
			diags: []string{"hooks.pre_tool_call@2: must be a list of hooks"}},
		{name: "event value a string", yaml: "hooks:\n  pre_tool_call: ./x.sh\n",
			diags: []string{`hooks.pre_tool_call@2: got "./x.sh"`}},
		{name: "entry not a mapping", yaml: "hooks:\n  pre_tool_call:\n    - ./x.sh\n    - command: ok\n",
			specs: []string{`pre_tool_call[1] "ok" m=- t=60 fc=false @4`},
			diags: []string{`hooks.pre_tool_call[0]@3: a hook must be a mapping with a command`}},
		{name: "command missing", yaml: "hooks:\n  pre_tool_call:\n    - timeout: 5\n",
			diags: []string{"hooks.pre_tool_call[0]@3: hook has no command; skipped"}},
		{name: "command not a string", yaml: "hooks:\n  pre_tool_call:\n    - matcher: x\n      command: [a, b]\n",
			diags: []string{"hooks.pre_tool_call[0].command@4: command must be a string, got a list"}},
		{name: "command a number", yaml: "hooks:\n  pre_tool_call:\n    - command: 42\n",
			diags: []string{"hooks.pre_tool_call[0].command@3: got 42"}},
		{name: "command blank", yaml: "hooks:\n  pre_tool_call:\n    - command: '   '\n    - command:\n",
			diags: []string{"hooks.pre_tool_call[0].command@3: command is blank", "hooks.pre_tool_call[1].command@4: got null"}},
		{name: "matcher not a string", yaml: "hooks:\n  pre_tool_call:\n    - command: x\n      matcher: [a]\n",
			specs: []string{`pre_tool_call[0] "x" m=- t=60 fc=false @3`},
			diags: []string{"hooks.pre_tool_call[0].matcher@4: matcher must be a string"}},
		{name: "matcher on a non-tool event", yaml: "hooks:\n  on_session_start:\n    - command: x\n      matcher: terminal\n",
			specs: []string{`on_session_start[0] "x" m=- t=60 fc=false @3`},
			diags: []string{"hooks.on_session_start[0].matcher@4: matcher only applies to tool events"}},
		{name: "matcher trimmed, blank absent", yaml: "hooks:\n  post_tool_call:\n    - {command: a, matcher: ' terminal '}\n    - {command: b, matcher: '  '}\n    - {command: c, matcher: }\n",
			specs: []string{`post_tool_call[0] "a" m=terminal t=60 fc=false @3`, `post_tool_call[1] "b" m=- t=60 fc=false @4`,
				`post_tool_call[2] "c" m=- t=60 fc=false @5`}},
		{name: "matcher with Python-only syntax compiles", yaml: "hooks:\n  pre_tool_call:\n    - command: x\n      matcher: '(?!terminal).*'\n",
			specs: []string{`pre_tool_call[0] "x" m=(?!terminal).* t=60 fc=false @3`}},
		{name: "matcher invalid falls back to equality", yaml: "hooks:\n  pre_tool_call:\n    - command: x\n      matcher: '[x'\n",
			specs: []string{`pre_tool_call[0] "x" m=[x(literal) t=60 fc=false @3`},
			diags: []string{"hooks.pre_tool_call[0].matcher@4: is not a valid Python regular expression (unterminated character set at position 0)"}},
		{name: "matcher Python refuses falls back to equality", yaml: "hooks:\n  pre_tool_call:\n    - command: x\n      matcher: '\\p{L}+'\n",
			specs: []string{`pre_tool_call[0] "x" m=\p{L}+(literal) t=60 fc=false @3`},
			diags: []string{`hooks.pre_tool_call[0].matcher@4: (bad escape \p at position 0)`}},
		{name: "timeout per Python int()", yaml: `hooks:
  post_llm_call:
    - {command: a, timeout: 2.9}
    - {command: b, timeout: "30"}
    - {command: c, timeout: " 30 "}
    - {command: d, timeout: true}
    - {command: e, timeout: 1_0}
    - {command: f, timeout: -0.5}
`, specs: []string{`post_llm_call[0] "a" m=- t=2* fc=false @3`, `post_llm_call[1] "b" m=- t=30* fc=false @4`,
			`post_llm_call[2] "c" m=- t=30* fc=false @5`, `post_llm_call[3] "d" m=- t=1* fc=false @6`,
			`post_llm_call[4] "e" m=- t=10* fc=false @7`, `post_llm_call[5] "f" m=- t=60 fc=false @8`},
			diags: []string{"hooks.post_llm_call[5].timeout@8: timeout -0.5 is below 1 second; using the default 60"}},
		{name: "timeout not an integer", yaml: `hooks:
  post_llm_call:
    - {command: a, timeout: null}
    - {command: b, timeout: "3.5"}
    - {command: c, timeout: [1]}
    - {command: d, timeout: 1e3}
    - {command: e, timeout: .inf}
`, specs: []string{`post_llm_call[0] "a" m=- t=60 fc=false @3`, `post_llm_call[1] "b" m=- t=60 fc=false @4`,
			`post_llm_call[2] "c" m=- t=60 fc=false @5`, `post_llm_call[3] "d" m=- t=60 fc=false @6`, `post_llm_call[4] "e" m=- t=60 fc=false @7`},
			diags: []string{"hooks.post_llm_call[0].timeout@3: got null; using the default 60",
				`hooks.post_llm_call[1].timeout@4: got "3.5"; using the default 60`,
				"hooks.post_llm_call[2].timeout@5: got a list; using the default 60",
				`hooks.post_llm_call[3].timeout@6: got "1e3"`, // YAML 1.1: 1e3 is a string to the agent
				"hooks.post_llm_call[4].timeout@7: got .inf"}},
		{name: "timeout below 1", yaml: "hooks:\n  pre_tool_call:\n    - {command: a, timeout: 0}\n    - {command: b, timeout: false}\n",
			specs: []string{`pre_tool_call[0] "a" m=- t=60 fc=false @3`, `pre_tool_call[1] "b" m=- t=60 fc=false @4`},
			diags: []string{"hooks.pre_tool_call[0].timeout@3: timeout 0 is below 1 second; using the default 60",
				"hooks.pre_tool_call[1].timeout@4: timeout false is below 1 second"}},
		{name: "timeout above 300", yaml: "hooks:\n  pre_tool_call:\n    - {command: a, timeout: 301}\n    - {command: b, timeout: 300}\n",
			specs: []string{`pre_tool_call[0] "a" m=- t=300* fc=false @3`, `pre_tool_call[1] "b" m=- t=300* fc=false @4`},
			diags: []string{"hooks.pre_tool_call[0].timeout@3: timeout 301 is above the maximum of 300 seconds; using 300"}},
		{name: "fail_closed must be a real boolean", yaml: `hooks:
  pre_tool_call:
    - {command: a, fail_closed: "true"}
    - {command: b, fail_closed: 1}
    - {command: c, fail_closed: yes}
    - {command: d, fail_closed: false}
`, specs: []string{`pre_tool_call[0] "a" m=- t=60 fc=false @3`, `pre_tool_call[1] "b" m=- t=60 fc=false @4`,
			`pre_tool_call[2] "c" m=- t=60 fc=true @5`, `pre_tool_call[3] "d" m=- t=60 fc=false @6`},
			diags: []string{`hooks.pre_tool_call[0].fail_closed@3: fail_closed must be true or false (unquoted), got "true"; using false`,
				"hooks.pre_tool_call[1].fail_closed@4: got 1"}},
		{name: "failClosed alias only when fail_closed absent", yaml: `hooks:
  pre_tool_call:
    - command: a
      failClosed: true
    - command: b
      fail_closed: false
      failClosed: true
    - command: c
      failClosed: "yes"
`, specs: []string{`pre_tool_call[0] "a" m=- t=60 fc=true @3`, `pre_tool_call[1] "b" m=- t=60 fc=false @5`,
			`pre_tool_call[2] "c" m=- t=60 fc=false @8`},
			diags: []string{`hooks.pre_tool_call[2].failClosed@9: failClosed must be true or false`}},
		{name: "fail_closed true on another event", yaml: "hooks:\n  post_tool_call:\n    - command: a\n      fail_closed: true\n    - {command: b, fail_closed: false}\n",
			specs: []string{`post_tool_call[0] "a" m=- t=60 fc=false @3`, `post_tool_call[1] "b" m=- t=60 fc=false @5`},
			diags: []string{"hooks.post_tool_call[0].fail_closed@4: fail_closed only applies to pre_tool_call"}},
		{name: "unknown entry keys ignored", yaml: "hooks:\n  pre_tool_call:\n    - command: a\n      description: hi\n      retries: 3\n",
			specs: []string{`pre_tool_call[0] "a" m=- t=60 fc=false @3`}},
		{name: "environment references expanded", yaml: "hooks:\n  pre_tool_call:\n    - command: ${DIR}/g.sh ${env:MODE}${NOPE}\n      timeout: ${T}\n",
			specs: []string{`pre_tool_call[0] "/opt/g.sh strict" m=- t=7* fc=false @3`}},
		{name: "anchors and merge keys", yaml: `defaults: &d {timeout: 20, matcher: terminal}
hooks:
  pre_tool_call:
    - <<: *d
      command: a
    - <<: *d
      command: b
      timeout: 5
`, specs: []string{`pre_tool_call[0] "a" m=terminal t=20* fc=false @4`, `pre_tool_call[1] "b" m=terminal t=5* fc=false @6`}},
		{name: "timeout: floats with a dot and an exponent truncate like int()", yaml: `hooks:
  post_llm_call:
    - {command: a, timeout: 1.0e3}
    - {command: b, timeout: 1.5e1}
    - {command: c, timeout: 1.e3}
    - {command: d, timeout: 2.99e0}
    - {command: e, timeout: 1E1}
`, specs: []string{`post_llm_call[0] "a" m=- t=300* fc=false @3`, `post_llm_call[1] "b" m=- t=15* fc=false @4`,
			`post_llm_call[2] "c" m=- t=300* fc=false @5`, `post_llm_call[3] "d" m=- t=2* fc=false @6`, `post_llm_call[4] "e" m=- t=60 fc=false @7`},
			diags: []string{"hooks.post_llm_call[0].timeout@3: timeout 1.0e3 is above the maximum of 300 seconds; using 300",
				"hooks.post_llm_call[2].timeout@5: timeout 1.e3 is above the maximum",
				`hooks.post_llm_call[4].timeout@7: got "1E1"`}}, // no dot: a string to the agent
		{name: "timeout: Unicode digits as int() reads them", yaml: "hooks:\n  post_llm_call:\n" +
			"    - {command: a, timeout: \"٣\"}\n" + // Arabic-Indic three
			"    - {command: b, timeout: \" ٣ \"}\n" +
			"    - {command: c, timeout: \"１０\"}\n" + // fullwidth 10
			"    - {command: d, timeout: \" 5　\"}\n" + // non-ASCII spaces around
			"    - {command: e, timeout: \"٣_٣\"}\n" +
			"    - {command: f, timeout: \"+𝟓\"}\n" + // mathematical bold 5
			"    - {command: g, timeout: \"\\x1c5\"}\n" + // \x1c is str.isspace() but int() refuses it
			"    - {command: h, timeout: \"1__0\"}\n" +
			"    - {command: i, timeout: \"٣.0\"}\n" +
			"    - {command: j, timeout: ٤}\n", // unquoted: a string too
			specs: []string{`post_llm_call[0] "a" m=- t=3* fc=false @3`, `post_llm_call[1] "b" m=- t=3* fc=false @4`,
				`post_llm_call[2] "c" m=- t=10* fc=false @5`, `post_llm_call[3] "d" m=- t=5* fc=false @6`,
				`post_llm_call[4] "e" m=- t=33* fc=false @7`, `post_llm_call[5] "f" m=- t=5* fc=false @8`,
				`post_llm_call[6] "g" m=- t=60 fc=false @9`, `post_llm_call[7] "h" m=- t=60 fc=false @10`,
				`post_llm_call[8] "i" m=- t=60 fc=false @11`, `post_llm_call[9] "j" m=- t=4* fc=false @12`},
			diags: []string{`hooks.post_llm_call[6].timeout@9: timeout must be a whole number of seconds, got "\x1c5"`,
				`hooks.post_llm_call[7].timeout@10: got "1__0"`, `hooks.post_llm_call[8].timeout@11: got "٣.0"`}},
		{name: "y, Y, n, N are booleans", yaml: `hooks:
  pre_tool_call:
    - {command: a, fail_closed: y}
    - {command: b, fail_closed: Y, timeout: y}
    - {command: c, fail_closed: n}
    - {command: d, fail_closed: N, timeout: N}
    - {command: e, fail_closed: "y"}
`, specs: []string{`pre_tool_call[0] "a" m=- t=60 fc=true @3`, `pre_tool_call[1] "b" m=- t=1* fc=true @4`,
			`pre_tool_call[2] "c" m=- t=60 fc=false @5`, `pre_tool_call[3] "d" m=- t=60 fc=false @6`, `pre_tool_call[4] "e" m=- t=60 fc=false @7`},
			diags: []string{"hooks.pre_tool_call[3].timeout@6: timeout N is below 1 second",
				`hooks.pre_tool_call[4].fail_closed@7: fail_closed must be true or false (unquoted), got "y"`}},
		{name: "a !!binary command is not a string", yaml: "hooks:\n  pre_tool_call:\n    - command: !!binary L2Jpbi90cnVl\n    - command: ok\n",
			specs: []string{`pre_tool_call[1] "ok" m=- t=60 fc=false @4`},
			diags: []string{"hooks.pre_tool_call[0].command@3: command must be a string, got binary data (!!binary); hook skipped"}},
		{name: "the same (event, matcher, command) twice is registered once, the first entry counting", yaml: `hooks:
  pre_tool_call:
    - {command: a.sh, matcher: terminal, timeout: 5, fail_closed: true}
    - {command: a.sh, matcher: " terminal ", timeout: 9}
    - {command: a.sh, matcher: patch}
    - {command: a.sh}
    - {command: a.sh}
  post_tool_call:
    - {command: a.sh, matcher: terminal}
`, specs: []string{`pre_tool_call[0] "a.sh" m=terminal t=5* fc=true @3`, `pre_tool_call[2] "a.sh" m=patch t=60 fc=false @5`,
			`pre_tool_call[3] "a.sh" m=- t=60 fc=false @6`, `post_tool_call[0] "a.sh" m=terminal t=60 fc=false @9`},
			diags: []string{"info hooks.pre_tool_call[1]@4: the same hook (event, matcher and command) as hooks.pre_tool_call[0] at line 3: it is registered once",
				"info hooks.pre_tool_call[4]@7: as hooks.pre_tool_call[3] at line 6"}},
	}
	env := map[string]string{"DIR": "/opt", "MODE": "strict", "T": "7"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, p := parseYAML(t, tt.yaml, env)
			if len(f.Diagnostics) != 0 {
				t.Fatalf("config diagnostics: %v", f.Diagnostics)
			}
			var got []string
			for _, s := range p.Specs {
				if s.File != f.Path {
					t.Errorf("spec file %q, want %q", s.File, f.Path)
				}
				got = append(got, specString(s))
			}
			if strings.Join(got, "\n") != strings.Join(tt.specs, "\n") {
				t.Errorf("specs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.specs, "\n"))
			}
			checkDiagnostics(t, f.Path, p.Diagnostics, tt.diags)
		})
	}
}

func TestParseWithoutFileOrCatalogue(t *testing.T) {
	if p := Parse(nil, nil, nil); len(p.Specs)+len(p.Webhooks)+len(p.Diagnostics) != 0 {
		t.Errorf("Parse(nil) = %+v", p)
	}
	f, _ := parseYAML(t, "hooks_extra_events: [later]\nhooks:\n  later:\n    - command: x\n", nil)
	if p := Parse(f, nil, nil); len(p.Specs) != 1 || len(p.Diagnostics) != 0 {
		t.Errorf("with a nil catalogue the file's extra events must count: %+v", p)
	}
}

func TestForEvent(t *testing.T) {
	_, p := parseYAML(t, "hooks:\n  post_tool_call: [{command: b}, {command: c}]\n  pre_tool_call: [{command: a}]\n", nil)
	var got []string
	for _, s := range p.ForEvent("post_tool_call") {
		got = append(got, s.Command)
	}
	if strings.Join(got, ",") != "b,c" || len(p.ForEvent("on_session_end")) != 0 {
		t.Errorf("ForEvent(post_tool_call) = %v, want b,c", got)
	}
}

// FuzzParse feeds arbitrary bytes through Load and Parse: whatever the
// file holds, neither may panic, and what Parse accepts must be usable.
func FuzzParse(f *testing.F) {
	f.Add([]byte("hooks:\n  pre_tool_call:\n    - matcher: \"terminal|patch\"\n      command: ./g.sh\n      timeout: 10\n      fail_closed: true\n"))
	f.Add([]byte("hooks: [1, 2]\n"))
	f.Add([]byte("a: &x [*x]\nhooks: *x\n"))
	f.Add([]byte("hooks:\n  outbound:\n    - {url: 'https://a.test', events: [post_tool_call], matcher: '(?=x', secret_env: S}\n"))
	path := filepath.Join(f.TempDir(), "config.yaml")
	cat := catalog.NewCatalogue(nil)
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		file, err := config.Load(path, config.MapEnv(map[string]string{"S": "x"}))
		if err != nil {
			return
		}
		p := Parse(file, cat, nil)
		checkStubbedAsWhole(t, string(data), map[string]string{"S": "x"})
		for _, s := range p.Specs {
			if s.Command == "" || s.Timeout < 1 || s.Timeout > MaxTimeout || !cat.Has(s.Event) {
				t.Errorf("unusable spec %+v", s)
			}
			s.Matcher.Match("terminal")
		}
		for _, w := range p.Webhooks {
			if len(w.Events) == 0 || w.Timeout < MinWebhookTimeout || w.Timeout > MaxWebhookTimeout || w.URL == "" {
				t.Errorf("unusable webhook %+v", w)
			}
		}
		for _, d := range append(file.Diagnostics, p.Diagnostics...) {
			if d.File != path || d.Message == "" {
				t.Errorf("diagnostic without file or message: %+v", d)
			}
		}
	})
}

// Commands and matchers are trimmed as Python's str.strip() trims them
// (SPEC §14), so the allowlist key is the one the agent computes.
func TestParseStripsLikePython(t *testing.T) {
	yaml := "hooks:\n  pre_tool_call:\n" +
		"    - command: \"\\x1c\\u3000guard.sh --x\\u00a0\\u2028\"\n      matcher: \"\\u2003terminal\\x1f\"\n" +
		"    - command: \"\\u200bzw.sh\"\n" +
		"    - command: \"\\u2000\\x1d\\u0085\"\n"
	_, p := parseYAML(t, yaml, nil)
	var got []string
	for _, s := range p.Specs {
		got = append(got, specString(s))
	}
	want := []string{
		`pre_tool_call[0] "guard.sh --x" m=terminal t=60 fc=false @3`,
		`pre_tool_call[1] "\u200bzw.sh" m=- t=60 fc=false @5`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("specs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(p.Diagnostics) != 1 || !strings.Contains(p.Diagnostics[0].Message, "command is blank") {
		t.Errorf("diagnostics: %s", diagList(p.Diagnostics))
	}
}

// parsedString is everything Parse says of a config, for comparing two
// readings of it.
func parsedString(p *Parsed) string {
	var b strings.Builder
	for _, s := range p.Specs {
		fmt.Fprintf(&b, "%s w=%q sec=%v nr=%t g=%t %q %q\n", specString(s), s.Written, s.Secrets, s.NoReplay, s.Guard != nil, s.Inner, s.InnerWritten)
	}
	for _, s := range p.Disabled {
		fmt.Fprintf(&b, "disabled %s w=%q\n", specString(s), s.Written)
	}
	for _, w := range p.Webhooks {
		w.Matcher = nil
		fmt.Fprintf(&b, "webhook %+v\n", w)
	}
	fmt.Fprintf(&b, "%s%v\n", diagList(p.Diagnostics), p.UnknownEvents)
	return b.String()
}

// checkStubbedAsWhole fails when the hooks of content, read by the fast
// reader (items left stubs, read again one by one), parse otherwise than
// when yaml.v3 reads the file (whole trees: a flow list added at the end
// makes the fast reader refuse it). It says whether the fast reader took
// content.
func checkStubbedAsWhole(t *testing.T, content string, env map[string]string) bool {
	t.Helper()
	if !config.Decode([]byte(content)).Fast {
		return false
	}
	dir := t.TempDir()
	load := func(name, text string) (*config.File, *Parsed, error) {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := config.Load(path, config.MapEnv(env))
		if err != nil {
			return nil, nil, err
		}
		return f, Parse(f, catalog.NewCatalogue(f.Settings.ExtraEvents), config.MapEnv(env)), nil
	}
	_, fast, err := load("config.yaml", content)
	if err != nil {
		return false
	}
	whole := strings.TrimRight(content, "\n") + "\nzz_read_whole: [1]\n"
	_, slow, err := load("config.yaml", whole)
	if err != nil {
		return false // not a mapping at the top, or the key is there
	}
	if a, b := parsedString(fast), parsedString(slow); a != b {
		t.Fatalf("stubbed:\n%s\nwhole:\n%s\nconfig:\n%s", a, b, content)
	}
	return true
}

// TestParseStubbedAsWhole: configs of every kind of entry (good, bad,
// repeated, expanded, protected, disabled, webhooks, nested values,
// comments anywhere) parse alike whether their items are stubs read
// again or yaml.v3's whole trees.
func TestParseStubbedAsWhole(t *testing.T) {
	entries := []string{
		"- command: ./a.sh\n  timeout: 10\n",
		"- command: ${D}/b.sh --x   # note\n  matcher: terminal\n",
		"- command: ${API_TOKEN} run\n",
		"- command: 'q r.sh'\n  fail_closed: yes\n  replay: false\n",
		"-\n  # above\n  command: ./a.sh\n  timeout: 10\n",
		"- command: ./a.sh\n  timeout: 10\n",
		"- matcher: '(?=x'\n  command: c.sh\n",
		"- comand: typo.sh\n",
		"- command: d.sh\n  timeout: 900\n",
		"- command: d.sh\n  timeout: -1\n",
		"- command:\n",
		"- command: e.sh\n  env:\n    A: 1\n  args:\n    - x\n    - y: 2\n",
		"- plain scalar\n",
		"-\n  - a\n  - b\n",
		"- command: /usr/local/bin/hermes-guard --event pre_tool_call -- ${D}/g.sh\n",
		"- command: ~/x.sh\n",
	}
	env := map[string]string{"D": "/opt/h", "API_TOKEN": "s3cr3t"}
	r := rand.New(rand.NewPCG(1, 2))
	events := []string{"pre_tool_call", "post_tool_call", "on_session_start", "no_such_event"}
	taken := 0
	for range 300 {
		var b strings.Builder
		b.WriteString("model: x\n")
		for _, top := range []string{"hooks", "hooks_disabled"} {
			if top == "hooks_disabled" && r.IntN(2) == 0 {
				continue
			}
			b.WriteString(top + ":\n")
			for _, ev := range events[:1+r.IntN(len(events))] {
				fmt.Fprintf(&b, "  %s:\n", ev)
				for range 1 + r.IntN(5) {
					e := entries[r.IntN(len(entries))]
					for line := range strings.Lines(e) {
						b.WriteString("    " + line)
					}
					if r.IntN(4) == 0 {
						b.WriteString("    # a comment\n\n")
					}
				}
			}
			if top == "hooks" && r.IntN(3) == 0 {
				b.WriteString("  outbound:\n    - url: https://a.test/x\n      events:\n        - post_tool_call\n      secret_env: API_TOKEN\n")
			}
		}
		if checkStubbedAsWhole(t, b.String(), env) {
			taken++
		}
	}
	if taken < 250 {
		t.Fatalf("the fast reader took %d of 300 configs", taken)
	}
}
