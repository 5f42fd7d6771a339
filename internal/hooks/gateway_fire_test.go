package hooks

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/audit"
	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/hooks/gateway"
)

// writeGatewayHook makes <home>/hooks/<dir> with a HOOK.yaml and, when
// handler is set, that handler file.
func writeGatewayHook(t *testing.T, home, dir, manifest, handler string) {
	t.Helper()
	d := filepath.Join(home, "hooks", dir)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, gateway.ManifestName), []byte(manifest), 0o600); err != nil {
		t.Fatal(err)
	}
	switch handler {
	case gateway.HandlerPy:
		err := os.WriteFile(filepath.Join(d, handler), []byte("def handle(event_type, context):\n    return 1\n"), 0o600)
		if err != nil {
			t.Fatal(err)
		}
	case gateway.HandlerExec:
		if err := os.WriteFile(filepath.Join(d, handler), []byte("#!/bin/sh\necho '{}'\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFireGatewayWithoutPython(t *testing.T) {
	runner := &fakeRunner{}
	e := testEngine(t, "hooks: {}\n", runner)
	home := e.Loc.Home
	writeGatewayHook(t, home, "a-py", "events: [agent:start]\n", gateway.HandlerPy)
	writeGatewayHook(t, home, "b-exec", "events: [\"agent:*\"]\n", gateway.HandlerExec)
	writeGatewayHook(t, home, "c-broken", "events: [agent:start]\n", "")
	writeGatewayHook(t, home, "d-off", "events: [agent:start]\nenabled: false\n", gateway.HandlerPy)
	writeGatewayHook(t, home, "e-other", "events: [session:start]\n", "")

	pyErr := &gateway.PythonError{From: "HERMES_PYTHON", Path: "/nonexistent", Err: errors.New("no such file")}
	ge, _ := catalog.LookupGatewayEvent("agent:start")
	g, err := e.FireGateway(context.Background(), "agent:start", GatewayContext(ge, nil), "", pyErr, 0, true)
	if !errors.Is(err, gateway.ErrPythonUnavailable) {
		t.Fatalf("err = %v, want gateway hooks unavailable", err)
	}
	var names []string
	for _, h := range g.Hooks {
		names = append(names, h.Name)
	}
	if got := strings.Join(names, ","); got != "a-py,b-exec" {
		t.Fatalf("fired %s, want a-py,b-exec", got)
	}
	if !g.Unavailable[0] || g.Results[0].Error != pyErr.Error() {
		t.Errorf("python hook: unavailable=%t error %q, want the interpreter's own message %q", g.Unavailable[0], g.Results[0].Error, pyErr)
	}
	if g.Unavailable[1] || g.Results[1].Status != gateway.StatusOK {
		t.Errorf("executable hook: unavailable=%t result %+v, want it run", g.Unavailable[1], g.Results[1])
	}
	if ran := runner.ran(); len(ran) != 1 || !strings.HasSuffix(ran[0], "b-exec/handler") {
		t.Errorf("ran %v, want only the executable handler", ran)
	}
	// Only what ran is audited.
	log, err := os.ReadFile(audit.Path(home))
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(string(log)), "\n"); len(lines) != 1 || !strings.Contains(lines[0], `"name":"b-exec"`) {
		t.Errorf("audit log:\n%s\nwant one line, for b-exec", log)
	}

	var broken []string
	for _, h := range e.GatewayNotLoaded("agent:start") {
		broken = append(broken, h.Name)
	}
	if got := strings.Join(broken, ","); got != "c-broken" {
		t.Errorf("not loaded: %s, want c-broken (a disabled hook is the user's choice)", got)
	}
}

func TestGatewayRealContext(t *testing.T) {
	ge, _ := catalog.LookupGatewayEvent("command:model")
	if got := GatewayRealContext(ge, nil).String(); !strings.Contains(got, `"command": "model"`) || !strings.Contains(got, `"platform"`) {
		t.Errorf("no payload: %s, want the synthetic context of command:model", got)
	}
	given := testObj(t, `{"command": "model", "args": "x"}`)
	if got, want := GatewayRealContext(ge, given).String(), given.String(); got != want {
		t.Errorf("given payload: %s, want it as given: %s", got, want)
	}
	if got := GatewayContext(ge, given).String(); !strings.Contains(got, `"platform"`) || !strings.Contains(got, `"args": "x"`) {
		t.Errorf("test context: %s, want the synthetic context merged with the given fields", got)
	}
}
