package scaffold

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/catalog"
)

// Every event's script, in both languages, names every field of the event;
// run on the event's synthetic payload it prints nothing and exits 0 (the
// default is to answer nothing). Python starts slowly, so its scripts run
// for one event of each answer kind; the sh ones all run.
func TestRenderEveryEventRuns(t *testing.T) {
	cat := catalog.NewCatalogue([]string{"brand_new_event"})
	dir := t.TempDir()
	for lang, ext := range Langs() {
		interp := "sh"
		if lang == "python" {
			interp = "python3"
		}
		if _, err := exec.LookPath(interp); err != nil {
			t.Logf("%s not found: %s scripts rendered but not run", interp, lang)
			interp = ""
		}
		for _, ev := range cat.Events() {
			if !ev.ShellSupported {
				continue
			}
			script, err := Render(lang, "h", ev)
			if err != nil {
				t.Fatalf("%s %s: %v", lang, ev.Name, err)
			}
			for _, f := range ev.Fields {
				if !bytes.Contains(script, []byte(f)) {
					t.Errorf("%s %s: field %s not documented", lang, ev.Name, f)
				}
			}
			if !bytes.Contains(script, []byte("hermes hooks test "+ev.Name)) {
				t.Errorf("%s %s: no 'hermes hooks test' hint", lang, ev.Name)
			}
			if interp == "" || (lang == "python" && !runPython[ev.Name]) {
				continue
			}
			path := filepath.Join(dir, ev.Name+ext)
			if err := os.WriteFile(path, script, 0o700); err != nil {
				t.Fatal(err)
			}
			payload, _ := ev.PayloadObject()
			cmd := exec.Command(interp, path)
			cmd.Stdin = strings.NewReader(`{"hook_event_name": "` + ev.Name + `", "tool_name": null, "tool_input": null, "session_id": "s", "cwd": "/", "profile": "default", "extra": ` + payload.String() + `}`)
			out, err := cmd.Output()
			if err != nil || len(out) != 0 {
				t.Errorf("%s %s: exit %v, stdout %q", lang, ev.Name, err, out)
			}
		}
	}
}

var runPython = map[string]bool{"pre_tool_call": true, "pre_llm_call": true, "pre_verify": true,
	"post_api_request": true, "brand_new_event": true}

func TestAnswerKinds(t *testing.T) {
	cat := catalog.NewCatalogue(nil)
	for name, want := range map[string]string{"pre_tool_call": AnswerTool, "pre_llm_call": AnswerContext,
		"pre_verify": AnswerVerify, "post_tool_call": AnswerNone, "subagent_stop": AnswerNone} {
		ev, _ := cat.Lookup(name)
		if got := AnswerKind(ev); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
		script, _ := Render("sh", "h", ev)
		has := map[string]string{AnswerTool: `"action": "block"`, AnswerContext: `{"context":`, AnswerVerify: `"action": "continue"`, AnswerNone: "is observed"}
		if !bytes.Contains(script, []byte(has[want])) {
			t.Errorf("%s: the sh script does not show %s", name, has[want])
		}
	}
}

func TestCheckName(t *testing.T) {
	for _, ok := range []string{"guard", "log-calls", "a_b.v2"} {
		if err := CheckName(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "../x", "a/b", ".hidden", "-rf", "a b", "x.", strings.Repeat("a", 65), "é"} {
		if CheckName(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
