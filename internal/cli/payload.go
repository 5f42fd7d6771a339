package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/regfile"
)

// payloadFlags are the flags test and run-event share.
type payloadFlags struct {
	File    string
	JSON    string
	Stdin   bool // the "-" argument
	ForTool string
	DryRun  bool
	Timeout time.Duration
	Python  string
	Output  bool // --json

	// info is how a payload wholly of the hook's stdin shape was read,
	// set by read: said once, not as a warning.
	info string
}

func (p *payloadFlags) register(cmd *cobra.Command, f *Factory) {
	fl := cmd.Flags()
	fl.StringVar(&p.File, "payload-file", "", "read the payload from `FILE` (JSON object, fields or wire shape; - for stdin)")
	fl.StringVar(&p.JSON, "payload", "", "the payload as a `JSON` object (fields or wire shape)")
	fl.StringVar(&p.ForTool, "for-tool", "", "set tool_name to `TOOL` (and keep only hooks whose matcher matches it)")
	fl.BoolVar(&p.DryRun, "dry-run", false, "show which hooks would run and the exact stdin; run nothing")
	fl.Var(newSecondsValue(&p.Timeout, 60*time.Second), "timeout", "gateway hooks: kill the Python runner after `SECONDS` (a number, or a duration such as 1m30s)")
	fl.StringVar(&p.Python, "python", "", "gateway hooks: run them with the Python interpreter at `PATH` (default $HERMES_PYTHON, else python3)")
	fl.BoolVar(&p.Output, "json", false, "print JSON (see docs/json.md)")
	cmd.MarkFlagsMutuallyExclusive("payload-file", "payload")
	_ = cmd.RegisterFlagCompletionFunc("for-tool", cobra.NoFileCompletions)
}

// args checks `<event> [-]`.
func (p *payloadFlags) args(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return usageErrorf("%s needs an event name (see 'hermes hooks events')", cmd.CommandPath())
	}
	if len(args) > 2 || len(args) == 2 && args[1] != "-" {
		return usageErrorf("%s takes one event and optionally - (payload on stdin), got %q", cmd.CommandPath(), args[1:])
	}
	for _, name := range []string{"payload", "payload-file"} {
		if v, _ := cmd.Flags().GetString(name); cmd.Flags().Changed(name) && strings.TrimSpace(v) == "" {
			return usageErrorf("--%s is empty: give a JSON object (fields or wire shape)", name)
		}
	}
	p.Stdin = len(args) == 2
	if p.Stdin && (p.File != "" || p.JSON != "") {
		return usageErrorf("give the payload one way: -, --payload-file or --payload")
	}
	if p.Timeout <= 0 {
		return usageErrorf("--timeout must be positive, got %s", p.Timeout)
	}
	return nil
}

// read returns the given payload in fields shape (nil when none was
// given), with a note when it was read as the wire shape without saying
// so. A file that is missing, not JSON, or JSON that is not an object is a
// usage error: nothing runs on a payload that was not understood. An
// interrupt (ctx) stops the parse of a large payload: nothing has run or
// been written yet (SPEC §22).
func (p *payloadFlags) read(ctx context.Context, stdin io.Reader) (*pyjson.Object, []string, error) {
	var data []byte
	var source string
	switch {
	case p.JSON != "":
		data, source = []byte(p.JSON), "--payload"
	case p.File == "-" || p.Stdin:
		b, err := io.ReadAll(stdin)
		if err != nil {
			return nil, nil, fmt.Errorf("reading the payload from stdin: %w", err)
		}
		data, source = b, "stdin"
	case p.File != "":
		b, err := regfile.ReadFile(p.File)
		var nr *regfile.NotRegularError
		if errors.As(err, &nr) {
			return nil, nil, &config.FileError{What: "payload file", Path: p.File,
				Err: fmt.Errorf("it is %s, not a regular file; nothing was run", nr.Kind)}
		}
		if err != nil {
			return nil, nil, usageErrorf("payload file %s cannot be read: %v", p.File, err)
		}
		data, source = b, p.File
	default:
		return nil, nil, nil
	}
	v, err := pyjson.DecodeContext(ctx, data)
	if ctx != nil && ctx.Err() != nil {
		return nil, nil, CancelError
	}
	if err != nil {
		return nil, nil, usageErrorf("payload from %s is not valid JSON: %v; nothing was run", source, err)
	}
	obj, ok := v.(*pyjson.Object)
	if !ok {
		return nil, nil, usageErrorf("payload from %s is %s, not a JSON object: give an object, with the agent's fields (tool_name, args, …) or in the wire shape a hook reads (hook_event_name, tool_input, extra); nothing was run", source, pyjson.TypeName(v))
	}
	fields, note, mixed := catalog.ReadShape(obj)
	switch {
	case mixed:
		return fields, []string{fmt.Sprintf("payload from %s: %s", source, note)}, nil
	case note != "":
		// A payload wholly of the hook's stdin shape is fine: one short
		// line, not a warning (SPEC §28 item 6).
		p.info = fmt.Sprintf("payload from %s: %s", source, note)
	}
	return fields, nil, nil
}

// firing is where test and run-event start from once the event is a
// shell event: the engine, the event and the payload given.
type firing struct {
	e        *hooks.Engine
	ev       catalog.Event
	given    *pyjson.Object
	warnings []string
}

// begin loads the engine and reads the payload. A gateway event (a name
// with ':') is fired right away, for real or as a test, and begin returns
// a nil firing; an unknown event is a usage error.
func (p *payloadFlags) begin(cmd *cobra.Command, f *Factory, event string, real bool) (*firing, error) {
	e, err := f.Engine(cmd)
	if err != nil {
		return nil, err
	}
	// A real firing records approvals, snapshots and the audit log.
	if real && !p.DryRun {
		if err := e.Loc.CheckWritable(); err != nil {
			return nil, err
		}
	}
	var ctx context.Context // nil: a test calling without a command
	if cmd != nil {
		ctx = cmd.Context()
	}
	given, warnings, err := p.read(ctx, interruptible(ctx, f.IO.In))
	if p.info != "" {
		fmt.Fprintf(f.IO.ErrOut, "%s %s\n", f.IO.ErrColors().InfoIcon(), esc(p.info))
	}
	if !p.Stdin && p.File == "" && p.JSON == "" {
		if f.IO.InputWaiting() {
			// A payload piped without "-" would otherwise be ignored
			// without a word, the hooks answering the synthetic one.
			warnings = append(warnings, "stdin holds data, but no payload was asked for: it is not read, and the event's synthetic payload is used (give - to read the payload from stdin)")
		}
	}
	if err != nil {
		return nil, err
	}
	if catalog.IsGatewayEvent(event) {
		printWarnings(f.IO, e.Diagnostics(), warnings)
		return nil, gatewayTestRun(cmd, f, e, event, given, p, real)
	}
	ev, ok := e.Catalogue.Lookup(event)
	if !ok {
		return nil, unknownEventError(e.Setup, event)
	}
	return &firing{e: e, ev: ev, given: given, warnings: warnings}, nil
}

// fields is the payload of the firing in fields shape: the given one merged
// over the synthetic one (synthetic), or as given; --for-tool sets
// tool_name last.
func (fr *firing) fields(p *payloadFlags, synthetic bool) *pyjson.Object {
	fields := fr.e.Payload(fr.ev, fr.given, synthetic)
	if p.ForTool != "" {
		fields.Set("tool_name", p.ForTool)
	}
	return fields
}

// interruptible makes a read of in end with the context (Ctrl-C, SIGTERM)
// even while nothing arrives on it: a payload piped from a process that
// never finishes must not keep hermes from exiting (SPEC §13 rule 12). The
// read itself goes on in a goroutine until the process exits.
func interruptible(ctx context.Context, in io.Reader) io.Reader {
	if ctx == nil {
		return in
	}
	return readerFunc(func(b []byte) (int, error) {
		type result struct {
			n   int
			err error
		}
		buf := make([]byte, len(b))
		done := make(chan result, 1)
		go func() {
			n, err := in.Read(buf)
			done <- result{n, err}
		}()
		select {
		case r := <-done:
			copy(b, buf[:r.n])
			return r.n, r.err
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	})
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(b []byte) (int, error) { return f(b) }
