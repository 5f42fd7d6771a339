package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks/cases"
	"github.com/hermes-hooks/hermes/internal/iostreams"
)

// The exit codes of SPEC §10.9.
const (
	ExitOK          = 0
	ExitFailed      = 1
	ExitUsage       = 2
	ExitBlocked     = 3
	ExitInterrupted = 130
)

// exitCodeTable is printed in `hermes --help` and `hermes hooks --help`.
const exitCodeTable = `Exit codes:
  0    done
  1    a check failed (doctor problems, revoke found nothing, hash mismatch)
       or an operation failed (I/O)
  2    usage: unknown command or flag, unknown event, bad payload,
       missing argument, --yes needed
  3    run-event --exit-code and the outcome is a block
  130  interrupted (Ctrl-C); running hooks were killed`

// UsageError is a mistake in how the command was called (exit 2).
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

// usageErrorf builds a UsageError.
func usageErrorf(format string, args ...any) error {
	return &UsageError{msg: fmt.Sprintf(format, args...)}
}

// SilentError means the failure was already reported (exit 1).
var SilentError = errors.New("silent error")

// ExitError ends the program with a given code without printing anything
// more (run-event --exit-code, diff's "changed").
type ExitError struct{ Code int }

func (e *ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// CancelError means the user interrupted the program (exit 130).
var CancelError = errors.New("interrupted")

// HandleError prints err (unless it was already reported) and returns the
// exit code for it. It is the one place errors become exit codes.
func HandleError(io *iostreams.IOStreams, err error) int {
	if err == nil {
		return ExitOK
	}
	cs := io.ErrColors()
	var exitErr *ExitError
	var usage *UsageError
	var syntax *config.SyntaxError
	var refused *config.RefusedError
	var profile *config.ProfileError
	var missingConfig *config.ConfigNotFoundError
	var fileErr *config.FileError
	var homeMissing *config.HomeMissingError
	var caseFile *cases.Error
	var notEdited *configRefusedError
	switch {
	case errors.As(err, &exitErr):
		return exitErr.Code
	case errors.Is(err, SilentError):
		return ExitFailed
	case errors.Is(err, CancelError), errors.Is(err, context.Canceled):
		fmt.Fprintln(io.ErrOut, "interrupted")
		return ExitInterrupted
	case errors.As(err, &usage), isCobraUsage(err):
		fmt.Fprintf(io.ErrOut, "%s %s\n", cs.FailureIcon(), escText(err.Error()))
		fmt.Fprintln(io.ErrOut, "Run 'hermes --help' for usage.")
		return ExitUsage
	case errors.As(err, &syntax), errors.As(err, &refused), errors.As(err, &profile), errors.As(err, &missingConfig),
		errors.As(err, &caseFile), errors.As(err, &notEdited), errors.As(err, &fileErr), errors.As(err, &homeMissing):
		fmt.Fprintf(io.ErrOut, "%s %s\n", cs.FailureIcon(), escText(err.Error()))
		return ExitUsage
	}
	fmt.Fprintf(io.ErrOut, "%s %s\n", cs.FailureIcon(), escText(err.Error()))
	return ExitFailed
}

// isCobraUsage recognises the errors Cobra and pflag return for bad
// arguments and flags; they carry no type of their own.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, prefix := range []string{"unknown command", "unknown flag", "unknown shorthand flag",
		"flag needs an argument", "invalid argument", "accepts ", "requires at least", "requires at most",
		"if any flags in the group", "required flag"} {
		if strings.HasPrefix(msg, prefix) {
			return true
		}
	}
	return false
}
