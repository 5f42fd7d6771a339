package hooks

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/hooks/gateway"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// Check statuses (SPEC §10.8). A fail is a problem; the others are not.
const (
	CheckOK   = "ok"
	CheckInfo = "info"
	CheckWarn = "warn"
	CheckFail = "fail"
	CheckSkip = "skip"
)

// Check is one line of a doctor report.
type Check struct {
	Name    string `json:"name"`
	Status  string `json:"status"`
	Message string `json:"message"`
}

// HookReport is every check of one hook.
type HookReport struct {
	Kind    string // "shell" or "gateway"
	Event   string // shell
	Command string // shell
	Name    string // gateway
	Checks  []Check
}

// Problems counts the failed checks.
func (r HookReport) Problems() int {
	n := 0
	for _, c := range r.Checks {
		if c.Status == CheckFail {
			n++
		}
	}
	return n
}

func (r *HookReport) add(name, status, format string, args ...any) {
	r.Checks = append(r.Checks, Check{name, status, fmt.Sprintf(format, args...)})
}

// Doctor checks every shell hook (in config order) and gateway hook. Smoke
// runs of approved hooks run concurrently, at most parallel at a time (0:
// the number of CPUs); the reports keep config order. It never runs a hook
// that run-event would not fire without asking.
func (e *Engine) Doctor(ctx context.Context, list *allowlist.List, parallel int, python string, pyErr error) []HookReport {
	if parallel <= 0 {
		parallel = runtime.NumCPU()
	}
	hs := e.ShellHooks(list)
	reports := make([]HookReport, len(hs))
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i, h := range hs {
		reports[i] = e.staticChecks(h)
		if reason := smokeSkipReason(h); reason != "" {
			reports[i].add("smoke", CheckSkip, "skipped JSON smoke test (%s)", reason)
			e.lint(h, nil, &reports[i])
			continue
		}
		// Taking the slot before starting the goroutine starts the runs in
		// config order and keeps at most parallel goroutines alive.
		sem <- struct{}{}
		wg.Add(1)
		go func(i int, h ShellHook) {
			defer wg.Done()
			defer func() { <-sem }()
			e.smoke(ctx, h, &reports[i])
		}(i, h)
	}
	wg.Wait()
	for _, g := range e.GatewayHooks() {
		reports = append(reports, e.gatewayChecks(ctx, g, python, pyErr))
	}
	return reports
}

// smokeSkipReason says why a hook gets no smoke run, "" when it gets one:
// only a hook run-event would fire without asking is run, and only when it
// can start (its failure to is already a problem of its own).
func smokeSkipReason(h ShellHook) string {
	switch {
	case h.ParseErr != nil:
		return "the command cannot be parsed"
	case !h.Approved:
		return "not approved: doctor never runs an unapproved hook"
	case h.Blocked():
		return "script modified since approval: not run until re-approved"
	case h.ExecErr != nil:
		return "script missing or not executable"
	}
	return ""
}

func (e *Engine) staticChecks(h ShellHook) HookReport {
	r := HookReport{Kind: "shell", Event: h.Event, Command: h.Shown()}
	if h.ExecErr != nil {
		r.add("executable", CheckFail, "script missing or not executable: %v", h.ExecErr)
	} else {
		r.add("executable", CheckOK, "script %s exists and can run", h.Script)
	}
	if !h.Approved {
		r.add("approved", CheckFail, "not allowlisted — hook will NOT fire (review it, then approve with: hermes hooks accept %s --event %s --yes)",
			quote(h.Shown()), h.Event)
	} else {
		via := ""
		if h.Approval.ApprovedVia != "" {
			via = " via " + h.Approval.ApprovedVia
		}
		r.add("approved", CheckOK, "approved_at: %s%s", h.Approval.ApprovedAt, via)
		r.Checks = append(r.Checks, driftCheck(h))
	}
	if h.hasScriptFile() {
		if c, ok := permissionCheck(h.Script); ok {
			r.Checks = append(r.Checks, c)
		}
	}
	return r
}

func driftCheck(h ShellHook) Check {
	c := Check{Name: "drift"}
	recorded := "unknown"
	if h.Approval.ScriptMtime != nil {
		recorded = *h.Approval.ScriptMtime
	}
	now := "unknown"
	if !h.Fingerprint.Mtime.IsZero() {
		now = allowlist.FormatTime(h.Fingerprint.Mtime)
	}
	reapprove := fmt.Sprintf("hermes hooks accept %s --event %s --yes", quote(h.Shown()), h.Event)
	review := "review with: hermes hooks diff " + quote(h.Shown()) + ", then re-approve with: " + reapprove
	unpinned := h.Approval.ScriptSHA256 == ""
	switch h.Drift {
	case allowlist.DriftModified:
		c.Status = CheckFail
		c.Message = fmt.Sprintf("script modified since approval (approved mtime %s, now %s): ", recorded, now)
		switch {
		case unpinned:
			c.Message += "approved without a content hash (by the Hermes agent?), so it still fires and there is no snapshot to diff; review the script, then pin it with: " + reapprove
		case !h.Pinned:
			c.Message += "hooks_pin_scripts is false, so it still fires; " + review
		default:
			c.Message += "run-event skips it until it is re-approved; " + review
		}
		return c
	case allowlist.DriftTouched:
		c.Status, c.Message = CheckInfo, fmt.Sprintf("script touched (mtime %s, approved %s) but its content is unchanged", now, recorded)
	case allowlist.DriftMissing:
		c.Status, c.Message = CheckWarn, "the script cannot be read now: nothing to compare"
	case allowlist.DriftUnknown:
		c.Status, c.Message = CheckInfo, "nothing recorded at approval to compare with"
	default:
		c.Status, c.Message = CheckOK, "script unchanged since approval"
	}
	if unpinned && h.Drift != allowlist.DriftMissing {
		c.Status = CheckInfo
		c.Message += "; approved without a content hash (by the Hermes agent?): to pin it, re-approve with: " + reapprove
	}
	return c
}

// quote single-quotes s for a copy-pasteable command line.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// permissionCheck flags a script someone else could change: writable by
// group or others, or in a folder others may write to without the sticky
// bit. ok is false when the script cannot be stat'ed (the executable check
// already says so).
func permissionCheck(script string) (c Check, ok bool) {
	real, err := filepath.EvalSymlinks(script)
	if err != nil {
		real = script
	}
	fi, err := os.Stat(real)
	if err != nil {
		return Check{}, false
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return Check{"permissions", CheckFail, fmt.Sprintf("%s is writable by group or others (mode %s): someone else could change an approved script; run chmod go-w on it", real, fi.Mode().Perm())}, true
	}
	dir := filepath.Dir(real)
	if di, err := os.Stat(dir); err == nil && di.Mode().Perm()&0o002 != 0 && di.Mode()&os.ModeSticky == 0 {
		return Check{"permissions", CheckFail, fmt.Sprintf("its folder %s is writable by others without the sticky bit (mode %s): someone else could replace the script; run chmod o-w on it", dir, di.Mode())}, true
	}
	return Check{"permissions", CheckOK, "only you can change the script"}, true
}

// smoke runs an approved hook once with the event's synthetic payload and
// judges its answer, then lints it.
func (e *Engine) smoke(ctx context.Context, h ShellHook, r *HookReport) {
	ev, _ := e.Catalogue.Lookup(h.Event)
	fields := e.Payload(ev, nil, true)
	run := e.RunShell(ctx, h, e.WireFor(h.Event, fields))
	res := run.Result
	out := strings.TrimSpace(res.Stdout)
	switch {
	case res.TimedOut:
		r.add("smoke", CheckFail, "smoke run timed out after %ds", h.Timeout)
	case res.Err != "":
		r.add("smoke", CheckFail, "smoke run failed to start: %s", res.Err)
	case out == "":
		r.add("smoke", CheckOK, "smoke run: no output (an observer)")
	default:
		v, err := pyjson.Decode([]byte(out))
		if err != nil {
			r.add("smoke", CheckFail, "smoke run printed output that is not valid JSON: %s", cut(out, 120))
			break
		}
		r.add("smoke", CheckOK, "smoke run answered valid JSON")
		obj, isObj := v.(*pyjson.Object)
		switch {
		case !isObj:
			r.add("smoke", CheckWarn, "the answer %s is not a JSON object: the agent ignores it", cut(out, 120))
		case obj.Len() > 0 && run.Eval.Answer == nil:
			r.add("smoke", CheckWarn, "the answer %s means nothing on %s (see 'hermes hooks events')", cut(obj.String(), 120), h.Event)
		}
	}
	if code := res.ExitCode; code != nil && *code != 0 && !(ev.Blocking && (*code == 1 || *code == 2)) {
		msg := fmt.Sprintf("smoke run exited %d", *code)
		if stderr := strings.TrimSpace(res.Stderr); stderr != "" {
			msg += ": " + cut(stderr, 120)
		}
		r.add("smoke", CheckWarn, "%s", msg)
	}
	e.lint(h, &res, r)
}

// lint adds the warnings that are not problems: a blocking hook without an
// explicit timeout, and one that exits 1 on the smoke run (res, nil when it
// was not run).
func (e *Engine) lint(h ShellHook, res *shell.Result, r *HookReport) {
	ev, _ := e.Catalogue.Lookup(h.Event)
	if !ev.Blocking {
		return
	}
	if !h.TimeoutSet {
		r.add("lint", CheckWarn, "blocking hook without an explicit timeout: the agent waits up to %ds", h.Timeout)
	}
	if res != nil && res.ExitCode != nil && *res.ExitCode == 1 {
		r.add("lint", CheckWarn, "exited 1 on the smoke run: exit 2 blocks a tool call, 1 does not")
	}
}

func cut(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// gatewayChecks checks one gateway hook without running it: HOOK.yaml,
// its events, the handler (handle(event_type, context), found by parsing),
// and the Python that would run it. A disabled hook is only noted.
func (e *Engine) gatewayChecks(ctx context.Context, g gateway.Hook, python string, pyErr error) HookReport {
	r := HookReport{Kind: "gateway", Name: g.Name}
	manifest := filepath.Join(g.Dir, gateway.ManifestName)
	if !g.Enabled {
		r.add("hook_yaml", CheckInfo, "%s: disabled (enabled: false): not loaded", manifest)
		return r
	}
	// Discovery files a missing handler among the folder's problems; it is
	// the handler check's business here.
	var yamlProblems, handlerProblems []string
	for _, p := range g.Problems {
		if strings.HasPrefix(p, "missing handler.py") {
			handlerProblems = append(handlerProblems, p)
		} else {
			yamlProblems = append(yamlProblems, p)
		}
	}
	var eventWarnings, otherWarnings []string
	for _, w := range g.Warnings {
		if strings.HasPrefix(w, "HOOK.yaml events") {
			eventWarnings = append(eventWarnings, w)
		} else {
			otherWarnings = append(otherWarnings, w)
		}
	}
	yamlOK := len(yamlProblems) == 0
	switch {
	case !yamlOK:
		r.add("hook_yaml", CheckFail, "%s: %s", manifest, strings.Join(yamlProblems, "; "))
	case len(otherWarnings) > 0:
		r.add("hook_yaml", CheckWarn, "%s: %s", manifest, strings.Join(otherWarnings, "; "))
	default:
		r.add("hook_yaml", CheckOK, "%s is valid", manifest)
	}
	switch {
	case len(eventWarnings) > 0:
		r.add("events", CheckWarn, "%s", strings.Join(eventWarnings, "; "))
	case yamlOK:
		r.add("events", CheckOK, "events known: %s", strings.Join(g.Events, ", "))
	}

	switch g.Handler {
	case "":
		why := "no handler: add handler.py defining handle(event_type, context), or an executable named handler"
		if len(handlerProblems) > 0 {
			why = strings.Join(handlerProblems, "; ")
		}
		r.add("handler", CheckFail, "%s: %s", g.Dir, why)
		return r
	case gateway.HandlerPy:
		if pyErr != nil || python == "" {
			r.add("handler", CheckSkip, "%s present; handle(event_type, context) not checked: no Python to parse it", g.HandlerPath())
			if pyErr == nil {
				pyErr = &gateway.PythonError{}
			}
			r.add("python", CheckFail, "%v", pyErr)
			return r
		}
	}
	runner := &gateway.Runner{Python: python, Exec: e.Runner}
	switch err := runner.Check(ctx, g); {
	case err != nil:
		r.add("handler", CheckFail, "%v", err)
	case g.Handler == gateway.HandlerExec:
		r.add("handler", CheckOK, "%s is an executable handler", g.HandlerPath())
	default:
		r.add("handler", CheckOK, "%s defines handle(event_type, context)", g.HandlerPath())
	}
	if g.Handler == gateway.HandlerPy {
		r.add("python", CheckOK, "python: %s", python)
	}
	return r
}
