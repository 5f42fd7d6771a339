package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	allowlistfile "github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/config/edit"
	"github.com/hermes-hooks/hermes/internal/guard"
)

func TestMain(m *testing.M) {
	testscript.Main(removingBuilds{m}, map[string]func(){
		"hermes": func() {
			if spec := os.Getenv("HERMES_TEST_FAULT"); spec != "" {
				if err := injectFault(spec); err != nil {
					fmt.Fprintln(os.Stderr, "HERMES_TEST_FAULT:", err)
					os.Exit(99)
				}
			}
			os.Exit(run())
		},
		"hermes-guard": func() {
			// testscript cuts argv[0] to the command's name; the guard
			// matches its whole argv, which the agent runs by full path.
			if exe, err := os.Executable(); err == nil {
				os.Args[0] = exe
			}
			os.Exit(guard.Main(os.Args))
		},
	})
}

// injectFault makes the allowlist's writer and script reader fail as a
// failing disk would (the test binary only): spec is
// OP:ERRNO[:PATH-SUFFIX[:N|N+]], e.g. "syncdir:EIO:.hermes" or
// "read:EIO:guard.sh:2+" (the second read of guard.sh and every later
// one). OP is one of allowlist.Fault's steps (edit.Fault's "syncdir" too).
func injectFault(spec string) error {
	parts := strings.Split(spec, ":")
	if len(parts) < 2 || len(parts) > 4 {
		return fmt.Errorf("%q: want OP:ERRNO[:PATH-SUFFIX[:N|N+]]", spec)
	}
	errnos := map[string]syscall.Errno{"EIO": syscall.EIO, "ENOSPC": syscall.ENOSPC, "EDQUOT": syscall.EDQUOT, "EROFS": syscall.EROFS}
	errno, ok := errnos[parts[1]]
	if !ok {
		return fmt.Errorf("%q: unknown errno %s", spec, parts[1])
	}
	op, suffix, nth, onward := parts[0], "", 1, true
	if len(parts) > 2 {
		suffix = parts[2]
	}
	if len(parts) > 3 {
		n, plus := strings.CutSuffix(parts[3], "+")
		var err error
		if nth, err = strconv.Atoi(n); err != nil || nth < 1 {
			return fmt.Errorf("%q: N must be a positive number", spec)
		}
		onward = plus
	}
	seen := 0
	fault := func(o, path string) error {
		if o != op || !strings.HasSuffix(path, suffix) {
			return nil
		}
		if seen++; seen == nth || onward && seen > nth {
			return &fs.PathError{Op: o, Path: path, Err: errno}
		}
		return nil
	}
	// The config editor's folder sync ("syncdir") goes through the same
	// seam, counted with the allowlist's.
	allowlistfile.Fault, edit.Fault = fault, fault
	return nil
}

// TestScripts runs the end-to-end scenarios of testdata/script: the real
// binary, as a user would run it, in a fresh HOME each.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "..", "testdata", "script"),
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       os.Getenv("UPDATE_GOLDEN") != "",
		Cmds:                scriptCmds,
		// [root]: the scenario can make files owned by another user.
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "root":
				return os.Geteuid() == 0, nil
			case "acl": // POSIX ACLs can be written (setacl)
				return aclSupported()
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, "home")
			env.Setenv("HOME", home)
			env.Setenv("HERMES_HOME", filepath.Join(home, ".hermes"))
			env.Setenv("NO_COLOR", "")
			// The bundled example home (make demo), for scenarios that run
			// on a copy of it.
			examples, err := filepath.Abs(filepath.Join("..", "..", "examples"))
			if err != nil {
				return err
			}
			env.Setenv("EXAMPLES", examples)
			return os.MkdirAll(filepath.Join(home, ".hermes"), 0o755)
		},
	})
}
