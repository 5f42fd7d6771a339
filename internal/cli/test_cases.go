package cli

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"slices"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/hooks/cases"
	"github.com/hermes-hooks/hermes/internal/hooks/gateway"
	"github.com/hermes-hooks/hermes/internal/iostreams"
)

// casesJSON is test --cases --json (docs/json.md).
type casesJSON struct {
	whereJSON
	File        string              `json:"file"`
	Cases       []caseJSON          `json:"cases"`
	Passed      int                 `json:"passed"`
	Failed      int                 `json:"failed"`
	Canaries    canariesJSON        `json:"canaries"`
	Diagnostics []config.Diagnostic `json:"diagnostics"`
}

// canariesJSON counts the canary cases (SPEC §26): those that passed, and
// those whose call was blocked.
type canariesJSON struct {
	Passed  int `json:"passed"`
	Blocked int `json:"blocked"`
}

// countCanaries counts the canaries among results.
func countCanaries(results []cases.Result) (c canariesJSON, n int) {
	for _, r := range results {
		if !r.Case.Canary {
			continue
		}
		n++
		if r.Passed() {
			c.Passed++
		}
		if r.Blocked() {
			c.Blocked++
		}
	}
	return c, n
}

type caseJSON struct {
	Name     string       `json:"name"`
	Event    string       `json:"event"`
	Line     int          `json:"line"`
	Canary   bool         `json:"canary,omitempty"`
	Passed   bool         `json:"passed"`
	Failures []string     `json:"failures"`
	Expected cases.Expect `json:"expected"`
	Got      cases.Got    `json:"got"`
	// Hooks are the event's hooks as run-event --json lists them (shell
	// entries, with whether each is approved and trusted, or gateway
	// entries for a slash command's case).
	Hooks          []any   `json:"hooks"`
	ElapsedSeconds float64 `json:"elapsed_seconds"`
}

// testCasesRun is test --cases: every case of the file fired through the
// engine's dispatch in policy mode, then judged. A case file with a
// problem is a usage error and nothing runs; a failed case exits 1 once
// every case has run and the reports are written.
func testCasesRun(cmd *cobra.Command, opts *testOptions) error {
	ios := opts.f.IO
	f := opts.f
	if opts.Isolated {
		fi, cleanup, err := isolatedFactory(cmd, f)
		if err != nil {
			return err
		}
		defer cleanup()
		f = fi
	}
	e, err := f.Engine(cmd)
	if err != nil {
		return err
	}
	list, err := cases.Load(opts.Cases, e.Catalogue)
	if err != nil {
		return fmt.Errorf("%w\nNothing was run: fix the case file first", err)
	}
	if err := opts.check(e.Parsed.Specs, "shell"); err != nil {
		return err
	}
	printWarnings(ios, e.Diagnostics(), nil)
	if safeMode(opts.f) {
		fmt.Fprintln(ios.ErrOut, "Note: HERMES_SAFE_MODE is set: run-event would fire nothing; test --cases runs the hooks anyway.")
	}
	var results []cases.Result
	var warnings []string
	var gw *cases.GatewayOptions // found when a slash command's case needs it
	for _, c := range list {
		var r cases.Result
		var err error
		if gateway.IsCommandEvent(c.Event) {
			if gw == nil {
				if gw, err = opts.gatewayOptions(e); err != nil {
					return err
				}
			}
			r, err = cases.RunCommand(cmd.Context(), e, c, *gw)
		} else {
			sel := opts.selection()
			sel.Replay = !opts.ReplayAll
			r, err = cases.Run(cmd.Context(), e, c, sel)
		}
		if err != nil {
			if cmd.Context().Err() != nil {
				return CancelError
			}
			return err
		}
		runWarnings := []string(nil)
		if r.Dispatch != nil {
			runWarnings = r.Dispatch.Warnings
		} else if r.Gateway != nil {
			runWarnings = r.Gateway.Warnings
		}
		for _, w := range runWarnings {
			if !slices.Contains(warnings, w) {
				warnings = append(warnings, w)
			}
		}
		results = append(results, r)
	}
	printWarnings(ios, nil, warnings)
	failed := 0
	for _, r := range results {
		if !r.Passed() {
			failed++
		}
	}
	if opts.JUnit != "" {
		var buf bytes.Buffer
		if err := cases.WriteJUnit(&buf, opts.Cases, results); err != nil {
			return err
		}
		if err := os.WriteFile(opts.JUnit, buf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("cannot write the JUnit report: %w", err)
		}
	}
	if opts.Output {
		if err := writeJSON(ios.Out, casesToJSON(e, opts.Cases, results, failed)); err != nil {
			return err
		}
	} else {
		renderCases(opts, e, results, failed)
	}
	if failed > 0 {
		return SilentError
	}
	return nil
}

func casesToJSON(e *hooks.Engine, file string, results []cases.Result, failed int) casesJSON {
	out := casesJSON{whereJSON: where(e.Loc), File: file, Cases: []caseJSON{},
		Passed: len(results) - failed, Failed: failed, Diagnostics: e.Diagnostics()}
	out.Canaries, _ = countCanaries(results)
	for _, r := range results {
		j := caseJSON{Name: r.Case.Name, Event: r.Case.Event, Line: r.Case.Line, Canary: r.Case.Canary, Passed: r.Passed(),
			Failures: nonNil(r.Failures), Expected: r.Case.Expect, Got: r.Got, Hooks: []any{},
			ElapsedSeconds: math.Round(r.Elapsed.Seconds()*1000) / 1000}
		if r.Dispatch != nil {
			for _, run := range r.Dispatch.Runs {
				j.Hooks = append(j.Hooks, caseHookJSON{firedToJSON(run), run.Hook.Approved, run.Hook.Allowed()})
			}
		}
		if r.Gateway != nil {
			for _, en := range gatewayEntries(r.Gateway, true) {
				j.Hooks = append(j.Hooks, en.json())
			}
		}
		out.Cases = append(out.Cases, j)
	}
	return out
}

// caseHookJSON is a hook of a policy case: as run-event lists it, and
// whether run-event would run it without asking (SPEC §13.2 rule 6).
type caseHookJSON struct {
	firedShellJSON
	Approved bool `json:"approved"`
	Trusted  bool `json:"trusted"`
}

// untrustedRuns lists, once each, the hooks the cases ran that run-event
// would not run without asking, with test's marks (SPEC §13.2 rule 6).
func untrustedRuns(cs iostreams.Palette, results []cases.Result) []string {
	seen := map[[2]string]bool{}
	var out []string
	for _, r := range results {
		if r.Dispatch == nil {
			continue
		}
		for _, run := range r.Dispatch.Runs {
			h := run.Hook
			key := [2]string{h.Event, h.Command}
			if !run.Fired() || h.Allowed() || seen[key] {
				continue
			}
			seen[key] = true
			mark := cs.FailureIcon() + " not allowlisted"
			if h.Approved {
				mark = cs.WarningIcon() + " " + esc(blockWords(h.Reason()))
			}
			out = append(out, fmt.Sprintf("%s  %s %s", mark, esc(h.Event), esc(h.Shown())))
		}
	}
	return out
}

// gatewayOptions finds the interpreter a slash command's case runs its
// handlers with (--python, HERMES_PYTHON, python3), as test does.
func (opts *testOptions) gatewayOptions(e *hooks.Engine) (*cases.GatewayOptions, error) {
	if err := e.GatewayError(); err != nil {
		return nil, err
	}
	python, pyErr := gateway.FindPython(opts.Python, opts.f.Env)
	if pyErr != nil {
		fmt.Fprintf(opts.f.IO.ErrOut, "%s %s\n", opts.f.IO.ErrColors().WarningIcon(), esc(pyErr.Error()))
	}
	return &cases.GatewayOptions{Python: python, PyErr: pyErr, Timeout: opts.Timeout}, nil
}

// renderCases prints one line per case, what was expected and what
// happened under each failed one, then the count.
func renderCases(opts *testOptions, e *hooks.Engine, results []cases.Result, failed int) {
	w, cs := opts.f.IO.Out, opts.f.IO.Colors()
	printLocation(w, e.Loc)
	fmt.Fprintf(w, "Cases: %s\n\n", esc(opts.Cases))
	canaries, nCanaries := countCanaries(results)
	// The canaries in a section of their own, after the other cases.
	ordered := make([]cases.Result, 0, len(results))
	for _, canary := range []bool{false, true} {
		for _, r := range results {
			if r.Case.Canary == canary {
				ordered = append(ordered, r)
			}
		}
	}
	for i, r := range ordered {
		if r.Case.Canary && (i == 0 || !ordered[i-1].Case.Canary) {
			if i > 0 {
				fmt.Fprintln(w)
			}
			fmt.Fprintln(w, cs.Bold("Canaries (must not be blocked):"))
		}
		if r.Passed() {
			fmt.Fprintf(w, "%s %s\n", cs.SuccessIcon(), esc(r.Case.Name))
			continue
		}
		fmt.Fprintf(w, "%s %s  (%s, line %d)\n", cs.FailureIcon(), cs.Bold(esc(r.Case.Name)), esc(r.Case.Event), r.Case.Line)
		for _, f := range r.Failures {
			fmt.Fprintf(w, "    %s\n", esc(f))
		}
		lines := r.HookLines()
		if len(lines) == 0 {
			fmt.Fprintf(w, "    no %s hook is configured\n", esc(r.Case.Event))
		}
		for _, l := range lines {
			fmt.Fprintf(w, "    %s %s\n", cs.Gray("hook"), esc(l))
		}
	}
	noun := "cases"
	if len(results) == 1 {
		noun = "case"
	}
	summary := fmt.Sprintf("%d %s: %d passed, %d failed", len(results), noun, len(results)-failed, failed)
	if failed > 0 {
		summary = cs.Red(summary)
	} else {
		summary = cs.Green(summary)
	}
	fmt.Fprintf(w, "\n%s\n", summary)
	if nCanaries > 0 {
		line := fmt.Sprintf("canaries: %d passed, %d blocked", canaries.Passed, canaries.Blocked)
		if canaries.Blocked > 0 {
			line = cs.Red(line)
		}
		fmt.Fprintln(w, line)
	}
	if lines := untrustedRuns(cs, results); len(lines) > 0 {
		fmt.Fprintln(w, "\nRun because test was asked to (run-event would not run them without approval):")
		for _, l := range lines {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
}
