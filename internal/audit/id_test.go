package audit

import (
	"os"
	"strings"
	"testing"
	"time"
)

// Every line carries its firing's id (SPEC §26), written last, and log
// reads it back; a line without one (written before) reads as "".
func TestLineID(t *testing.T) {
	home := t.TempDir()
	const id = "0123456789abcdef0123456789abcdef"
	for _, r := range []Record{
		{ID: id, Time: time.Now(), Event: "pre_tool_call", Kind: "shell", Command: "/a.sh", Via: ViaRunEvent},
		{ID: id, Time: time.Now(), Event: "pre_tool_call", Kind: "shell", Command: "/b.sh", Via: ViaRunEvent},
		{Time: time.Now(), Event: "pre_tool_call", Kind: "shell", Command: "/c.sh", Via: ViaRunEvent},
	} {
		if err := Append(home, r); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(Path(home))
	if n := strings.Count(string(data), `,"id":"`+id+`"}`); n != 2 {
		t.Errorf("%d lines end in the id, want 2:\n%s", n, data)
	}
	var ids []string
	if _, err := ReadAll(Path(home), func(l Line) error { ids = append(ids, l.ID); return nil }); err != nil {
		t.Fatal(err)
	}
	if strings.Join(ids, ",") != id+","+id+"," {
		t.Errorf("ids read back: %q", ids)
	}
}
