package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/pyjson"
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
}

func (p *payloadFlags) register(cmd *cobra.Command, f *Factory) {
	fl := cmd.Flags()
	fl.StringVar(&p.File, "payload-file", "", "read the payload from `FILE` (JSON object, fields or wire shape; - for stdin)")
	fl.StringVar(&p.JSON, "payload", "", "the payload as a `JSON` object (fields or wire shape)")
	fl.StringVar(&p.ForTool, "for-tool", "", "set tool_name to `TOOL` (and keep only hooks whose matcher matches it)")
	fl.BoolVar(&p.DryRun, "dry-run", false, "show which hooks would run and the exact stdin; run nothing")
	fl.DurationVar(&p.Timeout, "timeout", 60*time.Second, "gateway hooks: kill the Python runner after `DURATION`")
	fl.StringVar(&p.Python, "python", "", "gateway hooks: the Python interpreter (default $HERMES_PYTHON, else python3)")
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

// read returns the given payload (nil when none was given). A file that is
// missing or not JSON is a usage error; JSON that is not an object is a
// warning and ignored.
func (p *payloadFlags) read(stdin io.Reader) (*pyjson.Object, []string, error) {
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
		b, err := os.ReadFile(p.File)
		if err != nil {
			return nil, nil, usageErrorf("payload file %s cannot be read: %v", p.File, err)
		}
		data, source = b, p.File
	default:
		return nil, nil, nil
	}
	v, err := pyjson.Decode(data)
	if err != nil {
		return nil, nil, usageErrorf("payload from %s is not valid JSON: %v; nothing was run", source, err)
	}
	obj, ok := v.(*pyjson.Object)
	if !ok {
		return nil, []string{fmt.Sprintf("payload from %s is %s, not an object: ignored", source, pyjson.TypeName(v))}, nil
	}
	return obj, nil, nil
}
