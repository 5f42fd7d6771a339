package config

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// Kind is what a YAML value is, as the Python agent's loader sees it.
type Kind int

const (
	KindNull Kind = iota
	KindBool
	KindInt
	KindFloat
	KindString
	KindList
	KindMapping
	// KindBinary is a !!binary value: bytes to the agent, never a string.
	KindBinary
)

// Value is a YAML node resolved with the YAML 1.1 rules of the agent's
// reader (SPEC §14). yaml.v3 follows YAML 1.2, where `yes` and `y` are
// strings and `1e3` a float; the agent reads `yes`, `y`, `Y`, `n`, `N` as
// booleans, `1.0e3` and `1.e3` as floats and `1e3` (no dot) as a string, and
// hermes must agree with the agent on what a hook's fail_closed or timeout
// is.
type Value struct {
	Kind  Kind
	Bool  bool
	Int   int64 // saturates at ±MaxInt64: Python ints are unbounded
	Float float64
	Str   string
	Node  *yaml.Node // the resolved node (aliases followed)
}

// Describe renders the value for a message: "a list", "null", `"3.5"`, 2.5.
func (v Value) Describe() string {
	switch v.Kind {
	case KindNull:
		return "null"
	case KindList:
		return "a list"
	case KindMapping:
		return "a mapping"
	case KindString:
		return strconv.Quote(v.Str)
	case KindBinary:
		return "binary data (!!binary)"
	}
	return v.Node.Value
}

// maxAliasDepth bounds alias chains; yaml.v3 accepts self-referencing
// anchors in nodes, so following them blindly could loop.
const maxAliasDepth = 32

// Deref follows aliases, unwraps a document node and reads a stub's item
// (IsStub: a new tree on every call).
func Deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && i < maxAliasDepth; i++ {
		switch n.Kind {
		case yaml.AliasNode:
			n = n.Alias
		case yaml.DocumentNode:
			if len(n.Content) == 0 {
				return nil
			}
			n = n.Content[0]
		default:
			if IsStub(n) {
				return unstub(n)
			}
			return n
		}
	}
	return nil
}

var (
	pyInt = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$`)
	})
	pyFloat = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
	})
)

// PyYAML's resolvers for null and bool are word lists: a switch says the
// same as the regular expressions `^(?:~|null|Null|NULL|)$` and
// `^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|...|off|Off|OFF)$`, without
// running one for every scalar of a thousand-hook config.
func isPyNull(s string) bool {
	switch s {
	case "~", "null", "Null", "NULL", "":
		return true
	}
	return false
}

func isPyBool(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE",
		"false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF":
		return true
	}
	return false
}

// mayBeNumber is false for a scalar neither pyInt nor pyFloat can match:
// both need a sign, a digit or a dot first.
func mayBeNumber(s string) bool {
	return s != "" && strings.IndexByte("+-.0123456789", s[0]) >= 0
}

// isPlainDecimal is true for the usual integer, 0 or digits without a
// leading 0 (timeout: 10): a case of pyInt decided without running it.
func isPlainDecimal(s string) bool {
	if s == "0" {
		return true
	}
	if s == "" || s[0] < '1' || s[0] > '9' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Resolve returns what n means to the agent. A nil node is null.
func Resolve(n *yaml.Node) Value {
	n = Deref(n)
	if n == nil {
		return Value{Kind: KindNull}
	}
	v := Value{Node: n}
	switch n.Kind {
	case yaml.SequenceNode:
		v.Kind = KindList
		return v
	case yaml.MappingNode:
		v.Kind = KindMapping
		return v
	}
	tag := ""
	switch {
	case n.Style&yaml.TaggedStyle != 0:
		tag = n.Tag
	case n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		tag = "!!str"
	case isPyNull(n.Value):
		tag = "!!null"
	case isPyBool(n.Value):
		tag = "!!bool"
	case isPlainDecimal(n.Value) || mayBeNumber(n.Value) && pyInt().MatchString(n.Value):
		tag = "!!int"
	case mayBeNumber(n.Value) && pyFloat().MatchString(n.Value):
		tag = "!!float"
	}
	switch tag {
	case "!!null":
		v.Kind = KindNull
	case "!!bool":
		v.Kind, v.Bool = KindBool, yes(n.Value)
	case "!!int":
		if i, ok := pyParseInt(n.Value); ok {
			v.Kind, v.Int = KindInt, i
			return v
		}
		v.Kind, v.Str = KindString, n.Value
	case "!!float":
		if f, ok := pyParseFloat(n.Value); ok {
			v.Kind, v.Float = KindFloat, f
			return v
		}
		v.Kind, v.Str = KindString, n.Value
	case "!!binary":
		v.Kind = KindBinary
	default:
		v.Kind, v.Str = KindString, n.Value
	}
	return v
}

func yes(s string) bool {
	switch strings.ToLower(s) {
	case "yes", "true", "on", "y", "1":
		return true
	}
	return false
}

// pyParseInt follows PyYAML's construct_yaml_int: underscores dropped,
// 0b binary, 0x hex, a leading 0 octal, a:b:c base 60.
func pyParseInt(s string) (int64, bool) {
	s = strings.ReplaceAll(s, "_", "")
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	var n uint64
	var err error
	switch {
	case s == "":
		return 0, false
	case strings.Contains(s, ":"):
		for _, part := range strings.Split(s, ":") {
			d, perr := strconv.ParseUint(part, 10, 64)
			if perr != nil || n > math.MaxInt64/60 {
				n, err = math.MaxInt64, perr
				break
			}
			n = n*60 + d
		}
	case strings.HasPrefix(s, "0b"):
		n, err = strconv.ParseUint(s[2:], 2, 64)
	case strings.HasPrefix(s, "0x"):
		n, err = strconv.ParseUint(s[2:], 16, 64)
	case s != "0" && s[0] == '0':
		n, err = strconv.ParseUint(s[1:], 8, 64)
	default:
		n, err = strconv.ParseUint(s, 10, 64)
	}
	if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		n, err = math.MaxInt64, nil
	}
	if err != nil {
		return 0, false
	}
	if n > math.MaxInt64 {
		n = math.MaxInt64
	}
	if neg {
		return -int64(n), true
	}
	return int64(n), true
}

func pyParseFloat(s string) (float64, bool) {
	s = strings.ToLower(strings.ReplaceAll(s, "_", ""))
	sign := 1.0
	if s != "" && (s[0] == '-' || s[0] == '+') {
		if s[0] == '-' {
			sign = -1
		}
		s = s[1:]
	}
	switch {
	case s == ".inf":
		return sign * math.Inf(1), true
	case s == ".nan":
		return math.NaN(), true
	case strings.Contains(s, ":"):
		parts := strings.Split(s, ":")
		f := 0.0
		for i, p := range parts {
			d, err := strconv.ParseFloat(p, 64)
			if err != nil || (i < len(parts)-1 && strings.Contains(p, ".")) {
				return 0, false
			}
			f = f*60 + d
		}
		return sign * f, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !isRange(err) {
		return 0, false
	}
	return sign * f, true
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// Pair is one key of a mapping with its value.
type Pair struct {
	Key string
	KeyNode,
	Value *yaml.Node
}

// Pairs lists a mapping's keys in order the way the agent sees them: merge
// keys (`<<: *base`) applied, explicit keys winning over merged ones, and a
// repeated key keeping its first position but its last value (a Python
// dict). dups lists the repeated keys (explicit ones only), in order, for
// a warning. A node that is not a mapping has no pairs.
func Pairs(n *yaml.Node) (pairs []Pair, dups []Pair) {
	return PairsInto(nil, n)
}

// PairsInto is Pairs reusing buf's room for the pairs of a small mapping
// (a hook entry's), for a caller that reads many and keeps none.
func PairsInto(buf []Pair, n *yaml.Node) (pairs []Pair, dups []Pair) {
	n = Deref(n)
	if pairs, dups, ok := smallPairs(buf[:0], n); ok {
		return pairs, dups
	}
	return pairs0(n, map[*yaml.Node][]Pair{}, map[*yaml.Node]bool{})
}

// smallPairs is Pairs for the usual mapping, a hook entry's: a few keys
// and no merge key. A linear scan finds repeated keys, where pairs0 builds
// four maps (a 1,000-hook config has 1,000 such mappings). ok is false
// for any other node.
func smallPairs(pairs []Pair, n *yaml.Node) (_ []Pair, dups []Pair, ok bool) {
	if n == nil || n.Kind != yaml.MappingNode || len(n.Content) > 32 {
		return nil, nil, false
	}
	if len(n.Content) >= 2 && pairs == nil {
		pairs = make([]Pair, 0, len(n.Content)/2)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if isMergeKey(k) {
			return nil, nil, false
		}
		p := Pair{Key: keyString(k), KeyNode: k, Value: v}
		if j := slices.IndexFunc(pairs, func(q Pair) bool { return q.Key == p.Key }); j >= 0 {
			dups = append(dups, p)
			pairs[j].KeyNode, pairs[j].Value = k, v
			continue
		}
		pairs = append(pairs, p)
	}
	return pairs, dups, true
}

// isMergeKey reports whether k is YAML's merge key: a plain, untagged <<.
func isMergeKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Value == "<<" && k.Style&(yaml.TaggedStyle|yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0
}

// pairs0 memoises each merged mapping's pairs: mappings merging an alias
// twice at every level would otherwise cost 2^depth. busy breaks cycles
// (an anchor merged into itself).
func pairs0(n *yaml.Node, memo map[*yaml.Node][]Pair, busy map[*yaml.Node]bool) (pairs []Pair, dups []Pair) {
	if n == nil || n.Kind != yaml.MappingNode || busy[n] {
		return nil, nil
	}
	if p, ok := memo[n]; ok {
		return p, nil
	}
	busy[n] = true
	defer func() {
		delete(busy, n)
		memo[n] = pairs
	}()
	// PyYAML's flatten_mapping puts merged pairs before the explicit ones
	// (and, for a list of merged mappings, the earlier mapping last so it
	// wins); the dict built from them keeps first positions, last values.
	var merged, explicit []Pair
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if isMergeKey(k) {
			m := Deref(v)
			sources := []*yaml.Node{m}
			if m != nil && m.Kind == yaml.SequenceNode {
				sources = m.Content
			}
			for j := len(sources) - 1; j >= 0; j-- {
				sub, _ := pairs0(Deref(sources[j]), memo, busy)
				merged = append(merged, sub...)
			}
			continue
		}
		explicit = append(explicit, Pair{Key: keyString(k), KeyNode: k, Value: v})
	}
	index := map[string]int{}
	seen := map[string]bool{}
	for i, p := range append(merged, explicit...) {
		if i >= len(merged) {
			if seen[p.Key] {
				dups = append(dups, p)
			}
			seen[p.Key] = true
		}
		if j, ok := index[p.Key]; ok {
			pairs[j].Value = p.Value
			pairs[j].KeyNode = p.KeyNode
			continue
		}
		index[p.Key] = len(pairs)
		pairs = append(pairs, p)
	}
	return pairs, dups
}

func keyString(k *yaml.Node) string {
	k = Deref(k)
	if k == nil {
		return ""
	}
	if k.Kind == yaml.ScalarNode {
		return k.Value
	}
	return fmt.Sprintf("<%s at line %d>", map[yaml.Kind]string{yaml.SequenceNode: "list", yaml.MappingNode: "mapping"}[k.Kind], k.Line)
}
