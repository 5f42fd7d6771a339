package gateway

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/shell"
)

// orderFolders writes three hooks that append "<name> <pid>" to log when
// they run (a Python handler writes its runner's pid: each handler has a
// process of its own, forked from the runner): a wildcard Python one, an exact Python one and an exact
// executable one. Their folder names sort against Match's order, so
// following discovery order, or running all Python first, shows.
func orderFolders(t *testing.T, log string) []Hook {
	t.Helper()
	root := t.TempDir()
	py := func(name string) string {
		return "import os\ndef handle(e, c):\n    with open(" + strconv.Quote(log) + ", 'a') as f:\n" +
			"        f.write('" + name + " %d\\n' % os.getppid())\n"
	}
	writeFolder(t, root, "1-wild-py", folder{yaml: "events: ['agent:*']\n", py: py("1-wild-py")})
	writeFolder(t, root, "2-exact-py", folder{yaml: hookYAML, py: py("2-exact-py")})
	writeFolder(t, root, "3-exact-exec", folder{yaml: hookYAML,
		exe: "#!/bin/sh\necho \"3-exact-exec $$\" >> '" + log + "'\n"})
	return Discover(root, known)
}

// Handlers run in the order of hooks whatever their kind; consecutive
// handler.py hooks share one runner process, others do not.
func TestFireFollowsHookOrder(t *testing.T) {
	r := newRunner(t)
	tests := []struct {
		name   string
		order  func(all []Hook) []Hook
		want   []string
		shared bool // the two Python hooks are adjacent: one runner process
	}{
		{"match order", func(all []Hook) []Hook { return Match(all, "agent:start") },
			[]string{"2-exact-py", "3-exact-exec", "1-wild-py"}, false},
		{"discovery order", func(all []Hook) []Hook { return all },
			[]string{"1-wild-py", "2-exact-py", "3-exact-exec"}, true},
		{"reversed", func(all []Hook) []Hook { return []Hook{all[2], all[1], all[0]} },
			[]string{"3-exact-exec", "2-exact-py", "1-wild-py"}, true},
		{"exec between", func(all []Hook) []Hook { return []Hook{all[0], all[2], all[1]} },
			[]string{"1-wild-py", "3-exact-exec", "2-exact-py"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "order.log")
			hooks := tt.order(orderFolders(t, log))
			results, err := r.Fire(context.Background(), "agent:start", nil, hooks)
			if err != nil {
				t.Fatalf("Fire: %v", err)
			}
			if got := names2(results); strings.Join(got, ",") != strings.Join(names(hooks), ",") {
				t.Errorf("results in order %q, want the order of hooks %q", got, names(hooks))
			}
			for _, res := range results {
				if res.Status != StatusOK {
					t.Errorf("%s: status %q error %q", res.Name, res.Status, res.Error)
				}
			}
			data, err := os.ReadFile(log)
			if err != nil {
				t.Fatal(err)
			}
			var ran []string
			pid := map[string]string{}
			for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
				name, p, _ := strings.Cut(line, " ")
				ran = append(ran, name)
				pid[name] = p
			}
			if strings.Join(ran, ",") != strings.Join(tt.want, ",") {
				t.Errorf("ran in order %q, want %q", ran, tt.want)
			}
			if shared := pid["1-wild-py"] == pid["2-exact-py"]; shared != tt.shared {
				t.Errorf("Python hooks ran in processes %q: shared %v, want %v", pid, shared, tt.shared)
			}
		})
	}
}

// Fire asks for one runner process per run of consecutive handler.py hooks,
// each with its own timeout, and one process per executable handler.
func TestFireBatches(t *testing.T) {
	root := t.TempDir()
	writeFolder(t, root, "a", folder{yaml: hookYAML, py: okPy})
	writeFolder(t, root, "b", folder{yaml: hookYAML, py: okPy})
	writeFolder(t, root, "c", folder{yaml: "events: [agent:start]\nenabled: false\n", py: okPy})
	writeFolder(t, root, "d", folder{yaml: hookYAML, py: okPy})
	writeFolder(t, root, "e", folder{yaml: hookYAML, exe: "#!/bin/sh\n"})
	writeFolder(t, root, "f", folder{yaml: hookYAML, py: okPy})
	fake := &fakeRunner{}
	r := &Runner{Python: "/opt/py/bin/python3", Exec: fake}
	if _, err := r.Fire(context.Background(), "agent:start", nil, Discover(root, known)); err != nil {
		t.Fatal(err)
	}
	// A disabled hook does not split a run.
	want := [][]string{{"a", "b", "d"}, {"e"}, {"f"}}
	if len(fake.reqs) != len(want) {
		t.Fatalf("%d processes, want %d", len(fake.reqs), len(want))
	}
	for k, req := range fake.reqs {
		if req.Timeout != DefaultTimeout {
			t.Errorf("process %d timeout %v, want %v", k, req.Timeout, DefaultTimeout)
		}
		var got []string
		if strings.HasSuffix(req.Argv[0], HandlerExec) {
			got = []string{filepath.Base(filepath.Dir(req.Argv[0]))}
		} else {
			for _, part := range strings.Split(string(req.Stdin), `"name":"`)[1:] {
				got = append(got, part[:strings.IndexByte(part, '"')])
			}
		}
		if strings.Join(got, ",") != strings.Join(want[k], ",") {
			t.Errorf("process %d ran %q, want %q", k, got, want[k])
		}
	}
}

// Without python3, every handler.py hook says so, whichever run it is in;
// the error says it once; executable handlers between them still run.
func TestFireWithoutPythonInterleaved(t *testing.T) {
	root := t.TempDir()
	writeFolder(t, root, "a-py", folder{yaml: hookYAML, py: okPy})
	writeFolder(t, root, "b-exe", folder{yaml: hookYAML, exe: "#!/bin/sh\necho 5\n"})
	writeFolder(t, root, "c-py", folder{yaml: hookYAML, py: okPy})
	r := &Runner{Home: t.TempDir(), Exec: shell.Exec{}}
	results, err := r.Fire(context.Background(), "agent:start", nil, Discover(root, known))
	if !errors.Is(err, ErrPythonUnavailable) || strings.Count(err.Error(), "unavailable") != 1 {
		t.Errorf("Fire error = %v, want ErrPythonUnavailable once", err)
	}
	for _, i := range []int{0, 2} {
		if results[i].Status != StatusError || !strings.Contains(results[i].Error, "python3 not found") {
			t.Errorf("%s: %+v", results[i].Name, results[i])
		}
	}
	if results[1].Status != StatusOK || string(results[1].Result) != "5" {
		t.Errorf("exe hook: %+v", results[1])
	}
}
