// Package pyre gives Go the meaning of Python 3.11's re.fullmatch, which the
// agent uses for hook matchers: a parser with CPython's syntax rules (what
// re.compile refuses, Compile refuses, with Python's message) translates
// the pattern into regexp2's syntax, where it runs on a backtracking engine
// (look-around, back-references, atomic groups and possessive quantifiers
// need one) with a match timeout, so a hostile pattern cannot hang us.
package pyre

import (
	"errors"
	"sync"
	"time"

	"github.com/dlclark/regexp2/v2"
)

// MatchTimeout bounds one match (regexp2 checks its clock about every
// 100 ms, so an abandoned match may take a little longer). Tool names are
// short: a legitimate matcher answers in microseconds, so reaching this
// means catastrophic backtracking, where Python would spin for ever.
const MatchTimeout = 500 * time.Millisecond

// falseTimeoutRetries is how many times a match reported as timed out
// after less than MatchTimeout of real time is run again. regexp2 reads
// time from a clock that a goroutine advances every 100 ms; when that
// goroutine is starved (a loaded machine), a deadline computed from a
// stale reading can expire at the next tick, after microseconds of work.
// A guard hook must not silently stop matching because of that.
const falseTimeoutRetries = 5

// ErrTimeout is returned by FullMatch when a match was abandoned: it ran
// past MatchTimeout, or past regexp2's backtracking stack limit (100,000
// entries), which patterns like (a|){99999999} reach at once.
var ErrTimeout = errors.New("the pattern backtracks too much to match (over 500ms or regexp2's stack limit); treated as no match")

// Regexp is a compiled Python pattern. Compile only checks it (which is
// what decides whether Python accepts it: a glance for the usual simple
// patterns, a parse for the rest); the regexp2 program, which costs
// 40-180 µs to build, is built on the first match, so listing a thousand
// hooks with distinct matchers does not build a thousand programs.
type Regexp struct {
	src    string
	parsed bool // seq and flags are set; else parse on the first match
	seq    []*node
	flags  int

	once  sync.Once
	re    *regexp2.Regexp
	reErr error
}

// Compile compiles pattern with Python's rules. A pattern Python refuses
// returns an *Error; so does one past Python's own limits (a repeat count
// of 2**32-1 or more, nesting deep enough to exhaust Python's recursion),
// where re.compile raises OverflowError or RecursionError instead.
func Compile(pattern string) (*Regexp, error) {
	cache.Lock()
	c, ok := cache.m[pattern]
	cache.Unlock()
	if ok {
		return c.re, c.err
	}
	var re *Regexp
	var err error
	if simple(pattern) {
		re = &Regexp{src: pattern}
	} else {
		re, err = parsePattern(pattern)
	}
	cache.Lock()
	if len(cache.m) >= maxCache || cache.m == nil {
		cache.m = make(map[string]cached)
	}
	cache.m[pattern] = cached{re, err}
	cache.Unlock()
	return re, err
}

// The compiled patterns, as Python's re keeps them: a config often gives
// many hooks the same matcher, and compiling costs tens of microseconds.
const maxCache = 512

type cached struct {
	re  *Regexp
	err error
}

var cache struct {
	sync.Mutex
	m map[string]cached
}

// parsePattern checks pattern with Python's rules and keeps what the
// program will be built from.
func parsePattern(pattern string) (*Regexp, error) {
	p, seq, err := parse(pattern)
	if err != nil {
		return nil, err
	}
	flags := p.flags
	if flags&flagASCII == 0 {
		flags |= flagUnicode
	}
	return &Regexp{src: pattern, parsed: true, seq: seq, flags: flags}, nil
}

// compile is Compile without the cache, building the program at once.
func compile(pattern string) (*Regexp, error) {
	r, err := parsePattern(pattern)
	if err != nil {
		return nil, err
	}
	if err := r.program(); err != nil {
		return nil, err
	}
	return r, nil
}

// program builds the regexp2 program once and reports whether it could.
func (r *Regexp) program() error {
	r.once.Do(func() {
		if !r.parsed {
			p, err := parsePattern(r.src)
			if err != nil {
				// simple let through a pattern Python refuses: our bug
				// (FuzzSimple looks for it).
				r.reErr = &Error{Msg: "internal error: a pattern taken as simple does not parse: " + err.Error(), Pos: -1}
				return
			}
			r.seq, r.flags, r.parsed = p.seq, p.flags, true
		}
		re, err := regexp2.Compile(emitPattern(r.seq, r.flags))
		if err != nil {
			// A translation regexp2 cannot read is our bug, not the
			// user's; report it as such rather than pretend Python
			// refused it. FuzzCompile looks for it.
			r.reErr = &Error{Msg: "internal error translating the pattern: " + err.Error(), Pos: -1}
			return
		}
		re.MatchTimeout = MatchTimeout
		r.re, r.seq = re, nil
	})
	return r.reErr
}

// String is the pattern as given.
func (r *Regexp) String() string { return r.src }

// FullMatch is Python's re.fullmatch(pattern, s) is not None. When the
// match is abandoned (timeout, or regexp2's backtracking stack limit) it
// reports false with ErrTimeout.
func (r *Regexp) FullMatch(s string) (bool, error) {
	if err := r.program(); err != nil {
		return false, err
	}
	for try := 0; ; try++ {
		start := time.Now()
		ok, err := r.re.MatchString(s)
		switch {
		case err == nil:
			return ok, nil
		case errors.Is(err, regexp2.ErrBacktrackingStackLimit):
			return false, ErrTimeout
		case time.Since(start) >= MatchTimeout || try == falseTimeoutRetries:
			return false, ErrTimeout
		}
	}
}

// FullMatchBy is FullMatch abandoned at deadline too (reporting ErrTimeout
// then), so that many matches share one budget of time: a firing must not
// spend more than its budget in matchers however many there are. Past the
// deadline nothing is run.
func (r *Regexp) FullMatchBy(s string, deadline time.Time) (bool, error) {
	left := time.Until(deadline)
	switch {
	case left <= 0:
		return false, ErrTimeout
	case left >= MatchTimeout+100*time.Millisecond:
		return r.FullMatch(s)
	}
	// Less left than one match may take: wait no longer than that. An
	// abandoned match ends on its own at MatchTimeout.
	type result struct {
		ok  bool
		err error
	}
	done := make(chan result, 1)
	go func() {
		ok, err := r.FullMatch(s)
		done <- result{ok, err}
	}()
	timer := time.NewTimer(left)
	defer timer.Stop()
	select {
	case res := <-done:
		return res.ok, res.err
	case <-timer.C:
		return false, ErrTimeout
	}
}
