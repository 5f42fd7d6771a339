package shell

import (
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"os/user"
	"reflect"
	"testing"
)

func TestExpandTilde(t *testing.T) {
	root, err := user.Lookup("root")
	if err != nil {
		t.Skip("no root user in the password database")
	}
	rh := root.HomeDir
	cases := []struct{ cmd, home, want string }{
		{"~", "/home/u", "/home/u"},
		{"~/bin/hook.sh --flag ~/x", "/home/u", "/home/u/bin/hook.sh --flag ~/x"},
		{"~/x", "/home/u/", "/home/u/x"},
		{"~", "/", "/"},
		{"~/x", "/", "/x"},
		{"~root/hook.sh", "/home/u", rh + "/hook.sh"},
		{"~root", "/home/u", rh},
		// The user name runs to the first "/", so these name no user.
		{"~ x", "/home/u", "~ x"},
		{"~root --flag", "/home/u", "~root --flag"},
		{"~no-such-user-hermes/x.sh", "/home/u", "~no-such-user-hermes/x.sh"},
		// Only a leading tilde counts.
		{"python3 ~/x.py", "/home/u", "python3 ~/x.py"},
		{" ~/x", "/home/u", " ~/x"},
		{"", "/home/u", ""},
	}
	for _, tc := range cases {
		if got := ExpandTilde(tc.cmd, tc.home); got != tc.want {
			t.Errorf("ExpandTilde(%q, %q) = %q, want %q", tc.cmd, tc.home, got, tc.want)
		}
	}

	// The same rows through Python's os.path.expanduser, with HOME set,
	// in one interpreter run.
	py, err := exec.LookPath("python3")
	if err != nil {
		return
	}
	rows := make([][2]string, len(cases))
	for i, tc := range cases {
		rows[i] = [2]string{tc.cmd, tc.home}
	}
	in, _ := json.Marshal(rows)
	const prog = `
import json, os, sys
out = []
for cmd, home in json.load(sys.stdin):
    os.environ["HOME"] = home
    out.append(os.path.expanduser(cmd))
json.dump(out, sys.stdout)
`
	cmd := exec.Command(py, "-c", prog)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	var got []string
	if err := json.Unmarshal(out, &got); err != nil || len(got) != len(cases) {
		t.Fatalf("decoding python output %s: %v", out, err)
	}
	for i, tc := range cases {
		if got[i] != tc.want {
			t.Errorf("os.path.expanduser(%q) with HOME=%q = %q; table says %q", tc.cmd, tc.home, got[i], tc.want)
		}
	}
}

func TestArgv(t *testing.T) {
	cases := []struct {
		cmd        string
		want       []string
		wantReason string
	}{
		{cmd: "~/hooks/guard.sh --strict", want: []string{"/home/u/hooks/guard.sh", "--strict"}},
		{cmd: `python3 "my hook.py" '#1'`, want: []string{"python3", "my hook.py", "#1"}},
		{cmd: `guard.sh "unclosed`, wantReason: "No closing quotation"},
		{cmd: `guard.sh \`, wantReason: "No escaped character"},
		{cmd: "   ", wantReason: "empty command"},
		{cmd: "", wantReason: "empty command"},
	}
	for _, tc := range cases {
		got, err := Argv(tc.cmd, "/home/u")
		if tc.wantReason == "" {
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Argv(%q) = %q, %v; want %q", tc.cmd, got, err, tc.want)
			}
			continue
		}
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("Argv(%q) error = %v; want a *ParseError", tc.cmd, err)
			continue
		}
		if pe.Command != tc.cmd || pe.Reason != tc.wantReason {
			t.Errorf("Argv(%q) ParseError = %+v; want Command %q Reason %q", tc.cmd, pe, tc.cmd, tc.wantReason)
		}
		wantMsg := `command "` + tc.cmd + `" cannot be parsed: ` + tc.wantReason
		if err.Error() != wantMsg {
			t.Errorf("Argv(%q) message = %q, want %q", tc.cmd, err.Error(), wantMsg)
		}
	}
}
