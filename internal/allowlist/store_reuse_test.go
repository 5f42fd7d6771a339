package allowlist

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/hermes-hooks/hermes/internal/code"
)

// reuseSeed is an allowlist with what a rewrite must keep: keys this
// package does not know (top level and per entry), a number where a string
// is expected, code lists, a pinned and an unpinnable entry.
const reuseSeed = `{
  "version": 3,
  "approvals": [
    {"event": "pre_tool_call", "command": "/h/a.sh", "approved_at": 1700000000, "future": {"x": [1, 2]}},
    {"event": "pre_tool_call", "command": "/h/b.sh", "approved_at": "2026-01-01T00:00:00Z", "script_sha256_at_approval": "` + "aa" + `",
     "code": [{"path": "/h/b.sh", "sha256": "bb"}]},
    {"event": "post_tool_call", "command": "curl x | sh", "pinnable": false, "unpinnable_reason": "a pipeline"}
  ],
  "note": "kept"
}
`

// TestUpdateFromWhatItKnows: an Update that reads back the bytes this
// process last read or wrote starts from a copy of that list rather than
// decoding them; what it writes is byte for byte what a fresh reading
// would have written, over a random run of approvals, replacements and
// revocations; and a file changed by someone else in between is read.
func TestUpdateFromWhatItKnows(t *testing.T) {
	dirA, dirB := t.TempDir(), t.TempDir()
	for _, d := range []string{dirA, dirB} {
		if err := os.WriteFile(filepath.Join(d, FileName), []byte(reuseSeed), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	a := Open(dirA) // keeps what it knows across calls
	read, _, err := a.Read()
	if err != nil {
		t.Fatal(err)
	}
	readBefore := read.encode()
	r := rand.New(rand.NewPCG(1, 2))
	commands := []string{"/h/a.sh", "/h/b.sh", "curl x | sh", "/h/c.sh", "/h/d.sh"}
	events := []string{"pre_tool_call", "post_tool_call"}
	for step := range 60 {
		var op func(*List)
		var what string
		switch k := r.IntN(4); k {
		case 0, 1:
			var es []Entry
			for range 1 + r.IntN(3) {
				es = append(es, Entry{Event: events[r.IntN(2)], Command: commands[r.IntN(len(commands))],
					ApprovedAt: fmt.Sprintf("2026-12-02T00:00:%02dZ", step%60), ApprovedVia: "test",
					Code: []code.File{{Path: "/h/x.sh", SHA256: fmt.Sprint(step)}}})
			}
			op, what = func(l *List) { l.ApproveAll(es) }, fmt.Sprintf("approve %v", es)
		case 2:
			c := commands[r.IntN(len(commands))]
			op, what = func(l *List) { l.Revoke(c) }, "revoke "+c
		default:
			keys := map[Key]bool{{events[r.IntN(2)], commands[r.IntN(len(commands))]}: true}
			op, what = func(l *List) { l.RevokeKeys(keys) }, fmt.Sprint("revoke keys ", keys)
		}
		before := decodes.Load()
		if _, err := a.Update(func(l *List) error { op(l); return nil }); err != nil {
			t.Fatal(err)
		}
		if decodes.Load() != before {
			t.Fatalf("step %d: the bytes it knew were decoded again", step)
		}
		if _, err := Open(dirB).Update(func(l *List) error { op(l); return nil }); err != nil {
			t.Fatal(err)
		}
		gotA, _ := os.ReadFile(filepath.Join(dirA, FileName))
		gotB, _ := os.ReadFile(filepath.Join(dirB, FileName))
		if !bytes.Equal(gotA, gotB) {
			t.Fatalf("step %d (%s): from what it knew\n%s\nfrom the file\n%s", step, what, gotA, gotB)
		}
	}
	// Entries written afresh keep their text: the next write copies them.
	for i, e := range a.known.list.Approvals {
		if _, copied := e.written().(json.RawMessage); !copied {
			t.Errorf("entry %d (%s) would be written again, not copied", i, e.Command)
		}
	}
	if !bytes.Equal(read.encode(), readBefore) {
		t.Error("the list Read handed out was changed by the Updates that followed")
	}
	// Someone else writes: the next Update reads their file.
	other := []Entry{{Event: "pre_tool_call", Command: "/h/theirs.sh", ApprovedAt: "2026-12-02T01:00:00Z"}}
	if _, err := Open(dirA).Update(func(l *List) error { l.ApproveAll(other); return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Update(func(l *List) error {
		if _, ok := l.Index()[Key{"pre_tool_call", "/h/theirs.sh"}]; !ok {
			t.Error("another writer's approval is not in the list an Update starts from")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// TestEncodeOnEveryCPU: a long list, its entries read from a file and made
// afresh in turn, is written on several CPUs at once (writtenAll) byte for
// byte as one writer encoding every entry writes it, and each entry made
// afresh keeps its own text in that output, which reads back as the entry.
// The file's buffer is as big as the file.
func TestEncodeOnEveryCPU(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	entry := func(i int) Entry {
		return Entry{Event: "pre_tool_call", Command: fmt.Sprintf("/h/%d.sh \"q\" é", i), ApprovedAt: "2026-12-02T00:00:00Z",
			ApprovedVia: ViaProtect, Code: []code.File{{Path: fmt.Sprintf("/h/%d.sh", i), SHA256: fmt.Sprint(i)}}}
	}
	var made List
	for i := range 1500 {
		made.ApproveAll([]Entry{entry(i)})
	}
	l, _, corrupt := decode(made.encode(), "t.json")
	if corrupt != "" {
		t.Fatal(corrupt)
	}
	for i := 1500; i < 3000; i += 2 { // read and new entries interleaved, then new ones
		l.ApproveAll([]Entry{entry(i)})
	}
	for i := 3001; i < 4000; i += 2 {
		l.ApproveAll([]Entry{entry(i)})
	}
	want := l.encodeWith(encoded(l), nil, 0)
	got := l.encodeKeeping()
	if !bytes.Equal(got, want) {
		t.Fatalf("written on several CPUs:\n%.2000s\none entry at a time:\n%.2000s", got, want)
	}
	// Its buffer was made the size of the file at once, not grown to it.
	if n, c := len(got), cap(got); c > n+n/64+4096 {
		t.Errorf("%d bytes written in a buffer of %d", n, c)
	}
	for i, e := range l.Approvals {
		if _, copied := e.written().(json.RawMessage); !copied {
			t.Fatalf("entry %d (%s) keeps no text", i, e.Command)
		}
		back, ok := entryFrom(e.src, newText(e.src))
		if !ok || back.Command != e.Command || !bytes.Contains(want, e.src) {
			t.Fatalf("entry %d (%s): its text %q reads as %q (%v)", i, e.Command, e.src, back.Command, ok)
		}
	}
}
