package cli

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// secondsValue is a duration flag that also takes a bare number of seconds
// (SPEC §14: `--lock-timeout 5` as well as `5s` or `1m`), like the
// config's integer seconds.
type secondsValue struct{ d *time.Duration }

func newSecondsValue(d *time.Duration, def time.Duration) *secondsValue {
	*d = def
	return &secondsValue{d}
}

func (v *secondsValue) Set(s string) error {
	d, err := parseSeconds(s)
	if err != nil {
		return err
	}
	*v.d = d
	return nil
}

func (v *secondsValue) String() string { return v.d.String() }
func (v *secondsValue) Type() string   { return "duration" }

// parseSeconds reads a positive duration: seconds as a number, or a Go
// duration.
func parseSeconds(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	var d time.Duration
	if secs, err := strconv.ParseFloat(s, 64); err == nil {
		if secs > float64(1<<62)/float64(time.Second) {
			return 0, fmt.Errorf("%q is too long", s)
		}
		d = time.Duration(secs * float64(time.Second))
	} else if d, err = time.ParseDuration(s); err != nil {
		return 0, fmt.Errorf("%q is not a duration: give seconds (30) or a duration (30s, 1m)", s)
	}
	if d <= 0 {
		return 0, fmt.Errorf("%q must be more than zero", s)
	}
	return d, nil
}
