package edit

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"gopkg.in/yaml.v3"
)

var update = flag.Bool("update", false, "rewrite the want files of testdata/*.txtar")

// Each testdata/*.txtar holds:
//
//	op         one line: `append PATH KEY=VALUE...` or `remove PATH KEY=VALUE`
//	           (remove: items whose KEY equals VALUE), then optional flags:
//	           crlf (input and want get CRLF line ends), nonl (no final line
//	           break), bom
//	in.yaml    the file before
//	want.yaml  the file after, or
//	error      a substring of the expected error
//
// Besides the golden comparison, every untouched line is checked byte for
// byte by the package itself; the test also checks the count of changed
// lines from the diff so that a golden file cannot drift silently.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			parts := map[string][]byte{}
			for _, f := range ar.Files {
				parts[f.Name] = f.Data
			}
			op := strings.Fields(string(parts["op"]))
			flags := map[string]bool{}
			for _, f := range op {
				flags[f] = true
			}
			in := transform(parts["in.yaml"], flags)
			got, err := runOp(in, op)
			if want, ok := parts["error"]; ok {
				if err == nil {
					t.Fatalf("want error %q, got file:\n%s", want, got)
				}
				if !strings.Contains(err.Error(), strings.TrimSpace(string(want))) {
					t.Fatalf("error %q does not contain %q", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				for i := range ar.Files {
					if ar.Files[i].Name == "want.yaml" {
						ar.Files[i].Data = untransform(got, flags)
					}
				}
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want := transform(parts["want.yaml"], flags)
			if !bytes.Equal(got, want) {
				t.Fatalf("got:\n%s\nwant:\n%s", got, want)
			}
			// Independently of the package's own check: every line of the
			// input is in the output, in order, but for those the op may
			// change (none for append except an emptied value's key line).
			missing := 0
			gl := strings.Split(string(got), "\n")
			j := 0
			for _, l := range strings.Split(string(in), "\n") {
				k := j
				for k < len(gl) && gl[k] != l {
					k++
				}
				if k == len(gl) {
					missing++
					continue
				}
				j = k + 1
			}
			if op[0] == "append" && missing > 1 {
				t.Fatalf("append changed %d input lines", missing)
			}
		})
	}
}

func transform(b []byte, flags map[string]bool) []byte {
	if flags["nonl"] {
		b = bytes.TrimSuffix(b, []byte("\n"))
	}
	if flags["crlf"] {
		b = bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))
	}
	if flags["bom"] {
		b = append([]byte("\ufeff"), b...)
	}
	return b
}

func untransform(b []byte, flags map[string]bool) []byte {
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	if flags["nonl"] {
		b = append(b, '\n')
	}
	return b
}

func runOp(in []byte, op []string) ([]byte, error) {
	d, err := Parse(in)
	if err != nil {
		return nil, err
	}
	path := strings.Split(op[1], ".")
	var fields []Field
	for _, kv := range op[2:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		var val any = strings.ReplaceAll(v, "_SP_", " ")
		if n, err := strconv.Atoi(v); err == nil {
			val = n
		} else if v == "true" {
			val = true
		}
		fields = append(fields, Field{k, val})
	}
	switch op[0] {
	case "append":
		return d.Append(path, fields)
	case "remove":
		out, _, err := d.Remove(path, func(key string, i int, item *yaml.Node) bool {
			if item.Kind != yaml.MappingNode {
				return false
			}
			_, v := findKey(item, fields[0].Key)
			return v != nil && v.Value == fields[0].Value
		})
		return out, err
	}
	return nil, errors.New("unknown op " + op[0])
}

// TestUntouchedKept: every line no splice touched must be in the result,
// in order; one changed or dropped elsewhere is caught.
func TestUntouchedKept(t *testing.T) {
	d, err := Parse([]byte("a: 1\nb: 2\nc: 3\n"))
	if err != nil {
		t.Fatal(err)
	}
	second := []splice{{start: 5, end: 9, text: "b: 9"}} // line 2
	for _, c := range []struct {
		body string
		bad  string // the error's line, "" for none
	}{
		{"a: 1\nb: 9\nc: 3\n", ""},
		{"a: 1\nb: 9\nnew: 0\nc: 3\n", ""},
		{"a: 1\nb: 9\nc: 4\n", "line 3"},
		{"a: 1\nb: 9\n", "line 3"},
		{"a: 0\nb: 9\nc: 3\n", "line 1"},
		{"a: 1\nb: 9\nc: 3", "line 4"}, // the empty line after the last line feed
	} {
		err := d.untouchedKept(second, []byte(c.body))
		switch {
		case c.bad == "" && err != nil:
			t.Errorf("%q: %v", c.body, err)
		case c.bad != "" && (err == nil || !strings.Contains(err.Error(), c.bad+" would change")):
			t.Errorf("%q: got %v, want %s would change", c.body, err, c.bad)
		}
	}
}
