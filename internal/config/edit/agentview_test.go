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

// forceAll is a view with every lazy item decoded: the view as it was
// before items were lazy, the oracle of the comparer.
func forceAll(v any) any {
	budget := maxAgentNodes
	switch t := force(v, &budget).(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range t {
			out[k] = forceAll(x)
		}
		return out
	case []any:
		out := []any{}
		for _, x := range t {
			out = append(out, forceAll(x))
		}
		return out
	default:
		return t
	}
}

// TestComparerLazyItems: comparing views whose list items are lazy (node
// by node) says what comparing the fully decoded views says, for items
// written alike, reordered, repeated, aliased, nested, or read differently
// by the agent.
func TestComparerLazyItems(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"l:\n- {a: 1, b: on}\n", "l:\n- {a: 1, b: 'on'}\n", false},
		{"l:\n- a: 1\n  b: on\n", "l:\n- a: 1\n  b: on\n", true},
		{"l:\n- a: 1\n  b: 2\n", "l:\n- b: 2\n  a: 1\n", true},
		{"l:\n- a: 1\n  a: 2\n", "l:\n- a: 2\n", true},
		{"l:\n- a: 1\n  a: 2\n", "l:\n- a: 3\n  a: 2\n", true},
		{"l:\n- a: 1\n  a: 2\n", "l:\n- a: 2\n  a: 1\n", false},
		{"x: &a {k: v}\nl:\n- *a\n", "x: {k: v}\nl:\n- {k: v}\n", true},
		{"x: &a {k: v}\nl:\n- *a\n", "x: {k: v}\nl:\n- {k: w}\n", false},
		{"l:\n- - 1\n  - yes\n", "l:\n- - 1\n  - 'yes'\n", false},
		{"l:\n- - 1\n  - yes\n", "l:\n- [1, yes]\n", true},
		{"l:\n- {t: 0x10}\n", "l:\n- {t: 16}\n", true},
		{"l:\n- {t: 1.0}\n", "l:\n- {t: 1}\n", false},
		{"l:\n- {t: 1}\n- {t: 2}\n", "l:\n- {t: 1}\n", false},
		{"l:\n- {t: 1}\n", "l:\n- t: 1\n", true},
		{"l:\n- {t: ~}\n", "l:\n- {t: null}\n", true},
		{"l:\n- {t: [a, {b: c}]}\n", "l:\n- {t: [a, {b: 'c'}]}\n", true},
		{"l:\n- {t: [a, {b: c}]}\n", "l:\n- {t: [a, {b: d}]}\n", false},
		{"l:\n- {1: a}\n", "l:\n- {'1': a}\n", false},
	} {
		va, okA := agentView([]byte(c.a))
		vb, okB := agentView([]byte(c.b))
		if !okA || !okB {
			t.Fatalf("%q / %q: no view", c.a, c.b)
		}
		cmp := comparer{budget: maxAgentNodes}
		got := cmp.same(va, vb)
		oracle := comparer{budget: maxAgentNodes}
		want := oracle.same(forceAll(va), forceAll(vb))
		if got != c.same || want != c.same {
			t.Errorf("%q vs %q: lazy %v, decoded %v, want %v", c.a, c.b, got, want, c.same)
		}
	}
}
