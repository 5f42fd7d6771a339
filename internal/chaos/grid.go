package chaos

import (
	"context"
	"sync"

	"github.com/hermes-hooks/hermes/internal/answer"
	"github.com/hermes-hooks/hermes/internal/guard"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// Row is one hook's line of the grid.
type Row struct {
	Hook  hooks.ShellHook
	Cells map[Fault]Cell
	// Why says, for an n/a cell, why the fault does not apply; for a cell
	// that could not be made, what went wrong.
	Why map[Fault]string
	// NotRun says why the hook was not run at all (it may not run now:
	// not approved, modified, unsafe); every cell is then n/a.
	NotRun string
	// Red: the baseline blocks and some fault lets the call through.
	Red    bool
	Advice []string
}

// Fire runs a trial through the engine and judges it as the agent does.
func (l *Lab) Fire(ctx context.Context, h hooks.ShellHook, t Trial, wire []byte) Cell {
	if t.NA != "" {
		return NA
	}
	run := l.e.RunRequest(ctx, h, shell.Request{Argv: t.Argv, Stdin: wire, Env: t.Env, Timeout: t.Timeout})
	return CellOf(run.Eval.Answer)
}

// CellOf is an answer as a cell: a block, or anything else (the call goes
// ahead).
func CellOf(a *answer.Answer) Cell {
	if a != nil && a.Action == answer.ActionBlock {
		return Block
	}
	return Allow
}

// Grid runs every fault for each hook (at most parallel runs at once) and
// returns a row per hook, in order. payload gives each hook's payload
// (fields shape).
func (l *Lab) Grid(ctx context.Context, hs []hooks.ShellHook, payload func(hooks.ShellHook) *pyjson.Object, parallel int) []Row {
	rows := make([]Row, len(hs))
	sem := make(chan struct{}, max(parallel, 1))
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i, h := range hs {
		rows[i] = Row{Hook: h, Cells: map[Fault]Cell{}, Why: map[Fault]string{}}
		if !h.Allowed() {
			// As doctor's smoke run: a hook that may not run now is not
			// run, under any fault.
			rows[i].NotRun = h.Reason()
			for _, f := range Faults {
				rows[i].Cells[f] = NA
			}
			continue
		}
		fields := payload(h)
		wire := l.Wire(h.Event, fields)
		for _, f := range Faults {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				cell, why := NA, ""
				t, err := l.Prepare(h, f, fields)
				switch {
				case err != nil:
					why = "could not be made: " + err.Error()
				case t.NA != "":
					why = t.NA
				case ctx.Err() == nil:
					cell = l.Fire(ctx, h, t, wire)
				}
				mu.Lock()
				rows[i].Cells[f] = cell
				if why != "" {
					rows[i].Why[f] = why
				}
				mu.Unlock()
			}()
		}
	}
	wg.Wait()
	for i := range rows {
		rows[i].judge()
	}
	return rows
}

// judge sets Red and the advice.
func (r *Row) judge() {
	if r.Cells[Baseline] != Block {
		return
	}
	for _, f := range Faults[1:] {
		if r.Cells[f] == Allow {
			r.Red = true
		}
	}
	if !r.Red {
		return
	}
	h := r.Hook
	cmd := shell.Quote(Name(h))
	guardFC := h.Guard != nil && h.Guard.FailClosed
	if !h.FailClosed {
		r.Advice = append(r.Advice, "add fail_closed: true to this hook: the agent then blocks on a spawn error, a timeout or output that is not JSON")
	}
	if !guardFC && (r.Cells[Crash] == Allow || r.Cells[ExitNoOutput] == Allow || r.Cells[DependencyMissing] == Allow) {
		how := "hermes hooks protect --fail-closed " + cmd
		if h.Guard != nil {
			how = "hermes hooks unprotect " + cmd + ", then " + how
		}
		r.Advice = append(r.Advice, "a crash or an exit with no answer is let through by the agent even with fail_closed; protect it so that they block: "+how)
	}
	if r.Cells[DependencyMissing] == Allow {
		r.Advice = append(r.Advice, `make the script block when a program it needs is missing, e.g. command -v jq >/dev/null || { echo '{"action":"block","message":"jq missing"}'; exit 2; }`)
	}
	if r.Cells[Edited] == Allow {
		r.Advice = append(r.Advice, "change the script with hermes hooks edit "+cmd+": the new version is approved as it lands, never run unapproved")
	}
}

// Name is how the grid names a hook: the command a Claude Code hook was
// written as (every command takes it), else the command named as usual.
func Name(h hooks.ShellHook) string {
	if h.Guard != nil {
		if c, ok := guard.DialectCommand(*h.Guard); ok {
			return c
		}
	}
	return h.Named()
}
