package gateway

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/shell"
)

//go:embed runner.py
var runnerSource []byte

// DefaultTimeout bounds one event's runner process, and each executable
// handler, when Runner.Timeout is zero.
const DefaultTimeout = 60 * time.Second

// Runner fires gateway hooks.
type Runner struct {
	Python  string        // interpreter for handler.py hooks (FindPython); "" = unavailable
	Timeout time.Duration // 0 = DefaultTimeout
	Env     []string      // base environment of the handlers; nil = os.Environ()
	Home    string        // HERMES_HOME given to the handlers
	Exec    shell.Runner  // nil = shell.Exec{}
}

// Result is what one hook's handler did.
type Result struct {
	Name           string
	Status         string // StatusOK, StatusError or StatusTimeout
	Error          string // "" when ok; a Python traceback when handle raised
	ElapsedSeconds float64
	// Result is the handler's return value as compact JSON ("null" when it
	// returned nothing). When the value was not JSON-serialisable it is the
	// JSON string of its repr() and Repr is true.
	Result json.RawMessage
	Repr   bool
	// Stdout and Stderr are what the handler printed (at most
	// shell.MaxCapture bytes each).
	Stdout, Stderr                   string
	StdoutTruncated, StderrTruncated bool
	// NotRun: the handler never started (not loaded, no interpreter, the
	// runner timed out or was interrupted before reaching it); Error says
	// why. A handler that started and failed has NotRun false.
	NotRun bool
	// AfterDecision: not run because an earlier handler of the slash
	// command decided (deny, handled, rewrite), as the gateway stops there.
	AfterDecision bool
	// Logs are the handler's log records at INFO and above; Threads the
	// threads it started that were still running when handle returned
	// (the gateway keeps running them; a test does not wait for them).
	Logs    []LogRecord
	Threads int
}

// LogRecord is one record a handler logged.
type LogRecord struct {
	Level   string `json:"level"`
	Logger  string `json:"logger"`
	Message string `json:"message"`
}

// Result statuses.
const (
	StatusOK      = "ok"
	StatusError   = "error"
	StatusTimeout = "timeout"
)

// ErrorLine is the last line of Error: for a traceback, the exception.
func (r Result) ErrorLine() string {
	lines := strings.Split(strings.TrimSpace(r.Error), "\n")
	return lines[len(lines)-1]
}

var null = json.RawMessage("null")

func (r *Runner) timeout() time.Duration {
	if r.Timeout > 0 {
		return r.Timeout
	}
	return DefaultTimeout
}

func (r *Runner) exec() shell.Runner {
	if r.Exec != nil {
		return r.Exec
	}
	return shell.Exec{}
}

func (r *Runner) env(event string, payload *pyjson.Object) []string {
	base := r.Env
	if base == nil {
		base = os.Environ()
	}
	sessionID := ""
	if v, ok := payload.Get("session_id"); ok {
		sessionID, _ = v.(string)
	}
	return shell.HookEnv(base, r.Home, event, "", sessionID)
}

// Fire runs the handlers of hooks (normally Match's answer) for event with
// payload as their context, in the order of hooks, and returns one Result
// per hook in that order. Each run of consecutive handler.py hooks shares
// one runner process bounded by the timeout (so an all-Python event costs
// one process); each executable handler runs on its own, bounded by the
// timeout. Hooks that are not loaded are not run (their Result says why) and
// do not split a run. A handler's failure is in its Result; the error is for
// what stops firing as a whole: no Python interpreter (PythonError;
// executable handlers still run), a cancelled ctx (the partial results are
// returned too), or a failure to set up the runner.
func (r *Runner) Fire(ctx context.Context, event string, payload *pyjson.Object, hooks []Hook) ([]Result, error) {
	if payload == nil {
		payload = pyjson.NewObject()
	}
	results := make([]Result, len(hooks))
	var errs []error
	var noPython error
	var batch []int // consecutive handler.py hooks not yet run
	// A slash command's handlers stop at the first decision (Decided).
	stop := IsCommandEvent(event)
	decided := -1
	skipAfter := func(i int) {
		results[i].AfterDecision = true
		results[i].Error = fmt.Sprintf("not run: gateway hook %s decided first (%s)", hooks[decided].Name, decisionName(results[decided]))
	}
	noteDecision := func(i int) {
		if stop && decided < 0 && !results[i].NotRun && Decided(results[i]) {
			decided = i
		}
	}
	flush := func() {
		switch {
		case len(batch) == 0:
		case decided >= 0:
			for _, i := range batch {
				skipAfter(i)
			}
		case r.Python == "":
			noPython = &PythonError{}
			for _, i := range batch {
				results[i].Error = noPython.Error()
			}
		case ctx.Err() != nil:
			for _, i := range batch {
				results[i].Error = "interrupted: not run"
			}
		default:
			if err := r.firePython(ctx, event, payload, hooks, batch, results, stop); err != nil {
				errs = append(errs, err)
				for _, i := range batch {
					results[i].Error = "not run: " + err.Error()
				}
			}
			for _, i := range batch {
				if decided >= 0 && results[i].NotRun {
					skipAfter(i) // the runner stopped at the decision
					continue
				}
				noteDecision(i)
			}
		}
		batch = nil
	}
	for i, h := range hooks {
		results[i] = Result{Name: h.Name, Status: StatusError, Result: null, NotRun: true}
		switch {
		case !h.Loaded || !h.Enabled:
			results[i].Error = notLoaded(h)
		case h.Unsafe != nil:
			results[i].Error = "not run: someone else can change it: " + h.Unsafe.Error()
		case h.Handler == HandlerPy:
			batch = append(batch, i)
		case h.Handler == HandlerExec:
			flush()
			if decided >= 0 {
				skipAfter(i)
				continue
			}
			if ctx.Err() != nil {
				results[i].Error = "interrupted: not run"
				continue
			}
			results[i] = r.fireExec(ctx, event, payload, h)
			noteDecision(i)
		default:
			results[i].Error = "not run: no handler.py or executable handler in " + h.Dir
		}
	}
	flush()
	if noPython != nil {
		errs = append(errs, noPython)
	}
	if ctx.Err() != nil {
		errs = append(errs, fmt.Errorf("firing gateway hooks for %s interrupted: %w", event, ctx.Err()))
	}
	return results, errors.Join(errs...)
}

func notLoaded(h Hook) string {
	switch {
	case !h.Enabled:
		return "not run: disabled (enabled: false in HOOK.yaml)"
	case len(h.Problems) > 0:
		return "not run: " + strings.Join(h.Problems, "; ")
	}
	return "not run: not loaded"
}

// reply is one line the runner wrote to its reply file.
type reply struct {
	Index      int         `json:"index"`
	Phase      string      `json:"phase"`
	Status     string      `json:"status"`
	Error      string      `json:"error"`
	ResultJSON string      `json:"result_json"`
	Repr       bool        `json:"repr"`
	Elapsed    float64     `json:"elapsed"`
	Logs       []LogRecord `json:"logs"`
	Threads    int         `json:"threads"`
}

func (r *Runner) firePython(ctx context.Context, event string, payload *pyjson.Object, hooks []Hook, py []int, results []Result, stopOnDecision bool) error {
	dir, err := os.MkdirTemp("", "hermes-gateway-")
	if err != nil {
		return fmt.Errorf("cannot prepare the gateway hook runner: %w", err)
	}
	defer os.RemoveAll(dir)
	script := filepath.Join(dir, "runner.py")
	if err := os.WriteFile(script, runnerSource, 0o600); err != nil {
		return fmt.Errorf("cannot prepare the gateway hook runner: %w", err)
	}
	handlers := make([]any, len(py))
	for k, i := range py {
		path, err := filepath.Abs(hooks[i].HandlerPath())
		if err != nil {
			path = hooks[i].HandlerPath()
		}
		handlers[k] = pyjson.NewObject().Set("name", hooks[i].Name).Set("path", path)
	}
	replyPath := filepath.Join(dir, "reply.jsonl")
	req := pyjson.NewObject().
		Set("event_type", event).
		Set("context", payload).
		Set("handlers", handlers).
		Set("reply", replyPath).
		Set("capture", dir).
		Set("stop_on_decision", stopOnDecision)

	// -B: no __pycache__ in the user's folders; -u: a handler that hangs
	// after printing still has its output captured.
	res := r.exec().Run(ctx, shell.Request{
		Argv:    []string{r.Python, "-B", "-u", script, "--run"},
		Stdin:   pyjson.Marshal(req, pyjson.Options{Compact: true}),
		Env:     r.env(event, payload),
		Timeout: r.timeout(),
	})
	replies, started := readReplies(replyPath)

	var spent float64
	stopped := false // the runner stopped at a decision
	for k, i := range py {
		out := &results[i]
		out.Stdout, out.StdoutTruncated = readCapped(filepath.Join(dir, fmt.Sprintf("%d.out", k)), false)
		out.Stderr, out.StderrTruncated = readCapped(filepath.Join(dir, fmt.Sprintf("%d.err", k)), true)
		out.NotRun = !started[k]
		if stopped && !started[k] {
			continue // not run: Fire says which handler decided
		}
		if rep, ok := replies[k]; ok {
			out.NotRun = false
			spent += rep.Elapsed
			applyReply(out, rep)
			stopped = stopOnDecision && Decided(*out)
			continue
		}
		switch {
		case res.TimedOut && started[k]:
			out.Status = StatusTimeout
			out.Error = fmt.Sprintf("timed out after %s: the runner's process group was killed", r.timeout())
			out.ElapsedSeconds = round3(math.Max(0, res.Elapsed.Seconds()-spent))
		case res.TimedOut:
			out.Status = StatusTimeout
			out.Error = fmt.Sprintf("not run: the runner timed out after %s before reaching it", r.timeout())
		case res.Err == "interrupted" || ctx.Err() != nil:
			out.Error = "interrupted: the runner's process group was killed"
		default:
			out.Error = "the gateway hook runner stopped before this handler finished: " + runnerFailure(res)
		}
	}
	return nil
}

func applyReply(out *Result, rep reply) {
	out.Status = rep.Status
	if out.Status != StatusOK {
		out.Status = StatusError
	}
	out.Error = rep.Error
	out.Repr = rep.Repr
	out.ElapsedSeconds = round3(rep.Elapsed)
	out.Logs, out.Threads = rep.Logs, rep.Threads
	v, err := pyjson.Decode([]byte(rep.ResultJSON))
	if err != nil {
		out.Status = StatusError
		out.Error = "the runner sent a result that is not JSON: " + err.Error()
		return
	}
	// Re-encoded so the JSON is compact and non-ASCII text is not escaped.
	out.Result = pyjson.Marshal(v, pyjson.Options{Compact: true, Embed: true})
}

// readReplies reads the runner's reply file. A line cut short by a kill is
// skipped: that handler simply did not finish.
func readReplies(path string) (done map[int]reply, started map[int]bool) {
	done, started = map[int]reply{}, map[int]bool{}
	f, err := os.Open(path)
	if err != nil {
		return done, started
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	// Results are capped at 1 MiB of JSON by the runner; escaping can grow
	// that up to six times.
	sc.Buffer(make([]byte, 64<<10), 8<<20)
	for sc.Scan() {
		var rep reply
		if json.Unmarshal(sc.Bytes(), &rep) != nil {
			continue
		}
		switch rep.Phase {
		case "start":
			started[rep.Index] = true
		case "done":
			done[rep.Index] = rep
		}
	}
	return done, started
}

// readCapped reads a capture file the runner wrote: at most
// shell.MaxCapture bytes of output, one more when it was cut. stdout keeps
// its start, stderr (tail) its end, as for shell hooks. Reading is bounded
// too, whatever is in the file.
func readCapped(path string, tail bool) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, 2*shell.MaxCapture))
	truncated := len(b) > shell.MaxCapture
	switch {
	case truncated && tail:
		b = b[len(b)-shell.MaxCapture:]
	case truncated:
		b = b[:shell.MaxCapture]
	}
	return strings.ToValidUTF8(string(b), "\uFFFD"), truncated
}

// runnerFailure describes a runner that ended without reporting.
func runnerFailure(res shell.Result) string {
	why := res.Err
	if why == "" && res.ExitCode != nil && *res.ExitCode != 0 {
		why = fmt.Sprintf("exit status %d", *res.ExitCode)
	}
	if why == "" {
		why = "it exited without reporting"
	}
	if tail := lastLines(res.Stderr, 5); tail != "" {
		why += ": " + tail
	}
	return why
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

func round3(s float64) float64 { return math.Round(s*1000) / 1000 }

// fireExec runs an executable handler like a shell hook, with
// {"event_type": …, "context": …} on stdin; its stdout is its result.
func (r *Runner) fireExec(ctx context.Context, event string, payload *pyjson.Object, h Hook) Result {
	stdin := pyjson.NewObject().Set("event_type", event).Set("context", payload)
	res := r.exec().Run(ctx, shell.Request{
		Argv:    []string{h.HandlerPath()},
		Stdin:   pyjson.Marshal(stdin, pyjson.Options{}),
		Env:     r.env(event, payload),
		Timeout: r.timeout(),
	})
	out := Result{Name: h.Name, Status: StatusOK, Result: null,
		ElapsedSeconds: res.ElapsedSeconds(),
		Stdout:         res.Stdout, Stderr: res.Stderr,
		StdoutTruncated: res.StdoutTruncated, StderrTruncated: res.StderrTruncated}
	if text := strings.TrimSpace(res.Stdout); text != "" {
		if v, err := pyjson.Decode([]byte(text)); err == nil && !res.StdoutTruncated {
			out.Result = pyjson.Marshal(v, pyjson.Options{Compact: true, Embed: true})
		} else {
			out.Result = pyjson.Marshal(text, pyjson.Options{Compact: true, Embed: true})
		}
	}
	switch {
	case res.TimedOut:
		out.Status = StatusTimeout
		out.Error = fmt.Sprintf("timed out after %s: its process group was killed", r.timeout())
	case res.Err != "":
		out.Status, out.Error = StatusError, res.Err
	case res.ExitCode != nil && *res.ExitCode != 0:
		out.Status = StatusError
		out.Error = fmt.Sprintf("exited with status %d", *res.ExitCode)
		if tail := lastLines(res.Stderr, 1); tail != "" {
			out.Error += ": " + tail
		}
	}
	return out
}
