package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestNewCmdEventsFlags(t *testing.T) {
	got, err := parseArgs(t, newCmdEvents, "--json")
	if err != nil {
		t.Fatal(err)
	}
	if !got.JSON {
		t.Error("--json not set")
	}
	if got, err := parseArgs(t, newCmdEvents, "pre_tool_call"); err == nil || got != nil {
		t.Errorf("an argument was accepted (err %v)", err)
	}
}

func TestEventsRunJSON(t *testing.T) {
	h := newHarness(t)
	h.write(t, "config.yaml", "hooks_extra_events: [on_future_thing]\n", 0o644)
	if err := eventsRun(nil, &eventsOptions{f: h.f, JSON: true}); err != nil {
		t.Fatal(err)
	}
	var got eventsJSON
	if err := json.Unmarshal(h.out.Bytes(), &got); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, h.out)
	}
	if got.HermesHome != h.home || got.ConfigPath == nil || *got.ConfigPath != h.home+"/config.yaml" {
		t.Errorf("hermes_home %q, config_path %v", got.HermesHome, got.ConfigPath)
	}
	if len(got.ShellEvents) != 43 {
		t.Fatalf("%d shell events, want the 42 built-in ones plus 1 extra", len(got.ShellEvents))
	}
	byName := map[string]shellEventJSON{}
	for _, e := range got.ShellEvents {
		byName[e.Name] = e
		if e.Description == "" || e.Fields == nil {
			t.Errorf("%s: description %q, fields %v", e.Name, e.Description, e.Fields)
		}
	}
	for name, want := range map[string][3]bool{ // tool_event, blocking, shell_supported
		"pre_tool_call":                      {true, true, true},
		"post_tool_call":                     {true, false, true},
		"pre_llm_call":                       {false, false, true},
		"transform_api_error_classification": {false, false, false},
		"on_future_thing":                    {false, false, true},
	} {
		e, ok := byName[name]
		if !ok {
			t.Errorf("%s missing", name)
			continue
		}
		if have := [3]bool{e.ToolEvent, e.Blocking, e.ShellSupported}; have != want {
			t.Errorf("%s: tool_event, blocking, shell_supported = %v, want %v", name, have, want)
		}
	}
	if got.ShellEvents[0].Name != "pre_tool_call" || got.ShellEvents[42].Name != "on_future_thing" {
		t.Errorf("order: first %s, last %s", got.ShellEvents[0].Name, got.ShellEvents[42].Name)
	}
	var gw []string
	for _, g := range got.GatewayEvents {
		gw = append(gw, g.Name)
	}
	if joined := strings.Join(gw, " "); !strings.Contains(joined, "agent:start") || !strings.HasSuffix(joined, "command:*") {
		t.Errorf("gateway events = %v", gw)
	}
}

func TestEventsRunHuman(t *testing.T) {
	for _, tty := range []bool{false, true} {
		h := newHarness(t)
		h.ios.SetTTY(tty)
		if err := eventsRun(nil, &eventsOptions{f: h.f}); err != nil {
			t.Fatal(err)
		}
		out := h.out.String()
		if got := strings.Contains(out, "\x1b["); got != tty {
			t.Errorf("tty=%t: colour codes present = %t", tty, got)
		}
		plain := withoutSGR(out)
		for _, want := range []string{
			"HERMES_HOME: " + h.home + "\nConfig: none found",
			"  pre_tool_call (tool event: matcher honoured; blocking)\n",
			"  transform_api_error_classification (not available to shell hooks)\n",
			"Gateway events",
			"  command:*\n",
		} {
			if !strings.Contains(plain, want) {
				t.Errorf("tty=%t: stdout lacks %q", tty, want)
			}
		}
	}
}
