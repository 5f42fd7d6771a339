package allowlist

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The value the agent records for a script's mtime (SPEC §14): the float
// st_mtime rounded to the microsecond, ties to even, carried into the next
// second, microseconds only when non-zero.
func TestMtimeString(t *testing.T) {
	for _, tc := range []struct {
		sec, nsec int64
		want      string
	}{
		{1700000000, 123456789, "2023-11-14T22:13:20.123457Z"},
		{1700000000, 999999999, "2023-11-14T22:13:21Z"},
		{1700000000, 0, "2023-11-14T22:13:20Z"},
		{1700000000, 999999500, "2023-11-14T22:13:21Z"}, // rounds up through the float
		{1700000000, 123456000, "2023-11-14T22:13:20.123456Z"},
		{1700000000, 123456499, "2023-11-14T22:13:20.123456Z"},
		{1700000000, 1, "2023-11-14T22:13:20Z"},
		{1700000000, 500, "2023-11-14T22:13:20Z"},         // the float is 1700000000.0000005 (just below): down
		{1700000000, 1500, "2023-11-14T22:13:20.000001Z"}, // the float is …0000014: down, though ns says tie

		{0, 0, "1970-01-01T00:00:00Z"},
		{0, 500, "1970-01-01T00:00:00.000001Z"}, // 5.000000000000001e-07: just above the tie
		{0, 1500, "1970-01-01T00:00:00.000002Z"},
		{0, 2500, "1970-01-01T00:00:00.000002Z"}, // an exact tie (2.5e-06 → 2.5 µs) goes to even
	} {
		if got := MtimeString(time.Unix(tc.sec, tc.nsec)); got != tc.want {
			t.Errorf("MtimeString(%d.%09d) = %s, want %s", tc.sec, tc.nsec, got, tc.want)
		}
	}
}

// Right after an approval the agent must see no drift: for real files whose
// mtimes are set to nanosecond values, what this package records is
// byte for byte what Python computes from os.stat.
func TestMtimeStringMatchesPython(t *testing.T) {
	py := python(t)
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	var times []time.Time
	for _, ns := range []int64{0, 1, 499, 500, 501, 999, 1000, 1500, 2500, 999999499, 999999500, 999999501, 999999999, 123456789, 500000, 499999} {
		for _, sec := range []int64{0, 1, 1700000000, 1795856400, 2147483647, 4102444800} {
			times = append(times, time.Unix(sec, ns))
		}
	}
	for range 2000 {
		times = append(times, time.Unix(rng.Int64N(4102444800), rng.Int64N(1e9)))
	}
	for range 500 { // near a microsecond boundary, where rounding decides
		us := rng.Int64N(1e6)
		times = append(times, time.Unix(1600000000+rng.Int64N(2e8), us*1000+[]int64{499, 500, 501, 999}[rng.IntN(4)]%1000))
	}
	var paths []string
	var want strings.Builder
	for i, tm := range times {
		p := filepath.Join(dir, fmt.Sprintf("s%d.sh", i))
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, tm, tm); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if !fi.ModTime().Equal(tm) {
			t.Skipf("this filesystem does not keep nanosecond mtimes (%v became %v)", tm, fi.ModTime())
		}
		paths = append(paths, p)
		want.WriteString(MtimeString(fi.ModTime()) + "\n")
	}
	const script = `import datetime, os, sys
for p in sys.stdin.read().split("\0"):
    s = datetime.datetime.fromtimestamp(os.stat(p).st_mtime, tz=datetime.timezone.utc).isoformat()
    print(s.replace("+00:00", "Z"))
`
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\x00"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v", err)
	}
	got, exp := strings.Split(string(out), "\n"), strings.Split(want.String(), "\n")
	if len(got) != len(exp) {
		t.Fatalf("python printed %d lines, want %d", len(got), len(exp))
	}
	bad := 0
	for i := range exp {
		if got[i] != exp[i] {
			if bad++; bad <= 10 {
				t.Errorf("mtime %d.%09d: python %s, hermes %s", times[i].Unix(), times[i].Nanosecond(), got[i], exp[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d mtimes differ", bad, len(exp)-1)
	}
}

// The drift the agent computes (exact string comparison) and ours agree
// on every file approved by this package, and on files approved by an
// older hermes that truncated.
func TestDriftAgreesWithAgentRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		tm := time.Unix(1600000000+rng.Int64N(2e8), rng.Int64N(1e9))
		fp := Fingerprint{SHA256: "x", Mtime: tm}
		rec := MtimeString(tm)
		if d := DriftOf(Entry{ScriptSHA256: "x", ScriptMtime: &rec}, fp); d != DriftUnchanged {
			t.Fatalf("%v: fresh approval drift %s", tm, d)
		}
		old := tm.UTC().Truncate(time.Microsecond).Format("2006-01-02T15:04:05.000000Z")
		if tm.Nanosecond() < 1000 {
			old = tm.UTC().Format("2006-01-02T15:04:05Z")
		}
		agentSeesDrift := old != rec
		if d := DriftOf(Entry{ScriptSHA256: "x", ScriptMtime: &old}, fp); (d == DriftTouched) != agentSeesDrift {
			t.Fatalf("%v: old record %s, agent computes %s, our drift %s", tm, old, rec, d)
		}
	}
}
