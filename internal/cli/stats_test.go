package cli

import (
	"testing"
	"time"
)

func TestSparkline(t *testing.T) {
	for _, c := range []struct {
		in   []int
		want string
	}{
		{[]int{0, 1, 2, 3, 4, 5, 6, 7, 8}, "▕·▁▂▃▄▅▆▇█▏"},
		{[]int{0, 0, 1}, "▕··█▏"},
		{[]int{1, 100, 0}, "▕▁█·▏"}, // one run still shows
		{[]int{0, 0}, "▕··▏"},
	} {
		if got := sparkline(c.in); got != c.want {
			t.Errorf("sparkline(%v) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestCellSpan(t *testing.T) {
	for d, want := range map[time.Duration]string{
		150 * time.Second:                      "2m30s",
		90 * time.Minute:                       "1h30m",
		7 * 24 * time.Hour / 24:                "7h",
		366*time.Hour + 8*time.Minute:          "366h",
		10*time.Minute + 1234*time.Microsecond: "10m0s",
	} {
		if got := cellSpan(d); got != want {
			t.Errorf("cellSpan(%v) = %s, want %s", d, got, want)
		}
	}
}
