package gateway

import (
	"fmt"
	"strings"
)

// Match returns the hooks that fire for event, in the order the agent runs
// them: loaded and enabled hooks subscribed to event exactly (in discovery
// order), then those subscribed to "<prefix>:*" where prefix is the text of
// event before its first ':'. A hook subscribed both ways runs once. There
// is no bare "*", and "agent" does not match "agent:start".
func Match(hooks []Hook, event string) []Hook {
	var out []Hook
	taken := make([]bool, len(hooks))
	pick := func(want string) {
		for i, h := range hooks {
			if !taken[i] && h.Loaded && h.Enabled && subscribes(h, want) {
				taken[i] = true
				out = append(out, h)
			}
		}
	}
	pick(event)
	if prefix, _, ok := strings.Cut(event, ":"); ok {
		pick(prefix + ":*")
	}
	return out
}

func subscribes(h Hook, event string) bool {
	if event == "*" {
		return false
	}
	for _, e := range h.Events {
		if e == event {
			return true
		}
	}
	return false
}

// validator checks declared event names against the known gateway events.
type validator struct {
	names    []string
	known    map[string]bool
	prefixes map[string]bool // "agent" when agent:start is known
	families map[string]bool // "command" when command:* is known
}

func newValidator(known []string) *validator {
	v := &validator{names: known, known: map[string]bool{},
		prefixes: map[string]bool{}, families: map[string]bool{}}
	for _, name := range known {
		v.known[name] = true
		if prefix, rest, ok := strings.Cut(name, ":"); ok {
			v.prefixes[prefix] = true
			if rest == "*" {
				v.families[prefix] = true
			}
		}
	}
	return v
}

// check returns a warning for name, "" when it is a known event or a
// wildcard over known events.
func (v *validator) check(name string) string {
	if name == "*" {
		return `event "*" never matches: there is no bare "*" (subscribe to "<prefix>:*", such as "agent:*")`
	}
	if v.known[name] {
		return ""
	}
	if prefix, rest, ok := strings.Cut(name, ":"); ok && rest != "" {
		if (rest == "*" && v.prefixes[prefix]) || v.families[prefix] {
			return ""
		}
	}
	msg := fmt.Sprintf("unknown event %q", name)
	if best := closest(name, v.names); best != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", best)
	}
	return msg + "; registered anyway, as the agent does"
}

// closest returns the candidate most similar to word, as Python's
// difflib.get_close_matches(word, candidates, n=1, cutoff=0.6) would, or ""
// when none is similar enough.
func closest(word string, candidates []string) string {
	const cutoff = 0.6
	best, bestScore := "", -1.0
	for _, c := range candidates {
		s := ratio(word, c)
		// difflib keeps the larger string on equal scores.
		if s >= cutoff && (s > bestScore || (s == bestScore && c > best)) {
			best, bestScore = c, s
		}
	}
	return best
}

// ratio is difflib.SequenceMatcher(None, a, b).ratio(): twice the number of
// matched characters over the total length, where matches are found by
// taking the longest common block and recursing on both sides of it.
func ratio(a, b string) float64 {
	ra, rb := []rune(a), []rune(b)
	if len(ra)+len(rb) == 0 {
		return 1
	}
	return 2 * float64(matched(ra, rb)) / float64(len(ra)+len(rb))
}

func matched(a, b []rune) int {
	i, j, k := longestBlock(a, b)
	if k == 0 {
		return 0
	}
	return k + matched(a[:i], b[:j]) + matched(a[i+k:], b[j+k:])
}

// longestBlock finds the longest common substring, earliest in a and then
// in b on ties, like difflib's find_longest_match without junk.
func longestBlock(a, b []rune) (int, int, int) {
	bi, bj, bk := 0, 0, 0
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
				if k := cur[j+1]; k > bk {
					bi, bj, bk = i-k+1, j-k+1, k
				}
			} else {
				cur[j+1] = 0
			}
		}
		prev, cur = cur, prev
	}
	return bi, bj, bk
}
