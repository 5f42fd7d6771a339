package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes/internal/shell"
)

// CheckError is a handler that would not work, found without running it.
type CheckError struct {
	Path string
	Line int // 0 when not about one line
	Msg  string
}

func (e *CheckError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}

// MissingModule is a module a handler imports at its top level that the
// Python checked cannot find: the gateway would fail to load the handler.
type MissingModule struct {
	Module string `json:"module"`
	Line   int    `json:"line"`
}

// Check is CheckImports without the imports.
func (r *Runner) Check(ctx context.Context, h Hook) error {
	_, err := r.CheckImports(ctx, h)
	return err
}

// CheckImports confirms that h's handler can be called as handle(event_type,
// context) without executing any of it: handler.py is parsed with Python's
// ast module (it needs r.Python; a PythonError otherwise) and must define a
// top-level handle, plain or async, that accepts two positional arguments;
// an executable handler must be an executable regular file. Problems are
// *CheckError values. For handler.py it also returns the top-level imports
// r.Python cannot find (importlib.util.find_spec, which runs none of the
// handler's code), found even when the handler has a problem.
func (r *Runner) CheckImports(ctx context.Context, h Hook) ([]MissingModule, error) {
	path := h.HandlerPath()
	switch h.Handler {
	case HandlerExec:
		info, err := os.Stat(path)
		switch {
		case err != nil:
			return nil, &CheckError{Path: path, Msg: "cannot be read: " + errText(err)}
		case !info.Mode().IsRegular():
			return nil, &CheckError{Path: path, Msg: "is not a regular file"}
		case info.Mode().Perm()&0o111 == 0:
			return nil, &CheckError{Path: path, Msg: "is not executable (chmod +x it)"}
		}
		return nil, nil
	case HandlerPy:
		return r.checkPython(ctx, path)
	}
	return nil, &CheckError{Path: h.Dir, Msg: "no handler: add handler.py defining handle(event_type, context), or an executable named handler"}
}

func errText(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

func (r *Runner) checkPython(ctx context.Context, path string) ([]MissingModule, error) {
	if r.Python == "" {
		return nil, &PythonError{}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	// -c: the runner source is passed inline, so a check leaves no file.
	res := r.exec().Run(ctx, shell.Request{
		Argv:    []string{r.Python, "-B", "-c", string(runnerSource), "--check", abs},
		Env:     r.Env,
		Timeout: r.timeout(),
	})
	var answer struct {
		OK      bool            `json:"ok"`
		Line    int             `json:"line"`
		Error   string          `json:"error"`
		Missing []MissingModule `json:"missing"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(res.Stdout)), &answer); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("checking %s interrupted: %w", path, ctx.Err())
		}
		why := runnerFailure(res)
		if res.TimedOut {
			why = fmt.Sprintf("timed out after %s", r.timeout())
		}
		return nil, fmt.Errorf("checking %s with %s failed: %s", path, r.Python, why)
	}
	if !answer.OK {
		return answer.Missing, &CheckError{Path: path, Line: answer.Line, Msg: answer.Error}
	}
	return answer.Missing, nil
}
