package hookspec

import (
	"strings"

	"github.com/hermes-hooks/hermes/internal/suggest"
)

// EntryKeys are the keys of a shell-hook entry this tool knows: the
// agent's (command, matcher, timeout, fail_closed and its failClosed
// spelling) and this tool's own (replay, SPEC §26), which the agent
// ignores.
var EntryKeys = []string{"command", "matcher", "timeout", "fail_closed", "failClosed", "replay"}

// keyEffects says what the agent does when a key is missing, for the
// warning about a misspelled one: the consequence is what a user needs.
var keyEffects = map[string]string{
	"command":     "the hook has no command",
	"matcher":     "the hook applies to every tool call",
	"timeout":     "the default timeout applies",
	"fail_closed": "the hook fails open",
	"failClosed":  "the hook fails open",
	"replay":      "the hook is replayed",
}

// misspelled warns about the keys of an entry that look like a known key
// misspelled (SPEC §28 item 2): the agent ignores keys it does not know
// without a word, so `matchr: terminal` makes a guard fire for every tool.
// A key far from every known one (a note of the user's) is left alone.
func (p *parser) misspelled(at entryPath, f fieldSet) {
	for _, pr := range f {
		want := MisspelledKey(pr.Key)
		if want == "" {
			continue
		}
		if _, given := f.get(want); given {
			continue // a stray second spelling beside the real key
		}
		p.advise(at.key(pr.Key), pr.KeyNode.Line, "unknown key %q — did you mean %q? The agent ignores keys it does not know, silently: %s",
			pr.Key, want, keyEffects[want])
	}
}

// MisspelledKey is the known entry key that key looks like a misspelling
// of, "" when key is known or like none: equal but for '-'/'_' and case,
// or within two edits.
func MisspelledKey(key string) string {
	for _, k := range EntryKeys {
		if key == k {
			return ""
		}
	}
	fold := func(s string) string {
		return strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(s))
	}
	for _, k := range EntryKeys {
		if fold(key) == fold(k) {
			return k
		}
	}
	best, bestD := "", 3
	for _, k := range EntryKeys {
		if d := suggest.Distance(strings.ToLower(key), strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}
