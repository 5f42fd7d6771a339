package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks/cases"
	"github.com/hermes-hooks/hermes/internal/iostreams"
	"github.com/hermes-hooks/hermes/internal/lockfile"
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
  1    a check failed (doctor problems, revoke found nothing, hash mismatch,
       accept --from-lock refused a hook) or an operation failed (I/O)
  2    usage: unknown command or flag, unknown event, bad payload,
       missing argument, --yes needed, a HERMES_HOME named that does not
       exist, a lock file that cannot be used
  3    run-event --exit-code and the outcome is a block
  130  interrupted (Ctrl-C); running hooks were killed`

// ExitCode is one row of the exit-code table.
type ExitCode struct {
	Code    int
	Meaning string
}

// ExitCodes is the exit-code table of SPEC §10.9 as rows, for the man
// page (cmd/gen-docs); the help shows exitCodeTable.
func ExitCodes() []ExitCode {
	var out []ExitCode
	for _, line := range strings.Split(exitCodeTable, "\n")[1:] {
		code, meaning, _ := strings.Cut(strings.TrimSpace(line), " ")
		meaning = strings.TrimSpace(meaning)
		var n int
		if _, err := fmt.Sscanf(code, "%d", &n); err != nil {
			out[len(out)-1].Meaning += " " + strings.TrimSpace(line) // continued
			continue
		}
		out = append(out, ExitCode{n, meaning})
	}
	return out
}

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

// reportedError is a failure whose --json document was already printed
// (run-event interrupted prints the runs so far): the error is said on
// stderr, but no second JSON object goes to stdout.
type reportedError struct{ err error }

func (e *reportedError) Error() string { return e.err.Error() }
func (e *reportedError) Unwrap() error { return e.err }

// invocationError is an error as Execute returns it: with the command that
// failed and whether its output was asked for as JSON, so that HandleError
// can point at that command's help and answer a script in JSON.
type invocationError struct {
	err  error
	path string // "hermes hooks test"
	json bool
}

func (e *invocationError) Error() string { return e.err.Error() }
func (e *invocationError) Unwrap() error { return e.err }

// errorJSON is what a command given --json prints on stdout when it fails
// (docs/json.md): the exit code and the message also said on stderr.
type errorJSON struct {
	Error struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// HandleError prints err (unless it was already reported) and returns the
// exit code for it. It is the one place errors become exit codes. When the
// failing command was given --json, it also prints {"error": {"code",
// "message"}} on stdout, unless the command's own document is already
// there (errors that were already reported).
func HandleError(io *iostreams.IOStreams, err error) int {
	if err == nil {
		return ExitOK
	}
	inv := &invocationError{path: "hermes"}
	errors.As(err, &inv)
	code, msg := handleError(io, err, inv.path)
	var reported *reportedError
	if inv.json && msg != "" && !errors.As(err, &reported) {
		var doc errorJSON
		doc.Error.Code, doc.Error.Message = code, msg
		_ = writeJSON(io.Out, doc)
	}
	return code
}

// handleError says err on stderr and returns its exit code and the message
// said ("" when the error had been reported already).
func handleError(io *iostreams.IOStreams, err error, path string) (int, string) {
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
	var lockErr *lockfile.Error
	var scanLockErr *lockfile.ScanError
	switch {
	case errors.As(err, &exitErr):
		return exitErr.Code, ""
	case errors.Is(err, SilentError):
		return ExitFailed, ""
	case errors.Is(err, CancelError), errors.Is(err, context.Canceled):
		fmt.Fprintln(io.ErrOut, "interrupted")
		return ExitInterrupted, "interrupted"
	case errors.As(err, &usage), isCobraUsage(err):
		msg := cobraMessage(err)
		fmt.Fprintf(io.ErrOut, "%s %s\n", cs.FailureIcon(), escText(msg))
		fmt.Fprintf(io.ErrOut, "Run '%s --help' for usage.\n", path)
		return ExitUsage, msg
	case errors.As(err, &syntax), errors.As(err, &refused), errors.As(err, &profile), errors.As(err, &missingConfig),
		errors.As(err, &caseFile), errors.As(err, &notEdited), errors.As(err, &fileErr), errors.As(err, &homeMissing),
		errors.As(err, &lockErr), errors.As(err, &scanLockErr):
		fmt.Fprintf(io.ErrOut, "%s %s\n", cs.FailureIcon(), escText(err.Error()))
		return ExitUsage, err.Error()
	}
	fmt.Fprintf(io.ErrOut, "%s %s\n", cs.FailureIcon(), escText(err.Error()))
	return ExitFailed, err.Error()
}

// cobraMessage rewords the errors Cobra words for itself in the project's
// voice; others are returned as they are.
func cobraMessage(err error) string {
	msg := err.Error()
	// "if any flags in the group [a b] are set none of the others can be; [b a] were all set"
	if rest, ok := strings.CutPrefix(msg, "if any flags in the group ["); ok {
		if _, set, ok := strings.Cut(rest, "; ["); ok {
			if names, _, ok := strings.Cut(set, "] were all set"); ok {
				flags := strings.Fields(names)
				for i, n := range flags {
					flags[i] = "--" + n
				}
				if len(flags) == 2 {
					return fmt.Sprintf("%s and %s cannot be used together; give one", flags[0], flags[1])
				}
				return fmt.Sprintf("%s cannot be used together; give one", strings.Join(flags, ", "))
			}
		}
	}
	return msg
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
