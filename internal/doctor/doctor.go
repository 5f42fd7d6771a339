package doctor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/answer"
	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/guard"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/hooks/gateway"
	"github.com/hermes-hooks/hermes/internal/hookspec"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/pystr"
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
	Kind   string         // "shell", "gateway" or "home"
	Spec   *hookspec.Spec // shell: the hook, named by Spec.Shown
	Name   string         // gateway: its name; home: the HERMES_HOME
	Checks []Check
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

// Options are how doctor runs.
type Options struct {
	// Parallel smoke runs at once (0: the number of CPUs).
	Parallel int
	// Python for the gateway checks, or why there is none.
	Python string
	PyErr  error
	// SafeMode: HERMES_SAFE_MODE is set; no smoke run (SPEC §13.15).
	SafeMode bool
	// NoSmoke: --no-smoke; no smoke run, they run the hooks for real.
	NoSmoke bool
	// Guard is hermes-guard beside the running hermes ("" when there is
	// none): a protected hook run through another is pointed out.
	Guard string
}

// Run checks the home's own files, every shell hook (in config order)
// and every gateway hook. Smoke runs of approved hooks run concurrently,
// at most o.Parallel at a time; the reports keep config order. It never
// runs a hook that run-event would not fire without asking: each is judged
// again (InspectNow) right before its smoke run.
func Run(ctx context.Context, e *hooks.Engine, list *allowlist.List, o Options) []HookReport {
	parallel := o.Parallel
	if parallel <= 0 {
		parallel = runtime.NumCPU()
	}
	hs := e.ShellHooks(list)
	reports := make([]HookReport, 0, len(hs)+1)
	if r := homeChecks(e); len(r.Checks) > 0 {
		reports = append(reports, r)
	}
	first := len(reports)
	reports = append(reports, make([]HookReport, len(hs))...)
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i, h := range hs {
		i += first
		reports[i] = staticChecks(e, h)
		repointCheck(h, o.Guard, &reports[i])
		reason := smokeSkipReason(h)
		if o.SafeMode && reason == "" {
			reason = "safe mode"
		}
		if o.NoSmoke && reason == "" {
			reason = "--no-smoke"
		}
		if h.Refusal != "" {
			reports[i].add("smoke", CheckFail, "not run: %s", h.Refusal)
			continue
		}
		if reason != "" {
			reports[i].add("smoke", CheckSkip, "skipped JSON smoke test (%s)", reason)
			lint(e, h, nil, &reports[i])
			continue
		}
		// Taking the slot before starting the goroutine starts the runs in
		// config order and keeps at most parallel goroutines alive.
		sem <- struct{}{}
		wg.Add(1)
		go func(i int, h hooks.ShellHook) {
			defer wg.Done()
			defer func() { <-sem }()
			// The same decision as run-event's, taken now: the display
			// caches above never decide what runs.
			now := e.InspectNow(h.Spec, list)
			if !now.Allowed() {
				reports[i].add("smoke", CheckSkip, "skipped JSON smoke test (%s)", now.Reason())
				return
			}
			smoke(ctx, e, now, &reports[i])
		}(i, h)
	}
	wg.Wait()
	guardedChecks(e, hs, reports[first:])
	failClosedChecks(e, hs, reports[first:])
	for _, g := range e.GatewayHooks() {
		reports = append(reports, gatewayChecks(ctx, e, g, o.Python, o.PyErr))
	}
	return reports
}

// guardedChecks adds to each protected hook's report what the audit log
// says of the agent's runs of it (GuardedChecks): one read of the log for
// all of them. reports are hs's, in order.
func guardedChecks(e *hooks.Engine, hs []hooks.ShellHook, reports []HookReport) {
	var guarded []Guarded
	var at []int
	for i, h := range hs {
		if !h.Protected() || !h.Approved {
			continue
		}
		since, _ := allowlist.ParseTime(h.Approval.ApprovedAt)
		// Lines name it by the command it guards (SPEC §24 item 4); older
		// lines by the wrapped command.
		inner, _ := guard.AuditCommand(h.Command)
		guarded = append(guarded, Guarded{Event: h.Event, Commands: []string{inner, h.InnerShown(), h.Command, h.Shown()}, Since: since})
		at = append(at, i)
	}
	if len(guarded) == 0 {
		return
	}
	checks, _, err := GuardedChecks(e.Loc.Home, guarded)
	if err != nil {
		for _, i := range at {
			reports[i].add(AuditCheckName, CheckWarn, "cannot read the audit log to see whether the agent ran it: %v", err)
		}
		return
	}
	for k, i := range at {
		reports[i].Checks = append(reports[i].Checks, checks[k]...)
	}
}

// smokeSkipReason says why a hook gets no smoke run, "" when it gets one:
// only a hook run-event would fire without asking is run, and only when it
// can start (its failure to is already a problem of its own).
func smokeSkipReason(h hooks.ShellHook) string {
	switch {
	case h.ParseErr != nil:
		return "the command cannot be parsed"
	case !h.Approved:
		return "not approved: doctor never runs an unapproved hook"
	case h.ExecErr != nil:
		return "script missing or not executable"
	case h.Blocked() && h.Drift == allowlist.DriftMissing:
		return hooks.SkipUnreadable + ": not run until re-approved"
	case h.Blocked():
		return "script modified since approval: not run until re-approved"
	case h.Unsafe != nil:
		return "someone else can change the script: not run"
	}
	return ""
}

func staticChecks(e *hooks.Engine, h hooks.ShellHook) HookReport {
	r := HookReport{Kind: "shell", Spec: &h.Spec}
	r.Checks = append(r.Checks, executableChecks(h)...)
	if c, ok := operatorCheck(h); ok {
		r.Checks = append(r.Checks, c)
	}
	if !h.Approved {
		r.add("approved", CheckFail, "not allowlisted — hook will NOT fire (review it, then approve with: hermes hooks accept %s --event %s --yes)",
			quote(h.Shown()), shell.Quote(h.Event))
	} else {
		via := ""
		if h.Approval.ApprovedVia != "" {
			via = " via " + h.Approval.ApprovedVia
		}
		r.add("approved", CheckOK, "approved_at: %s%s", h.Approval.ApprovedAt, via)
		r.Checks = append(r.Checks, driftCheck(h))
	}
	r.Checks = append(r.Checks, codeChecks(e.Config.Settings.PinScripts || h.Protected(), h)...)
	if h.Refusal != "" {
		r.add("executable", CheckFail, "%s", h.Refusal)
	}
	if h.Present {
		// Readable or not, executable or not: whoever else can change it
		// decides what runs (SPEC §13.2 rule 2).
		r.Checks = append(r.Checks, permissionCheck(e, h))
	}
	switch {
	case h.Protected():
		if problem := e.GuardProblem(h.Spec); problem != "" {
			r.add("guard", CheckFail, "%s", problem)
		} else {
			r.add("guard", CheckOK, "protected: the agent runs it through %s", h.Guard.Guard)
		}
		if _, ok := guard.DialectCommand(*h.Guard); ok {
			if _, noScript := guard.Judged(*h.Guard); !noScript {
				r.add("dialect", CheckOK, "a Claude Code hook (run through sh -c in the Claude Code dialect); the approval pins its script %s", h.Script)
			} else {
				r.add("dialect", CheckOK, "a Claude Code hook with no script file: what is approved is the command string itself (no file is hashed; the programs it starts are found in PATH when it runs)")
			}
		}
	case e.Config.Settings.PinScripts && h.ParseErr == nil:
		r.add("guard", CheckWarn, "the agent runs this script whatever it holds; protect it with: hermes hooks protect %s", quote(h.Shown()))
	}
	return r
}

// repointCheck suggests protect --all for a protected hook whose guard is
// not the one beside this hermes (SPEC §28 item 4): after `make install`
// the config still runs the checkout's guard, which the next `git clean`
// removes, or which an old build keeps deciding with. A warning, not a
// problem: that guard still decides.
func repointCheck(h hooks.ShellHook, guardPath string, r *HookReport) {
	if guardPath == "" || !h.Protected() || h.Guard.Guard == guardPath {
		return
	}
	r.add("guard", CheckWarn, "its guard %s is not the one beside this hermes (%s); re-point it with: hermes hooks protect --all",
		h.Guard.Guard, guardPath)
}

func driftCheck(h hooks.ShellHook) Check {
	c := Check{Name: "drift"}
	if h.NoScript {
		c.Status, c.Message = CheckOK, "no script file: the approval is the command string itself, which cannot drift"
		return c
	}
	recorded := "unknown"
	if h.Approval.ScriptMtime != nil {
		recorded = *h.Approval.ScriptMtime
	}
	now := "unknown"
	if !h.Fingerprint.Mtime.IsZero() {
		now = allowlist.MtimeString(h.Fingerprint.Mtime)
	}
	reapprove := fmt.Sprintf("hermes hooks accept %s --event %s --yes", quote(h.Named()), shell.Quote(h.Event))
	review := "review with: hermes hooks diff " + quote(h.Named()) + ", then re-approve with: " + reapprove
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
		c.Status, c.Message = CheckInfo, fmt.Sprintf("script touched (mtime %s, approved %s) but its content is unchanged; the agent compares the mtime and reports \"script modified since approval\" until it is re-approved: %s", now, recorded, reapprove)
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

// permissionCheck flags a script someone else could change (SPEC §13.5):
// the script or a folder above it owned by another user, or writable by
// others or by a shared group. With hooks_strict_modes: false the finding is
// only information.
func permissionCheck(e *hooks.Engine, h hooks.ShellHook) Check {
	// The verdict's own finding when the rule is on, so that doctor says
	// what run-event does; asked here only to inform when it is off.
	err := h.Unsafe
	if err == nil && !(e.Config.Settings.StrictModes && e.Config.Settings.PinScripts) {
		err = e.SafePaths().Check(h.Script)
	}
	switch {
	case err == nil:
		return Check{"permissions", CheckOK, "only you (or root) can change the script and every folder above it"}
	case !e.Config.Settings.StrictModes:
		return Check{"permissions", CheckInfo, fmt.Sprintf("%v: someone else could change this script (hooks_strict_modes is false, so it still fires)", err)}
	case !e.Config.Settings.PinScripts:
		return Check{"permissions", CheckInfo, fmt.Sprintf("%v: someone else could change this script (hooks_pin_scripts is false, so it still fires)", err)}
	}
	return Check{"permissions", CheckFail, fmt.Sprintf("%v: someone else could change an approved script, so run-event will not run it; fix the owner or mode (chmod go-w), or set hooks_strict_modes: false", err)}
}

// homeChecks fails when another user could change HERMES_HOME, the config
// file or the allowlist: whoever can, decides what runs.
func homeChecks(e *hooks.Engine) HookReport {
	r := HookReport{Kind: "home", Name: e.Loc.Home}
	paths := []string{e.Loc.Home}
	if e.Loc.ConfigPath != "" {
		paths = append(paths, e.Loc.ConfigPath)
	}
	if _, err := os.Stat(e.Store.Path); err == nil {
		paths = append(paths, e.Store.Path)
	}
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		// Only findings: a healthy home adds nothing to the report.
		err := e.SafePaths().Check(p)
		switch {
		case err == nil:
		case !e.Config.Settings.StrictModes:
			r.add("permissions", CheckInfo, "%v (hooks_strict_modes is false)", err)
		default:
			r.add("permissions", CheckFail, "%v: another user could change which hooks run; fix the owner or mode (chmod go-w)", err)
		}
	}
	return r
}

// smoke runs an approved hook once with the event's synthetic payload and
// judges its answer, then lints it.
func smoke(ctx context.Context, e *hooks.Engine, h hooks.ShellHook, r *HookReport) {
	ev, _ := e.Catalogue.Lookup(h.Event)
	fields := e.Payload(ev, nil, true)
	run := e.RunShell(ctx, h, e.WireFor(h.Event, fields))
	res := run.Result
	out := pystr.Strip(res.Stdout)
	switch {
	case run.GuardRefusal != "":
		r.add("smoke", CheckFail, "refused by the guard: %s", run.GuardRefusal)
		return
	case res.TimedOut:
		r.add("smoke", CheckFail, "smoke run timed out after %ds", h.Timeout)
	case res.Err != "":
		r.add("smoke", CheckFail, "smoke run failed to start: %s", res.Err)
	case out == "" && failedWithStderr(ev, res):
		r.add("smoke", CheckFail, "smoke run exited %d with nothing on stdout: %s", *res.ExitCode, lastLine(res.Stderr))
	case out == "":
		r.add("smoke", CheckOK, "smoke run: no output (an observer)")
	default:
		v, err := pyjson.Decode([]byte(out))
		if err != nil {
			r.add("smoke", CheckFail, "smoke run printed output that is %s", answer.NotJSON(out, err))
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
	if code := res.ExitCode; code != nil && *code != 0 && !(ev.Blocking && (*code == 1 || *code == 2)) && !failedWithStderr(ev, res) {
		msg := fmt.Sprintf("smoke run exited %d", *code)
		if stderr := strings.TrimSpace(res.Stderr); stderr != "" {
			msg += ": " + cut(stderr, 120)
		}
		r.add("smoke", CheckWarn, "%s", msg)
	}
	lint(e, h, &res, r)
}

// failedWithStderr reports a run that failed the way a broken hook does: a
// non-zero exit, nothing on stdout, an error on stderr. Exit 2 of a
// blocking hook is an answer (a block whose message is stderr), not that.
func failedWithStderr(ev catalog.Event, res shell.Result) bool {
	code := res.ExitCode
	return code != nil && *code != 0 && !(ev.Blocking && *code == 2) &&
		strings.TrimSpace(res.Stdout) == "" && strings.TrimSpace(res.Stderr) != ""
}

// lastLine is the last non-blank line of s, cut to 200 characters.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return cut(strings.TrimSpace(lines[len(lines)-1]), 200)
}

// lint adds the warnings that are not problems: a blocking hook without an
// explicit timeout, and one that exits 1 on the smoke run (res, nil when it
// was not run).
func lint(e *hooks.Engine, h hooks.ShellHook, res *shell.Result, r *HookReport) {
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
func gatewayChecks(ctx context.Context, e *hooks.Engine, g gateway.Hook, python string, pyErr error) HookReport {
	r := HookReport{Kind: "gateway", Name: g.Name}
	manifest := filepath.Join(g.Dir, gateway.ManifestName)
	if !g.Enabled {
		r.add("hook_yaml", CheckInfo, "%s: disabled (enabled: false): not loaded", manifest)
		return r
	}
	if g.Unsafe != nil {
		// Nothing of it is run, not even to check its handler.
		r.add("permissions", CheckFail, "%v: another user could change this gateway hook; the agent would load it and run it as you (hermes does not); fix the owner or mode (chmod go-w), or remove it", g.Unsafe)
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
	missing, err := runner.CheckImports(ctx, g)
	switch {
	case err != nil:
		r.add("handler", CheckFail, "%v", err)
	case g.Handler == gateway.HandlerExec:
		r.add("handler", CheckOK, "%s is an executable handler", g.HandlerPath())
	default:
		r.add("handler", CheckOK, "%s defines handle(event_type, context)", g.HandlerPath())
	}
	if g.Handler == gateway.HandlerPy {
		r.add("python", CheckOK, "python: %s", python)
		importChecks(&r, g, python, missing)
	}
	return r
}

// importChecks warns about each module the handler imports at its top
// level that the gateway's Python cannot find (SPEC §28 item 5): the
// gateway would fail to load the handler, which the ast check alone
// passes. A warning, not a problem: the gateway may run another Python.
func importChecks(r *HookReport, g gateway.Hook, python string, missing []gateway.MissingModule) {
	for _, m := range missing {
		r.add("imports", CheckWarn, "%s:%d imports %s, which %s cannot find: the gateway would fail to load this handler with that Python (install it there, or check with the gateway's own: --python PATH or HERMES_PYTHON)",
			g.HandlerPath(), m.Line, m.Module, python)
	}
}
