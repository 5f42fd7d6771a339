package edit

import (
	"strings"
	"testing"
)

const twoEvents = `# my config
model: x
hooks:
  # guards first
  pre_tool_call:
    # the strict one
    - command: ./strict.sh   # keep
      matcher: terminal

    - command: ./second.sh
      timeout: 5
    - command: ./third.sh
  post_tool_call:
    - command: ./log.sh
  on_session_start:
    - command: ./start.sh
other: 1 # trailing
`

func TestDisableEnableRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name    string
		entries []Entry
	}{
		{"first of three", []Entry{{"pre_tool_call", 0}}},
		{"middle", []Entry{{"pre_tool_call", 1}}},
		{"last", []Entry{{"pre_tool_call", 2}}},
		{"only item, next key", []Entry{{"post_tool_call", 0}}},
		{"only item, last key", []Entry{{"on_session_start", 0}}},
		{"two of one event", []Entry{{"pre_tool_call", 0}, {"pre_tool_call", 2}}},
		{"every entry", []Entry{{"pre_tool_call", 0}, {"pre_tool_call", 1}, {"pre_tool_call", 2}, {"post_tool_call", 0}, {"on_session_start", 0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			off, err := Disable([]byte(twoEvents), tc.entries)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(off), "\nhooks_disabled:\n") {
				t.Fatalf("no hooks_disabled block:\n%s", off)
			}
			// Enable them all back at once, as enable --all does.
			d, err := Parse(off)
			if err != nil {
				t.Fatal(err)
			}
			var all []Entry
			dis := d.Lookup([]string{DisabledKey})
			for i := 0; i+1 < len(dis.Content); i += 2 {
				for j := range dis.Content[i+1].Content {
					all = append(all, Entry{dis.Content[i].Value, j})
				}
			}
			back, err := Enable(off, all)
			if err != nil {
				t.Fatalf("enable: %v\n%s", err, off)
			}
			if string(back) != twoEvents {
				t.Errorf("enable did not restore the file byte for byte:\n--- disabled\n%s\n--- enabled\n%s", off, back)
			}
		})
	}
}

func TestDisableMovesCommentsAndDropsEmptyKey(t *testing.T) {
	off, err := Disable([]byte(twoEvents), []Entry{{"pre_tool_call", 0}, {"post_tool_call", 0}})
	if err != nil {
		t.Fatal(err)
	}
	got := string(off)
	want := `# my config
model: x
hooks:
  # guards first
  pre_tool_call:
    - command: ./second.sh
      timeout: 5
    - command: ./third.sh
  on_session_start:
    - command: ./start.sh
other: 1 # trailing
hooks_disabled:
  pre_tool_call:
`
	if !strings.HasPrefix(got, want) {
		t.Errorf("got:\n%s", got)
	}
	for _, s := range []string{"    # the strict one\n    - command: ./strict.sh   # keep\n      matcher: terminal\n", "    - command: ./log.sh\n"} {
		if !strings.Contains(got[len(want)-1:], s) {
			t.Errorf("the entry moves with its comments: want %q in\n%s", s, got)
		}
	}
}

func TestEnableAtTheEndWhenNeighboursChanged(t *testing.T) {
	off, err := Disable([]byte(twoEvents), []Entry{{"pre_tool_call", 1}})
	if err != nil {
		t.Fatal(err)
	}
	// Someone edits the neighbour it was recorded before.
	edited := strings.Replace(string(off), "./third.sh", "./third-v2.sh", 1)
	back, err := Enable([]byte(edited), []Entry{{"pre_tool_call", 0}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(back), "    - command: ./third-v2.sh\n    - command: ./second.sh\n      timeout: 5\n  post_tool_call:") {
		t.Errorf("enable puts it at the end of its list:\n%s", back)
	}
	if strings.Contains(string(back), DisabledKey) || strings.Contains(string(back), markerPrefix) {
		t.Errorf("hooks_disabled and the marker go:\n%s", back)
	}
}

func TestEnableRecreatesAnEmptiedEventElsewhere(t *testing.T) {
	src := "hooks:\n  on_session_start:\n    - command: ./start.sh\n"
	off, err := Disable([]byte(src), []Entry{{"on_session_start", 0}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(off), "hooks:\nhooks_disabled:\n  on_session_start:\n") {
		t.Errorf("disabled:\n%s", off)
	}
	back, err := Enable(off, []Entry{{"on_session_start", 0}})
	if err != nil || string(back) != src {
		t.Errorf("enable: %v\n%s", err, back)
	}
}

func TestDisableRefusesWhatItCannotMoveSafely(t *testing.T) {
	for name, src := range map[string]string{
		"flow list":   "hooks:\n  pre_tool_call: [{command: a}]\n",
		"alias":       "x: &l\n  - command: a\nhooks:\n  pre_tool_call: *l\n",
		"no newline":  "hooks:\n  pre_tool_call:\n    - command: a",
		"missing":     "hooks:\n  post_tool_call:\n    - command: a\n",
		"index range": "hooks:\n  pre_tool_call:\n    - command: a\n",
	} {
		e := Entry{"pre_tool_call", 0}
		if name == "index range" {
			e.Index = 3
		}
		if _, err := Disable([]byte(src), []Entry{e}); err == nil {
			t.Errorf("%s: disabled without an error", name)
		}
	}
}

// Every single entry of varied files disables and enables back byte for
// byte.
func TestDisableEnableEachEntryOfVariedFiles(t *testing.T) {
	files := []string{
		twoEvents,
		strings.ReplaceAll(twoEvents, "\n", "\r\n"),
		"hooks:\n    pre_tool_call:\n        -   command: a\n            timeout: 3\n        # between\n        -   command: b\n# top comment\nx: 1\n",
		"\ufeffhooks: # the hooks\n  pre_tool_call:\n  - command: a\n  - command: b\n\n\n  post_tool_call:\n  - command: c\nhooks_disabled:\n  post_tool_call:\n    - command: old\n",
		"a: 1\nhooks:\n  pre_tool_call:\n    - command: \"quoted # not a comment\"\n      matcher: 'x|y'\n",
	}
	for fi, src := range files {
		d, err := Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		hooks := d.Lookup([]string{"hooks"})
		for i := 0; i+1 < len(hooks.Content); i += 2 {
			for j := range hooks.Content[i+1].Content {
				e := Entry{hooks.Content[i].Value, j}
				off, err := Disable([]byte(src), []Entry{e})
				if err != nil {
					t.Fatalf("file %d %v: %v", fi, e, err)
				}
				od, _ := Parse(off)
				n := len(od.Lookup([]string{DisabledKey, e.Event}).Content)
				back, err := Enable(off, []Entry{{e.Event, n - 1}})
				if err != nil {
					t.Fatalf("file %d %v enable: %v\n%s", fi, e, err, off)
				}
				if string(back) != src {
					t.Errorf("file %d %v: not restored byte for byte:\n%q\n%q", fi, e, back, src)
				}
			}
		}
	}
}
