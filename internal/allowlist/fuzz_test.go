package allowlist

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// FuzzRead: whatever the file holds, reading never panics, a usable file
// rewrites to something that reads back the same, and the rewrite is
// stable (a second rewrite changes nothing).
func FuzzRead(f *testing.F) {
	f.Add([]byte(pythonStyle))
	f.Add([]byte("\uFEFF{\"approvals\": [{\"event\": \"e\", \"command\": \"c\"}]}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, warnings, corrupt := decode(data, "fuzz.json")
		if corrupt != "" {
			if len(l.Approvals) != 0 {
				t.Fatalf("corrupt file (%s) has %d entries", corrupt, len(l.Approvals))
			}
			return
		}
		if want := referenceCommands(data); commands(l) != want {
			t.Fatalf("entries %q, pyjson reads %q", commands(l), want)
		}
		out := l.encode()
		l2, warnings2, corrupt2 := decode(out, "fuzz.json")
		if corrupt2 != "" {
			t.Fatalf("rewrite of a usable file is corrupt: %s\n%s", corrupt2, out)
		}
		if len(warnings2) != len(warnings) || commands(l2) != commands(l) {
			t.Fatalf("rewrite reads differently: %q vs %q", commands(l2), commands(l))
		}
		for _, e := range l.Approvals {
			if _, ok := l2.Find(e.Event, e.Command); !ok {
				t.Fatalf("entry (%q, %q) lost", e.Event, e.Command)
			}
		}
		if again := l2.encode(); !bytes.Equal(again, out) {
			t.Fatalf("rewrite not stable:\n%s\n%s", out, again)
		}
		// An entry written as it was read writes what encoding it writes:
		// the file as read, and the rewrite (every entry as read).
		for _, l := range []*List{l, l2} {
			if fast, slow := l.encode(), l.encodeWith(encoded(l), nil, 0); !bytes.Equal(fast, slow) {
				t.Fatalf("entries written as read differ from their encoding:\n%s\n%s", fast, slow)
			}
		}
	})
}

// referenceCommands is what an ordered full decode finds in a usable file,
// to check the fast reader against.
func referenceCommands(data []byte) string {
	v, _ := pyjson.Decode(bytes.TrimPrefix(data, utf8BOM))
	items, _ := v.(*pyjson.Object).Get("approvals")
	list, _ := items.([]any)
	var s []string
	for _, item := range list {
		o, ok := item.(*pyjson.Object)
		if !ok {
			continue
		}
		ev, _ := o.Get("event")
		cmd, _ := o.Get("command")
		e, ok1 := ev.(string)
		c, ok2 := cmd.(string)
		if ok1 && ok2 {
			s = append(s, e+":"+c)
		}
	}
	return strings.Join(s, " ")
}
