package edit

import "testing"

// TestAgentViewSeesYAML11: the check after an edit tells apart what yaml.v3
// reads as one string but the agent as a boolean, a number or a date.
func TestAgentViewSeesYAML11(t *testing.T) {
	for _, s := range []string{"yes", "on", "y", "N", "1:20", "2001-12-14", "=", "<<", "~", "0x1F", "1.0e3"} {
		plain, _ := agentView([]byte("k: " + s + "\n"))
		quoted, _ := agentView([]byte("k: '" + s + "'\n"))
		if sameValue(plain, quoted) {
			t.Errorf("%q plain and quoted read alike: %#v", s, plain)
		}
		if q := quoted.(map[string]any)["k"]; q != s {
			t.Errorf("quoted %q read as %#v", s, q)
		}
	}
	if _, ok := agentView([]byte("k: [\n")); ok {
		t.Error("a broken document has a view")
	}
}
