package cli

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
)

// secondsValue is a duration flag that also takes a bare number of seconds
// (--timeout 2, --timeout 2.5), as the config's timeouts are written, as
// well as a Go duration (2s, 1m30s). pflag's own duration flag would read
// "2" as an error, and a user who means two seconds must not have to know.
type secondsValue time.Duration

func newSecondsValue(p *time.Duration, def time.Duration) *secondsValue {
	*p = def
	return (*secondsValue)(p)
}

func (d *secondsValue) Set(s string) error {
	v, err := parseSeconds(s)
	if err != nil {
		return err
	}
	*d = secondsValue(v)
	return nil
}

// Type is the word the help shows after the flag when its usage names none.
func (d *secondsValue) Type() string { return "seconds" }

// String shows whole seconds as "60s" (not "1m0s"), the way a user would
// write the default back.
func (d *secondsValue) String() string {
	v := time.Duration(*d)
	if v%time.Second == 0 {
		return strconv.FormatInt(int64(v/time.Second), 10) + "s"
	}
	return v.String()
}

var errSeconds = errors.New("want a number of seconds (30, 2.5) or a duration (45s, 1m30s)")

// parseSeconds reads a bare number as seconds, anything else as a Go
// duration.
func parseSeconds(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > float64(math.MaxInt64/int64(time.Second)) {
			return 0, errSeconds
		}
		return time.Duration(math.Round(f * float64(time.Second))), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, errSeconds
	}
	return d, nil
}

var errSince = errors.New("want a duration back from now (90m, 12h, 7d, 2w) or a time (2026-12-01, 2026-12-01T10:00:00Z)")

// parseSince reads --since: a duration back from now (Go's units plus d
// for days and w for weeks, as people say "the last 7d"), a date or an
// RFC 3339 time.
func parseSince(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	var d time.Duration
	if n, unit := strings.TrimRight(s, "dw"), strings.TrimLeft(s, "0123456789."); n != s && (unit == "d" || unit == "w") {
		f, err := strconv.ParseFloat(n, 64)
		if err != nil || f > 1e5 {
			return time.Time{}, errSince
		}
		d = time.Duration(f * float64(24*time.Hour))
		if unit == "w" {
			d *= 7
		}
	} else {
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			return time.Time{}, errSince
		}
	}
	if d <= 0 {
		return time.Time{}, errSince
	}
	return now.Add(-d), nil
}
