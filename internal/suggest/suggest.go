// Package suggest finds the "did you mean" candidate for a misspelt name
// exactly as the agent does (Python's difflib.get_close_matches), so hermes
// and the agent give users the same hints.
package suggest

import "strings"

// Name returns the candidate closest to a name the user typed, ignoring
// case and surrounding white space (PRE_TOOL_CALL and "pre_tool_call "
// both find pre_tool_call): Closest on the folded forms. An exact match
// after folding wins outright.
func Name(name string, candidates []string) string {
	key := strings.ToLower(strings.TrimSpace(name))
	lower := make([]string, len(candidates))
	for i, c := range candidates {
		lower[i] = strings.ToLower(c)
		if lower[i] == key {
			return c
		}
	}
	best := Closest(key, lower)
	for i, l := range lower {
		if best != "" && l == best {
			return candidates[i]
		}
	}
	return ""
}

// Closest returns the candidate closest to name, as Python's
// difflib.get_close_matches(name, candidates, n=1, cutoff=0.6) would: the
// agent builds its "did you mean" hints that way, so users get the same hint
// from both. It returns "" when no candidate is close enough.
func Closest(name string, candidates []string) string {
	const cutoff = 0.6
	word := []rune(name)
	m := newMatcher(word)
	best, bestScore := "", -1.0
	for _, c := range candidates {
		a := []rune(c)
		// Like difflib, try the cheap upper bounds first.
		if m.realQuickRatio(a) < cutoff || m.quickRatio(a) < cutoff {
			continue
		}
		score := m.ratio(a)
		if score < cutoff {
			continue
		}
		// get_close_matches takes heapq.nlargest of (score, candidate)
		// pairs, so among equal scores the greatest string wins.
		if score > bestScore || (score == bestScore && c > best) {
			best, bestScore = c, score
		}
	}
	return best
}

// matcher is difflib.SequenceMatcher with b fixed (the word being matched,
// like get_close_matches's set_seq2) and no junk function.
type matcher struct {
	b      []rune
	b2j    map[rune][]int
	counts map[rune]int // every element of b, for quickRatio
	// j2len and newj2len are longest's rows, kept to avoid allocating.
	j2len, newj2len []int
}

func newMatcher(b []rune) *matcher {
	m := &matcher{b: b, b2j: map[rune][]int{}, counts: map[rune]int{},
		j2len: make([]int, len(b)+1), newj2len: make([]int, len(b)+1)}
	for j, r := range b {
		m.b2j[r] = append(m.b2j[r], j)
		m.counts[r]++
	}
	// difflib's autojunk: in long sequences, very frequent elements are
	// dropped from the index (they still extend matches, below).
	if n := len(b); n >= 200 {
		limit := n/100 + 1
		for r, js := range m.b2j {
			if len(js) > limit {
				delete(m.b2j, r)
			}
		}
	}
	return m
}

// realQuickRatio bounds ratio from above by the lengths alone.
func (m *matcher) realQuickRatio(a []rune) float64 {
	la, lb := len(a), len(m.b)
	if la+lb == 0 {
		return 1.0
	}
	return 2.0 * float64(min(la, lb)) / float64(la+lb)
}

// quickRatio bounds ratio from above by the elements in common, ignoring
// order.
func (m *matcher) quickRatio(a []rune) float64 {
	if len(a)+len(m.b) == 0 {
		return 1.0
	}
	avail := make(map[rune]int, len(a))
	matches := 0
	for _, r := range a {
		n, seen := avail[r]
		if !seen {
			n = m.counts[r]
		}
		avail[r] = n - 1
		if n > 0 {
			matches++
		}
	}
	return 2.0 * float64(matches) / float64(len(a)+len(m.b))
}

// ratio is SequenceMatcher(None, a, b).ratio(): 2*M/T, M the number of
// matched elements, T the total length.
func (m *matcher) ratio(a []rune) float64 {
	total := len(a) + len(m.b)
	if total == 0 {
		return 1.0
	}
	return 2.0 * float64(m.matched(a)) / float64(total)
}

// matched sums the sizes of get_matching_blocks(): longest match first, then
// recursively the pieces left of and right of it.
func (m *matcher) matched(a []rune) int {
	type span struct{ alo, ahi, blo, bhi int }
	queue := []span{{0, len(a), 0, len(m.b)}}
	sum := 0
	for len(queue) > 0 {
		s := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		i, j, k := m.longest(a, s.alo, s.ahi, s.blo, s.bhi)
		if k == 0 {
			continue
		}
		sum += k
		if s.alo < i && s.blo < j {
			queue = append(queue, span{s.alo, i, s.blo, j})
		}
		if i+k < s.ahi && j+k < s.bhi {
			queue = append(queue, span{i + k, s.ahi, j + k, s.bhi})
		}
	}
	return sum
}

// longest is find_longest_match: the longest common run of a[alo:ahi] and
// b[blo:bhi], earliest in a, then earliest in b, among the longest.
func (m *matcher) longest(a []rune, alo, ahi, blo, bhi int) (besti, bestj, bestsize int) {
	besti, bestj = alo, blo
	// j2len[j+1] is the length of the match ending at a[i-1], b[j] (difflib
	// keeps these in a dict per row); only the entries a row set are
	// non-zero, and they are cleared again before the slices are swapped.
	prev, cur := m.j2len, m.newj2len
	var prevSet, curSet []int
	for i := alo; i < ahi; i++ {
		for _, j := range m.b2j[a[i]] {
			if j < blo {
				continue
			}
			if j >= bhi {
				break
			}
			k := prev[j] + 1
			cur[j+1] = k
			curSet = append(curSet, j+1)
			if k > bestsize {
				besti, bestj, bestsize = i-k+1, j-k+1, k
			}
		}
		for _, x := range prevSet {
			prev[x] = 0
		}
		prev, cur = cur, prev
		prevSet, curSet = curSet, prevSet[:0]
	}
	for _, x := range prevSet {
		prev[x] = 0
	}
	// Extend with elements autojunk removed from the index (no-op otherwise).
	for besti > alo && bestj > blo && a[besti-1] == m.b[bestj-1] {
		besti, bestj, bestsize = besti-1, bestj-1, bestsize+1
	}
	for besti+bestsize < ahi && bestj+bestsize < bhi && a[besti+bestsize] == m.b[bestj+bestsize] {
		bestsize++
	}
	return besti, bestj, bestsize
}
