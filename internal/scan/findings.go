package scan

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"

	"github.com/hermes-hooks/hermes/internal/regfile"
)

// Patterns of code that fetches code and runs it, and of programs that
// talk to a host. They are read from the command and from the text of each
// script of the hook's code inside the checkout: a worm hides its `curl |
// sh` in the script a harmless-looking command names. Text, not a parse:
// what a pattern finds is shown, for a person to judge. Compiled on first
// use: every hermes command initialises this package, few scan
// (docs/performance.md).
var (
	downloadsAndRuns = sync.OnceValue(func() []*regexp.Regexp {
		return []*regexp.Regexp{
			regexp.MustCompile(`\b(curl|wget|fetch)\b[^|;&\n]*\|\s*(sudo\s+)?(env\s+)?(ba|da|z|k|fi)?sh\b`),
			regexp.MustCompile(`\b(curl|wget)\b[^|;&\n]*\|\s*(sudo\s+)?(python[0-9.]*|perl|ruby|node|php)\b`),
			regexp.MustCompile(`\b(ba|z|k)?sh\s+<\(\s*(curl|wget)\b`),
			regexp.MustCompile(`\b(ba|z|k)?sh\s+-c\s+["']?\$\(\s*(curl|wget)\b`),
			regexp.MustCompile(`\beval\s+["']?\$\(\s*(curl|wget)\b`),
			regexp.MustCompile(`\bnpx\s+(-y|--yes)\b`),
			regexp.MustCompile(`\bnpm\s+exec\s+(-y|--yes)\b`),
			regexp.MustCompile(`\buvx\s`),
			regexp.MustCompile(`\bpipx\s+run\b`),
			regexp.MustCompile(`\b(pip[0-9.]*|python[0-9.]*\s+-m\s+pip)\s+install\b`),
		}
	})
	network = sync.OnceValue(func() []*regexp.Regexp {
		return []*regexp.Regexp{
			regexp.MustCompile(`(^|[\s|;&(/'"])(curl|wget|nc|ncat|netcat|socat|ssh|scp|sftp|rsync|telnet|ftp|aria2c)(\s|$)`),
			regexp.MustCompile(`/dev/(tcp|udp)/`),
			regexp.MustCompile(`\bgit\s+(clone|fetch|pull|push|ls-remote)\b`),
			regexp.MustCompile(`\b(urllib\.request|urlopen|http\.client|requests\.(get|post|put)|socket\.socket)\b`),
			regexp.MustCompile(`\bfetch\(\s*['"` + "`" + `]https?://`),
			regexp.MustCompile(`https?://[A-Za-z0-9.-]+`),
		}
	})
)

// maxScriptText bounds how much of a script is read for patterns.
const maxScriptText = 1 << 20

// hookFindings says what a reviewer should know about one hook.
func (c *checkout) hookFindings(h Hook, a *Agent, code Code) []Finding {
	var out []Finding
	add := func(kind, msg string) {
		out = append(out, Finding{Kind: kind, Agent: h.Agent, File: h.File, Line: h.Line, Event: h.Event,
			Command: h.Command, Message: msg})
	}
	if a.AtSessionStart(h.Event) {
		add(KindSessionStart, fmt.Sprintf("runs at session start (%s: no user action needed)", h.Event))
	}
	for _, f := range code.Files {
		if _, in := within(c.dir, f.Path); !in && !f.System {
			add(KindOutside, "runs code from outside the checkout: "+f.Path)
			break
		}
	}
	texts := []struct{ where, text string }{{"", h.Command}}
	for _, f := range code.Files {
		if rel, in := within(c.dir, f.Path); in {
			if t, ok := scriptText(f.Path); ok {
				texts = append(texts, struct{ where, text string }{rel, t})
			}
		}
	}
	if what, where, ok := firstMatch(downloadsAndRuns(), texts); ok {
		add(KindDownloads, "downloads and runs: "+what+where)
	}
	if what, where, ok := firstMatch(network(), texts); ok {
		add(KindNetwork, "network: "+what+where)
	}
	return out
}

// firstMatch finds the first pattern that matches any text; where names
// the script it was found in.
func firstMatch(pats []*regexp.Regexp, texts []struct{ where, text string }) (what, where string, ok bool) {
	for _, t := range texts {
		for _, p := range pats {
			if m := p.FindString(t.text); m != "" {
				if t.where != "" {
					where = " (in " + t.where + ")"
				}
				return strings.TrimSpace(strings.Trim(strings.TrimSpace(m), `('"/|;&`)), where, true
			}
		}
	}
	return "", "", false
}

// scriptText is a file's text when it looks like a script: a regular
// file, not binary (no NUL in its first bytes), read up to a bound.
func scriptText(p string) (string, bool) {
	f, err := regfile.Open(p)
	if err != nil {
		return "", false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	data, err := io.ReadAll(io.LimitReader(f, maxScriptText))
	if err != nil || strings.IndexByte(string(data[:min(len(data), 8000)]), 0) >= 0 {
		return "", false
	}
	return string(data), true
}

// hash is a regular file's sha256 (memoised); ok false when it cannot be
// read (missing, or not a regular file).
func (c *checkout) hash(p string) (string, bool) {
	if c.hashes == nil {
		c.hashes = map[string]string{}
	}
	if s, ok := c.hashes[p]; ok {
		return s, s != ""
	}
	sum := ""
	if f, err := regfile.Open(p); err == nil {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			h := sha256.New()
			if _, err := io.Copy(h, f); err == nil {
				sum = hex.EncodeToString(h.Sum(nil))
			}
		}
		f.Close()
	}
	c.hashes[p] = sum
	return sum, sum != ""
}
