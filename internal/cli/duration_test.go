package cli

import (
	"testing"
	"time"
)

func TestParseSeconds(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"2", 2 * time.Second, true}, {" 30 ", 30 * time.Second, true}, {"2.5", 2500 * time.Millisecond, true},
		{"0.001", time.Millisecond, true}, {"1e1", 10 * time.Second, true}, {"0", 0, true},
		{"2s", 2 * time.Second, true}, {"1m30s", 90 * time.Second, true}, {"500ms", 500 * time.Millisecond, true},
		{"", 0, false}, {"2 s", 0, false}, {"two", 0, false}, {"NaN", 0, false}, {"Inf", 0, false}, {"1e300", 0, false},
	} {
		got, err := parseSeconds(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseSeconds(%q) = %v, %v; want %v, ok %t", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestSecondsValueString(t *testing.T) {
	var d time.Duration
	v := newSecondsValue(&d, 60*time.Second)
	if v.String() != "60s" || d != time.Minute {
		t.Errorf("default: %s (%v)", v, d)
	}
	if err := v.Set("2.5"); err != nil || v.String() != "2.5s" || d != 2500*time.Millisecond {
		t.Errorf("after Set(2.5): %s (%v, %v)", v, d, err)
	}
	if v.Type() != "seconds" {
		t.Errorf("Type = %s", v.Type())
	}
}

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"90m":                  now.Add(-90 * time.Minute),
		"12h":                  now.Add(-12 * time.Hour),
		"7d":                   now.Add(-7 * 24 * time.Hour),
		"1.5d":                 now.Add(-36 * time.Hour),
		"2w":                   now.Add(-14 * 24 * time.Hour),
		"2026-11-30T08:00:00Z": time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC),
	} {
		got, err := parseSince(in, now)
		if err != nil || !got.Equal(want) {
			t.Errorf("parseSince(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "yesterday", "-1h", "0s", "d", "7x", "1e9d", "7dd"} {
		if _, err := parseSince(in, now); err == nil {
			t.Errorf("parseSince(%q) accepted", in)
		}
	}
}
