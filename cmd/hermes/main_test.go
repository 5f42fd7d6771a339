package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/hermes-hooks/hermes/internal/guard"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"hermes": func() { os.Exit(run()) },
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
