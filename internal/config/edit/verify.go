package edit

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/hermes-hooks/hermes/internal/config"
	"gopkg.in/yaml.v3"
)

// finish applies the splices and checks the result: it must be a file
// the agent reads, mean exactly want(old meaning), and keep every line no
// splice touched, byte for byte and in order.
func (d *Doc) finish(sp []splice, want func(old any) (any, error)) ([]byte, error) {
	body, err := applySplices(d.body, sp)
	if err != nil {
		return nil, err
	}
	if err := d.check(body, want); err != nil {
		return nil, err
	}
	if err := d.untouchedKept(sp, body); err != nil {
		return nil, err
	}
	if d.bom == 0 {
		return body, nil
	}
	return append(d.src[:d.bom:d.bom], body...), nil
}

// errDiffers: the edited text is read, but not as the change intended.
var errDiffers = &UnsafeError{"the result would not read back as the intended change by the agent's YAML reader"}

// check reports whether body, the edited text, is a file the agent reads
// and means want(old meaning) as the agent reads it (YAML 1.1, SPEC §14):
// the new entry must hold exactly the strings, numbers and booleans given.
func (d *Doc) check(body []byte, want func(old any) (any, error)) error {
	exp := d.expect(want)
	if exp.ok && exp.err == nil {
		if err, done := d.checkEachItem(body, exp.view, newComparer(body)); done {
			return err
		}
	}
	return d.checkWhole(body, want, exp)
}

// expectation is what the edited text must mean as the agent reads it:
// want of the old text's view (view, or err when want refused it). ok is
// false when the old view ran out of budget.
type expectation struct {
	view any
	err  error
	ok   bool
}

// expect is want of the old text's view, built once for both checks.
func (d *Doc) expect(want func(old any) (any, error)) expectation {
	oldA, ok := agentViewOf(d.root, len(d.body))
	exp := expectation{ok: ok}
	if ok {
		exp.view, exp.err = want(oldA)
	}
	return exp
}

// newComparer is a comparer whose budget suits a document of body's size.
func newComparer(body []byte) *comparer {
	return &comparer{budget: 2 * max(maxAgentNodes, 2*len(body))}
}

// checkWhole is check by the views of the whole old and new trees.
func (d *Doc) checkWhole(body []byte, want func(old any) (any, error), exp expectation) error {
	nd, err := Parse(body)
	if err != nil {
		return &UnsafeError{fmt.Sprintf("the result would not be read: %v", err)}
	}
	if newA, okNew := agentViewOf(nd.root, len(body)); exp.ok && okNew {
		cmp := newComparer(body)
		same := exp.err == nil && cmp.same(exp.view, newA)
		if cmp.budget >= 0 {
			if !same {
				return errDiffers
			}
			return nil
		}
	}
	// Only for documents whose aliases expand past the agent view's
	// budget: yaml.v3's decoding checks every mapping's keys against each
	// other, which is quadratic in a mapping's size.
	return checkByYAMLv3(d.body, body, want)
}

// checkEachItem is check of a body the fast reader takes, without a tree
// of it all: each item of an outermost list is compared with the item at
// the same path of expA, the expected view, as soon as it is read, then
// let go (a 55 MB config's tree is 700 MB; SPEC §29 item 2). done is false
// when the fast reader does not take body or the comparison ran out of
// budget: check reads it whole.
func (d *Doc) checkEachItem(body []byte, expA any, cmp *comparer) (err error, done bool) {
	var refusal *config.RefusedError
	differs := false
	// Items of one list share their path but for the last step: the list
	// expected there is found once.
	var listPath []config.PathStep
	var list []any
	take := func(path []config.PathStep, item, stub *yaml.Node) {
		if refusal != nil || differs {
			return
		}
		if refusal = config.Refusal(item); refusal != nil {
			return
		}
		parent := path[:len(path)-1]
		if list == nil || !slices.Equal(parent, listPath) {
			listPath = slices.Clone(parent)
			l, ok := force(expectedAt(expA, parent, cmp), &cmp.budget).([]any)
			if !ok {
				differs = true
				return
			}
			list = l
		}
		i := path[len(path)-1].Index
		if i < len(list) {
			if e, ok := list[i].(lazyItem); ok && config.IsStub(e.n) && config.SameStub(e.n, stub) {
				return // the same text at the same column: read alike
			}
		}
		differs = i >= len(list) || !cmp.same(list[i], lazyItem{item})
	}
	doc, ok := config.DecodeEachItem(body, take)
	if !ok {
		return nil, false
	}
	if refusal == nil {
		refusal = config.Refusal(doc)
	}
	if refusal != nil {
		return &UnsafeError{fmt.Sprintf("the result would not be read: %v", refusedByAgent(refusal))}, true
	}
	newA, okNew := agentViewOf(config.Deref(doc), len(body))
	same := !differs && okNew && cmp.same(expA, newA)
	if !okNew || cmp.budget < 0 {
		return nil, false
	}
	if !same {
		return errDiffers, true
	}
	return nil, true
}

// expectedAt is the value of the view v at path, nil when there is none.
func expectedAt(v any, path []config.PathStep, cmp *comparer) any {
	for _, st := range path {
		v = force(v, &cmp.budget)
		if st.Key != nil {
			m, _ := v.(map[string]any)
			v = m[agentKey(st.Key)]
			continue
		}
		l, _ := v.([]any)
		if st.Index >= len(l) {
			return nil
		}
		v = l[st.Index]
	}
	return v
}

// applySplices returns body with the splices applied, in one pass: the
// bytes between splices are copied once whatever their number.
func applySplices(body []byte, sp []splice) ([]byte, error) {
	// At one position an insertion goes before a cut that starts there
	// (enable puts an entry back right where hooks_disabled: began).
	sort.SliceStable(sp, func(i, j int) bool {
		if sp[i].start != sp[j].start {
			return sp[i].start < sp[j].start
		}
		return sp[i].end == sp[i].start && sp[j].end != sp[j].start
	})
	grow := 0
	for i, s := range sp {
		if i > 0 && s.start < sp[i-1].end {
			return nil, &UnsafeError{"overlapping changes"}
		}
		grow += len(s.text) - (s.end - s.start)
	}
	out := make([]byte, 0, max(0, len(body)+grow))
	at := 0
	for _, s := range sp {
		out = append(out, body[at:s.start]...)
		out = append(out, s.text...)
		at = s.end
	}
	return append(out, body[at:]...), nil
}

// checkByYAMLv3 is the check by yaml.v3's reading of both versions.
func checkByYAMLv3(oldBody, newBody []byte, want func(old any) (any, error)) error {
	var oldV, newV any
	if err := yaml.Unmarshal(oldBody, &oldV); err != nil {
		return &UnsafeError{err.Error()}
	}
	if err := yaml.Unmarshal(newBody, &newV); err != nil {
		return &UnsafeError{err.Error()}
	}
	exp, err := want(oldV)
	if err != nil {
		return &UnsafeError{err.Error()}
	}
	if !sameValue(exp, newV) {
		return &UnsafeError{"the result does not read back as the intended change"}
	}
	return nil
}

// untouchedKept checks that the lines no splice changed are all in the new
// body, in order.
func (d *Doc) untouchedKept(sp []splice, body []byte) error {
	touched := map[int]bool{}
	for _, s := range sp {
		if s.start == s.end && s.start == d.lineEnd(d.lineOf(s.start)) && strings.HasPrefix(s.text, d.nl) {
			continue // whole new lines after a line
		}
		last := s.end - 1
		if last < s.start {
			last = s.start
		}
		for l := d.lineOf(s.start); l <= d.lineOf(last); l++ {
			touched[l] = true
		}
	}
	// The lines as strings.Split(…, "\n") cuts them, walked in place: a
	// 55 MB config has 1.7 million (SPEC §29 item 2).
	oldAt, newAt := 0, 0
	for i := 1; oldAt >= 0; i++ {
		var l []byte
		l, oldAt = cutLine(d.body, oldAt)
		if touched[i] {
			continue
		}
		for {
			if newAt < 0 {
				return &UnsafeError{fmt.Sprintf("line %d would change", i)}
			}
			var nl []byte
			nl, newAt = cutLine(body, newAt)
			if bytes.Equal(nl, l) {
				break
			}
		}
	}
	return nil
}

// cutLine is the line of b that starts at at, and where the next one
// starts (-1 after the last, which has no line feed).
func cutLine(b []byte, at int) (line []byte, next int) {
	if i := bytes.IndexByte(b[at:], '\n'); i >= 0 {
		return b[at : at+i], at + i + 1
	}
	return b[at:], -1
}

// sameValue compares decoded YAML, with emptyMarker matching null or an
// empty list.
func sameValue(exp, got any) bool {
	c := comparer{budget: maxAgentNodes}
	return c.same(exp, got) && c.budget >= 0
}

// comparer compares views (agentView's, yaml.v3's or an expectation built
// from them) within a budget of nodes: lazy items are compared node by
// node, decoded only where their texts differ.
type comparer struct {
	budget int
	depth  int // of sameNode calls: see maxCompareDepth
}

// maxCompareDepth bounds how deep sameNode goes: an anchor holding an
// alias to itself is a cycle, which the budget alone let go deep enough
// to overflow the stack. Past it the comparison is over budget (and the
// check falls back to yaml.v3's reading, as for any view too big).
const maxCompareDepth = 10000

func (c *comparer) same(exp, got any) bool {
	if c.budget < 0 {
		return false
	}
	if g, ok := got.(lazyItem); ok && g.n == config.Taken {
		return true // compared as it was read (checkEachItem)
	}
	if e, ok := exp.(lazyItem); ok {
		if g, ok := got.(lazyItem); ok {
			return c.sameNode(e.n, g.n)
		}
	}
	exp, got = force(exp, &c.budget), force(got, &c.budget)
	switch e := exp.(type) {
	case emptyMarker:
		if got == nil {
			return true
		}
		l, ok := got.([]any)
		return ok && len(l) == 0
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(e) {
			return false
		}
		for k, v := range e {
			gv, ok := g[k]
			if !ok || !c.same(v, gv) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(e) {
			return false
		}
		for i := range e {
			if !c.same(e[i], g[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(exp, got)
}

// sameNode reports whether the agent reads a and b alike. Scalars written
// alike, mappings with the same keys in the same order and lists are
// compared without decoding; anything else (keys reordered or repeated,
// scalars written differently, aliases) by their views.
func (c *comparer) sameNode(a, b *yaml.Node) bool {
	c.budget--
	if c.budget < 0 || c.depth >= maxCompareDepth {
		c.budget = -1
		return false
	}
	if config.IsStub(a) || config.IsStub(b) {
		return c.sameStubs(a, b)
	}
	c.depth++
	same := c.sameNodes(a, b)
	c.depth--
	return same
}

// sameStubs is sameNode where a or b is a stub (config.IsStub): the same
// text, or else the items read, for this comparison only (stubs are
// outermost items: none is met again below).
func (c *comparer) sameStubs(a, b *yaml.Node) bool {
	if config.IsStub(a) && config.IsStub(b) && config.SameStub(a, b) {
		return true
	}
	ra, rb := readers.Get().(*config.ItemReader), readers.Get().(*config.ItemReader)
	defer readers.Put(ra)
	defer readers.Put(rb)
	return c.sameNode(ra.Read(a), rb.Read(b))
}

// sameNodes is sameNode of nodes that are not stubs.
func (c *comparer) sameNodes(a, b *yaml.Node) bool {
	if a.Kind == b.Kind && a.Tag == b.Tag && a.Style == b.Style {
		switch a.Kind {
		case yaml.ScalarNode:
			if a.Value == b.Value {
				return true
			}
		case yaml.SequenceNode:
			if len(a.Content) != len(b.Content) {
				return false
			}
			for i := range a.Content {
				if !c.sameNode(a.Content[i], b.Content[i]) {
					return false
				}
			}
			return true
		case yaml.MappingNode:
			if c.samePairs(a, b) {
				return true
			}
		}
	}
	va, vb := agentValue(a, &c.budget), agentValue(b, &c.budget)
	return c.same(va, vb)
}

// unstubbed is n's item when n is a stub (config.IsStub), else n.
func unstubbed(n *yaml.Node) *yaml.Node {
	if config.IsStub(n) {
		return config.Deref(n)
	}
	return n
}

// samePairs: a and b hold keys written alike, in the same order, with
// values read alike (then their views are equal whatever the keys).
func (c *comparer) samePairs(a, b *yaml.Node) bool {
	if len(a.Content) != len(b.Content) {
		return false
	}
	for i := 0; i+1 < len(a.Content); i += 2 {
		ka, kb := a.Content[i], b.Content[i]
		if ka.Kind != yaml.ScalarNode || kb.Kind != yaml.ScalarNode || ka.Tag != kb.Tag || ka.Style != kb.Style || ka.Value != kb.Value {
			return false
		}
		if !c.sameNode(a.Content[i+1], b.Content[i+1]) {
			return false
		}
	}
	return true
}
