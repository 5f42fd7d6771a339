package edit

import (
	"math/rand/v2"
	"testing"

	"gopkg.in/yaml.v3"
)

// plainPath's shortcut agrees with yaml.v3's reading: every string it
// accepts (that plainOK's earlier checks let through) reads back as
// itself, plain, in a block and in a flow collection.
func TestPlainPathAsYAMLReadsIt(t *testing.T) {
	const chars = "/._-~+= aZ09:#,[]{}&*!|>'\"%@`?\t"
	r := rand.New(rand.NewPCG(1, 2))
	cases := []string{"/usr/bin/hermes-guard --event pre_tool_call -- /opt/h.sh 0000001", "/", "/a b", "/x=1 +2 ~3", "/a  b", "/-", "/a -- -b"}
	for range 20000 {
		b := []byte{'/'}
		for n := r.IntN(12); n > 0; n-- {
			b = append(b, chars[r.IntN(len(chars))])
		}
		cases = append(cases, string(b))
	}
	accepted := 0
	for _, s := range cases {
		for _, flow := range []bool{false, true} {
			if !plainPath(s) || !plainOK(s, flow) {
				continue
			}
			accepted++
			doc, want := "k: "+s, any(s)
			if flow {
				doc, want = "k: ["+s+"]", []any{s}
			}
			var v map[string]any
			if err := yaml.Unmarshal([]byte(doc), &v); err != nil || !sameValue(v["k"], want) {
				t.Errorf("%q (flow %v) written plain reads back as %#v (%v)", s, flow, v["k"], err)
			}
		}
	}
	if accepted < 1000 {
		t.Fatalf("only %d strings took the shortcut: the test proves little", accepted)
	}
}
