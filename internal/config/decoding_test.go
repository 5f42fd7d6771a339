package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// Load expands ${VAR} into copies: what it reads is what the in-place
// expansion read (every node's kind, value, tag, style, line and column,
// and the same expansions recorded), while the decoding it offers to an
// edit of the same bytes keeps the values as written; nodes that did not
// change are shared.
func TestLoadExpandsIntoCopies(t *testing.T) {
	defer OfferDecoding(nil)
	env := MapEnv(map[string]string{"HOME": "/home/ann", "T": "30", "TOKEN": "s3cret"})
	for _, src := range []string{
		"hooks:\n  pre_tool_call:\n    - command: ${HOME}/a.sh\n      timeout: 5\n    - command: /b.sh ${TOKEN}\nother: ${T}\n",
		"hooks: {pre_tool_call: [{command: \"${HOME}/x\"}, {command: '${env:T}'}]}\nlist: [a, '${HOME}', ['${T}']]\n",
		"- ${HOME}\n- plain\n",
		"${HOME}\n",
		"hooks:\n  pre_tool_call:\n    - command: /no/refs.sh\n",
		"n: !!int 3\ns: !!str ${T}\nb: ${HOME}${HOME}\nq: \"${NOPE}\"\n",
	} {
		path := filepath.Join(t.TempDir(), "config.yaml")
		if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := Load(path, env)
		if err != nil {
			t.Fatal(err)
		}
		written := TakeDecoding([]byte(src))
		if written == nil {
			t.Fatalf("%q: Load offered no decoding", src)
		}
		// The reference: a fresh decoding expanded in place, as before.
		ref := Decode([]byte(src))
		refExp := map[*yaml.Node]Expansion{}
		expandEnv(Deref(&ref.Doc), env, map[*yaml.Node]bool{}, refExp)
		copyExp := map[*yaml.Node]Expansion{}
		copied := expandCopy(Deref(&Decode([]byte(src)).Doc), env, copyExp)
		if got, want := describe(copied, copyExp), describe(Deref(&ref.Doc), refExp); got != want {
			t.Errorf("%q: expanded into copies\n%s\nin place\n%s", src, got, want)
		}
		if f.Hooks != nil {
			_, refHooks := findKey(Deref(&ref.Doc), "hooks")
			if got, want := describe(f.Hooks, f.Expansions), describe(refHooks, refExp); got != want {
				t.Errorf("%q: Load read the hooks\n%s\nthe in-place expansion\n%s", src, got, want)
			}
		}
		fresh := Decode([]byte(src))
		if asWritten, decoded := describe(Deref(&written.Doc), nil), describe(Deref(&fresh.Doc), nil); asWritten != decoded {
			t.Errorf("%q: the decoding offered was changed:\n%s\nwant\n%s", src, asWritten, decoded)
		}
	}
}

// A document with aliases is expanded in place (an alias sees its
// anchor's expansion), and its decoding, changed, is not offered.
func TestLoadWithAliasesOffersNothing(t *testing.T) {
	defer OfferDecoding(nil)
	src := "base: &b {command: \"${HOME}/x\"}\nhooks:\n  pre_tool_call: [*b]\n"
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	OfferDecoding(nil)
	f, err := Load(path, MapEnv(map[string]string{"HOME": "/home/ann"}))
	if err != nil {
		t.Fatal(err)
	}
	if TakeDecoding([]byte(src)) != nil {
		t.Error("a decoding expanded in place was offered")
	}
	item := Deref(Deref(f.Hooks).Content[1].Content[0])
	if v := Resolve(item.Content[1]).Str; v != "/home/ann/x" {
		t.Errorf("the alias reads %q, want the anchor's expansion", v)
	}
}

func findKey(m *yaml.Node, key string) (k, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], Deref(m.Content[i+1])
		}
	}
	return nil, nil
}

// describe lists every node of n, depth first, with its expansion.
func describe(n *yaml.Node, exp map[*yaml.Node]Expansion) string {
	var b strings.Builder
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		fmt.Fprintf(&b, "%s%d %q %s %d %d:%d", strings.Repeat(" ", depth), n.Kind, n.Value, n.Tag, n.Style, n.Line, n.Column)
		if x, ok := exp[n]; ok {
			fmt.Fprintf(&b, " written %q vars %q", x.Written, x.Vars)
		}
		b.WriteByte('\n')
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return b.String()
}
