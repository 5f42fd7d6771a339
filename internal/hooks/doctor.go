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
		if !h.Trusted || h.ParseErr != nil {
			reports[i].add("smoke", CheckSkip, "skipped JSON smoke test (%s)", smokeSkipReason(h))
			continue
		}
		wg.Add(1)
		go func(i int, h ShellHook) {
			defer wg.Done()
			sem <- struct{}{}
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

func smokeSkipReason(h ShellHook) string {
	switch {
	case h.ParseErr != nil:
		return "the command cannot be parsed"
	case h.Blocked():
		return "script modified since approval: not run until re-approved"
	}
	return "not approved: doctor never runs an unapproved hook"
}

func (e *Engine) staticChecks(h ShellHook) HookReport {
	r := HookReport{Kind: "shell", Event: h.Event, Command: h.Command}
	if h.ExecErr != nil {
		r.add("executable", CheckFail, "script missing or not executable: %v", h.ExecErr)
	} else {
		r.add("executable", CheckOK, "script %s exists and can run", h.Script)
	}
	if !h.Approved {
		r.add("approved", CheckFail, "not allowlisted — hook will NOT fire (approve with: hermes hooks accept)")
	} else {
		via := ""
		if h.Approval.ApprovedVia != "" {
			via = " via " + h.Approval.ApprovedVia
		}
		r.add("approved", CheckOK, "approved_at: %s%s", h.Approval.ApprovedAt, via)
		r.Checks = append(r.Checks, driftCheck(h))
	}
	if h.Script != "" && h.ExecErr == nil {
		r.Checks = append(r.Checks, permissionCheck(h.Script))
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
	switch h.Drift {
	case allowlist.DriftModified:
		c.Status = CheckFail
		c.Message = fmt.Sprintf("script modified since approval (approved mtime %s, now %s); review with: hermes hooks diff '%s'",
			recorded, now, strings.ReplaceAll(h.Command, "'", `'\''`))
		if !h.Pinned {
			c.Message += " (not pinned: it still fires)"
		}
	case allowlist.DriftTouched:
		c.Status, c.Message = CheckInfo, fmt.Sprintf("script touched (mtime %s, approved %s) but its content is unchanged", now, recorded)
	case allowlist.DriftMissing:
		c.Status, c.Message = CheckWarn, "the script cannot be read now, nothing to compare"
	case allowlist.DriftUnknown:
		c.Status, c.Message = CheckInfo, "nothing recorded at approval to compare with"
	default:
		c.Status, c.Message = CheckOK, "script unchanged since approval"
	}
	if h.Approval.ScriptSHA256 == "" && c.Status != CheckFail {
		c.Status = CheckInfo
		c.Message += "; approved without a content hash (by the agent?): re-approve with 'hermes hooks accept' to pin it"
	}
	return c
}

// permissionCheck flags a script someone else could change: writable by
// group or others, or in a folder others may write to without the sticky
// bit.
func permissionCheck(script string) Check {
	c := Check{Name: "permissions", Status: CheckOK, Message: "only you can change the script"}
	real, err := filepath.EvalSymlinks(script)
	if err != nil {
		real = script
	}
	fi, err := os.Stat(real)
	if err != nil {
		return Check{"permissions", CheckWarn, fmt.Sprintf("cannot stat %s: %v", real, err)}
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return Check{"permissions", CheckFail, fmt.Sprintf("%s is writable by group or others (mode %s): someone else could change an approved script; run chmod go-w on it", real, fi.Mode().Perm())}
	}
	dir := filepath.Dir(real)
	if di, err := os.Stat(dir); err == nil && di.Mode().Perm()&0o002 != 0 && di.Mode()&os.ModeSticky == 0 {
		return Check{"permissions", CheckFail, fmt.Sprintf("its folder %s is writable by others without the sticky bit (mode %s): someone else could replace the script", dir, di.Mode().Perm())}
	}
	return c
}

// smoke runs an approved hook once with the event's synthetic payload and
// judges its answer.
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
		r.add("smoke", CheckOK, "smoke run: no output (an observer), %.3fs", res.ElapsedSeconds())
	default:
		v, err := pyjson.Decode([]byte(out))
		if err != nil {
			r.add("smoke", CheckFail, "smoke run printed output that is not valid JSON: %s", cut(out, 120))
			break
		}
		r.add("smoke", CheckOK, "smoke run answered valid JSON, %.3fs", res.ElapsedSeconds())
		if obj, ok := v.(*pyjson.Object); ok && obj.Len() > 0 && run.Eval.Answer == nil {
			r.add("smoke", CheckWarn, "the answer %s means nothing on %s (see 'hermes hooks events')", cut(obj.String(), 120), h.Event)
		}
	}
	if !h.TimeoutSet && ev.Blocking {
		r.add("lint", CheckWarn, "blocking hook without an explicit timeout: the agent waits up to %ds", h.Timeout)
	}
	if res.ExitCode != nil && *res.ExitCode == 1 && ev.Blocking {
		r.add("lint", CheckWarn, "exited 1 on the smoke run: exit 2 blocks a tool call, 1 does not")
	}
}

func cut(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// gatewayChecks checks one gateway hook without running it.
func (e *Engine) gatewayChecks(ctx context.Context, g gateway.Hook, python string, pyErr error) HookReport {
	r := HookReport{Kind: "gateway", Name: g.Name}
	var yamlProblems []string
	for _, p := range g.Problems {
		yamlProblems = append(yamlProblems, p)
	}
	switch {
	case !g.Enabled:
		r.add("hook_yaml", CheckInfo, "disabled (enabled: false): not loaded")
		return r
	case len(yamlProblems) > 0:
		r.add("hook_yaml", CheckFail, "%s", strings.Join(yamlProblems, "; "))
		return r
	default:
		r.add("hook_yaml", CheckOK, "%s is valid", filepath.Join(g.Dir, gateway.ManifestName))
	}
	if len(g.Warnings) > 0 {
		r.add("events", CheckWarn, "%s", strings.Join(g.Warnings, "; "))
	} else {
		r.add("events", CheckOK, "events known: %s", strings.Join(g.Events, ", "))
	}
	if g.Handler == gateway.HandlerPy {
		if pyErr != nil {
			r.add("python", CheckFail, "%v", pyErr)
			return r
		}
		r.add("python", CheckOK, "python: %s", python)
	}
	runner := &gateway.Runner{Python: python, Exec: e.Runner}
	if err := runner.Check(ctx, g); err != nil {
		r.add("handler", CheckFail, "%v", err)
	} else {
		r.add("handler", CheckOK, "%s defines handle(event_type, context)", g.HandlerPath())
	}
	return r
}
