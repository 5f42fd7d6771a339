package cli

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/answer"
	"github.com/hermes-hooks/hermes/internal/chaos"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/hooks/cases"
	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// chaosPayload is the payload of --chaos when none is given: the call
// every guard exists to stop.
const chaosPayload = `{"tool_name": "terminal", "args": {"command": "rm -rf /"}}`

type chaosJSON struct {
	whereJSON
	Hooks []chaosHookJSON `json:"hooks"`
}

type chaosHookJSON struct {
	Event string `json:"event"`
	commandJSON
	// Protected is also in commandJSON (omitted when false); here it is
	// always present.
	Protected  bool           `json:"protected"`
	FailClosed bool           `json:"fail_closed"`
	Cells      chaosCellsJSON `json:"cells"`
	Red        bool           `json:"red"`
	Advice     []string       `json:"advice"`
	// NotRun: why the hook was not run at all (every cell n/a).
	NotRun string `json:"not_run,omitempty"`
}

// chaosCellsJSON keeps the columns in the grid's order.
type chaosCellsJSON struct {
	Baseline           chaos.Cell `json:"baseline"`
	DependencyMissing  chaos.Cell `json:"dependency_missing"`
	InterpreterMissing chaos.Cell `json:"interpreter_missing"`
	Crash              chaos.Cell `json:"crash"`
	ExitNoOutput       chaos.Cell `json:"exit_1_no_output"`
	Garbage            chaos.Cell `json:"garbage"`
	Slow               chaos.Cell `json:"slow"`
	Edited             chaos.Cell `json:"edited"`
	Unreadable         chaos.Cell `json:"unreadable"`
}

func cellsJSON(c map[chaos.Fault]chaos.Cell) chaosCellsJSON {
	return chaosCellsJSON{c[chaos.Baseline], c[chaos.DependencyMissing], c[chaos.InterpreterMissing], c[chaos.Crash],
		c[chaos.ExitNoOutput], c[chaos.Garbage], c[chaos.Slow], c[chaos.Edited], c[chaos.Unreadable]}
}

// doctorChaosRun is doctor --chaos (SPEC §25): the fault grid of the
// blocking hooks (pre_tool_call, or those named), exit 1 when a row is red.
func doctorChaosRun(cmd *cobra.Command, opts *doctorOptions) error {
	e, err := opts.f.Engine(cmd)
	if err != nil {
		return err
	}
	ios := opts.f.IO
	list, warnings, err := e.Store.Read()
	if err != nil {
		return err
	}
	printWarnings(ios, e.Diagnostics(), warnings)
	text := opts.ChaosPayload
	if text == "" {
		text = chaosPayload
	}
	p := payloadFlags{JSON: text}
	fields, notes, err := p.read(cmd.Context(), nil)
	if err != nil {
		return err
	}
	printWarnings(ios, nil, notes)
	payload := func(hooks.ShellHook) *pyjson.Object { return fields }
	if opts.ChaosCases != "" && opts.ChaosPayload == "" {
		list, err := cases.Load(opts.ChaosCases, e.Catalogue)
		if err != nil {
			return fmt.Errorf("%w\nNothing was run: fix the case file first", err)
		}
		payload = func(h hooks.ShellHook) *pyjson.Object {
			if c, ok := chaosCase(list, h.Event); ok {
				ev, _ := e.Catalogue.Lookup(h.Event)
				return e.Payload(ev, c.Payload, true)
			}
			return fields
		}
	}

	var hs []hooks.ShellHook
	for _, spec := range e.Parsed.Specs {
		named := len(opts.ChaosCommands) == 0 && spec.Event == answer.EventPreToolCall
		for _, c := range opts.ChaosCommands {
			named = named || spec.Names(c)
		}
		if named {
			// The decision to run, taken now (as doctor's smoke run).
			hs = append(hs, e.InspectNow(spec, list))
		}
	}
	for _, c := range opts.ChaosCommands {
		found := false
		for _, h := range hs {
			found = found || h.Names(c)
		}
		if !found {
			return usageErrorf("command %q is not configured in %s; check the exact string with 'hermes hooks list'", c, configName(e.Setup))
		}
	}

	lab, err := chaos.New(e)
	if err != nil {
		return err
	}
	defer lab.Close()
	rows := lab.Grid(cmd.Context(), hs, payload, max(opts.Parallel, 2*runtime.NumCPU()))
	if err := cmd.Context().Err(); err != nil {
		return CancelError
	}
	red := 0
	for _, r := range rows {
		if r.Red {
			red++
		}
	}
	if opts.JSON {
		out := chaosJSON{whereJSON: where(e.Loc), Hooks: []chaosHookJSON{}}
		for _, r := range rows {
			advice := r.Advice
			if advice == nil {
				advice = []string{}
			}
			out.Hooks = append(out.Hooks, chaosHookJSON{Event: r.Hook.Event, commandJSON: commandOf(r.Hook.Spec),
				Protected: r.Hook.Protected(), FailClosed: r.Hook.FailClosed, Cells: cellsJSON(r.Cells), Red: r.Red, Advice: advice, NotRun: r.NotRun})
		}
		if err := writeJSON(ios.Out, out); err != nil {
			return err
		}
	} else {
		printChaosGrid(opts.f, e, rows, red)
	}
	if red > 0 {
		return SilentError
	}
	return nil
}

// chaosCase is the case of a --cases file whose payload puts a hook of
// event under faults: the first of that event that expects a block (what
// a guard is there for), else the first of that event.
func chaosCase(list []cases.Case, event string) (cases.Case, bool) {
	var first *cases.Case
	for i, c := range list {
		if c.Event != event {
			continue
		}
		if a := c.Expect.Action; a != nil && *a == "block" {
			return c, true
		}
		if first == nil {
			first = &list[i]
		}
	}
	if first == nil {
		return cases.Case{}, false
	}
	return *first, true
}

// printChaosGrid is the human grid: a row per hook, a column per fault, ✓
// block, ✗ allow, · n/a; under each red row the faults that open it and
// the fixes.
func printChaosGrid(f *Factory, e *hooks.Engine, rows []chaos.Row, red int) {
	ios := f.IO
	cs := ios.Colors()
	w := ios.Out
	printLocation(w, e.Loc)
	fmt.Fprintln(w)
	if len(rows) == 0 {
		fmt.Fprintln(w, "No pre_tool_call shell hook to put under faults (name others: hermes hooks doctor --chaos COMMAND…).")
		return
	}
	fmt.Fprintln(w, "Each cell is how the agent judges the hook's run under the fault: ✓ block, ✗ allow (the call goes ahead), · n/a.")
	fmt.Fprintln(w)
	var head strings.Builder
	for _, fl := range chaos.Faults {
		head.WriteString(fmt.Sprintf("  %s", fl.Title()))
	}
	fmt.Fprintf(w, "%s\n", strings.TrimLeft(head.String(), " "))
	for _, r := range rows {
		marks := []string{}
		if r.Hook.Protected() {
			marks = append(marks, "protected")
		}
		if r.Hook.FailClosed {
			marks = append(marks, "fail_closed")
		}
		label := esc(r.Hook.Event) + "  " + esc(chaos.Name(r.Hook))
		if len(marks) > 0 {
			label += "  [" + strings.Join(marks, ", ") + "]"
		}
		icon := cs.SuccessIcon()
		if r.Red {
			icon = cs.FailureIcon()
		} else if r.NotRun != "" {
			icon = cs.WarningIcon()
		} else if r.Cells[chaos.Baseline] != chaos.Block {
			icon = cs.InfoIcon()
		}
		fmt.Fprintf(w, "%s %s\n", icon, label)
		var line strings.Builder
		for i, fl := range chaos.Faults {
			width := len([]rune(fl.Title()))
			mark := map[chaos.Cell]string{chaos.Block: cs.Green("✓"), chaos.Allow: cs.Red("✗"), chaos.NA: "·"}[r.Cells[fl]]
			pad := (width - 1) / 2
			if i == 0 {
				line.WriteString(strings.Repeat(" ", pad) + mark + strings.Repeat(" ", width-1-pad))
				continue
			}
			line.WriteString("  " + strings.Repeat(" ", pad) + mark + strings.Repeat(" ", width-1-pad))
		}
		fmt.Fprintf(w, "%s\n", strings.TrimRight(line.String(), " "))
		switch {
		case r.Red:
			var open []string
			for _, fl := range chaos.Faults[1:] {
				if r.Cells[fl] == chaos.Allow {
					open = append(open, fl.Title())
				}
			}
			fmt.Fprintf(w, "  it blocks as configured, but lets the call through under: %s\n", strings.Join(open, ", "))
			for _, a := range r.Advice {
				fmt.Fprintf(w, "  → %s\n", esc(a))
			}
		case r.NotRun != "":
			fmt.Fprintf(w, "  not run: %s (doctor runs only a hook that may run now)\n", esc(r.NotRun))
		case r.Cells[chaos.Baseline] != chaos.Block:
			fmt.Fprintln(w, "  it does not block this payload as configured: nothing to hold (give one it blocks with --payload)")
		}
	}
	fmt.Fprintln(w)
	if red > 0 {
		fmt.Fprintf(w, "%s %d of %d guard(s) let the call through under some fault (see the fixes under each).\n", cs.FailureIcon(), red, len(rows))
	} else {
		fmt.Fprintf(w, "%s No fault lets a call through that the guards block.\n", cs.SuccessIcon())
	}
}
