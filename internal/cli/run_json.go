package cli

import (
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/shell"
)

type firedShellJSON struct {
	Kind string `json:"kind"`
	commandJSON
	Status         string  `json:"status"`
	SkipReason     *string `json:"skip_reason"`
	ExitCode       *int    `json:"exit_code"`
	TimedOut       bool    `json:"timed_out"`
	Error          *string `json:"error"`
	ElapsedSeconds float64 `json:"elapsed_seconds"`
	// What the hook printed; empty for a hook that did not run.
	outputJSON
	Parsed   *hooks.Answer `json:"parsed"`
	Warnings []string      `json:"warnings"`
}

type webhookResultJSON struct {
	URL        string  `json:"url"`
	StatusCode *int    `json:"status_code"`
	Attempts   int     `json:"attempts"`
	Error      *string `json:"error"`
}

func firedToJSON(r hooks.ShellRun) firedShellJSON {
	j := firedShellJSON{Kind: "shell", commandJSON: commandOf(r.Hook.Spec), Status: "fired", Warnings: nonNil(r.Eval.Warnings)}
	if !r.Fired() {
		// A fail-closed guard kept from running still blocks: its answer.
		j.Status, j.SkipReason, j.Parsed = "skipped", pyjson.NullIfEmpty(r.SkipReason), r.Eval.Answer
		return j
	}
	if r.Interrupted {
		j.Status = "interrupted"
	}
	res := r.Result
	j.ExitCode, j.TimedOut, j.Error = res.ExitCode, res.TimedOut, pyjson.NullIfEmpty(res.Err)
	j.ElapsedSeconds, j.Parsed = res.ElapsedSeconds(), r.Eval.Answer
	j.outputJSON = shellOutput(res)
	return j
}

// outputJSON is what a hook printed, as captured (up to 1 MiB a stream),
// in every --json result of a run: test and run-event, shell and gateway.
type outputJSON struct {
	Stdout          string `json:"stdout"`
	Stderr          string `json:"stderr"`
	StdoutTruncated bool   `json:"stdout_truncated"`
	StderrTruncated bool   `json:"stderr_truncated"`
}

// shellOutput is a shell hook's output as outputJSON (gatewayOutput is a
// handler's).
func shellOutput(res shell.Result) outputJSON {
	return outputJSON{res.Stdout, res.Stderr, res.StdoutTruncated, res.StderrTruncated}
}
