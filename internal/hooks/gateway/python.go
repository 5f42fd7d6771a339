package gateway

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// ErrPythonUnavailable matches (errors.Is) every PythonError: gateway hooks
// cannot run, shell hooks are unaffected.
var ErrPythonUnavailable = errors.New("gateway hooks unavailable")

// PythonError says why no Python interpreter could be used.
type PythonError struct {
	// From is where the interpreter name came from: "--python",
	// "HERMES_PYTHON", or "" for the python3 on PATH.
	From string
	Path string
	Err  error
}

func (e *PythonError) Error() string {
	if e.From == "" {
		return "gateway hooks unavailable: python3 not found (set --python or HERMES_PYTHON)"
	}
	return fmt.Sprintf("gateway hooks unavailable: python interpreter %q (from %s) not found or not executable: %v (set %s to a python3 interpreter)",
		e.Path, e.From, e.Err, e.From)
}

func (e *PythonError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrPythonUnavailable) true.
func (e *PythonError) Is(target error) bool { return target == ErrPythonUnavailable }

// FindPython picks the interpreter that runs handler.py hooks: flag (the
// --python value), else env HERMES_PYTHON, else python3 on PATH. Blank
// values count as unset. A name without a slash is looked up on PATH.
func FindPython(flag string, env func(string) (string, bool)) (string, error) {
	from, name := "--python", strings.TrimSpace(flag)
	if name == "" && env != nil {
		if v, ok := env("HERMES_PYTHON"); ok {
			from, name = "HERMES_PYTHON", strings.TrimSpace(v)
		}
	}
	if name == "" {
		from, name = "", "python3"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return "", &PythonError{From: from, Path: name, Err: err}
	}
	return path, nil
}
