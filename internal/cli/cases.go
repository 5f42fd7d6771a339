package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/fileowner"
	"github.com/hermes-hooks/hermes/internal/record/casefile"
)

// newCmdCases is the group of commands that write case files (SPEC §26)
// for test --cases.
func newCmdCases(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cases",
		Short: "Write policy case files: from recorded traffic, or the canary starter set",
		Long: `Write case files for 'hermes hooks test --cases' that nobody has to type:

  from-log   the firings recorded with hooks_record: true, each expecting the
             decision the hooks gave then (replay today's hooks against
             yesterday's traffic)
  canaries   a starter set of everyday calls that no guard should block`,
		SuggestionsMinimumDistance: 2,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return unknownCommand(cmd, args[0])
			}
			return cmd.Help()
		},
	}
	cmd.AddCommand(newCmdCasesFromLog(f, nil), newCmdCasesCanaries(f, nil))
	return cmd
}

// writeCases writes a case file to path, or to stdout when path is "". An
// existing file is replaced only when this tool made it (its first comment
// says so): a case file someone wrote or edited is never overwritten.
func writeCases(f *Factory, path string, header []string, cases []casefile.Case, madeBy string) error {
	var buf bytes.Buffer
	if err := casefile.Write(&buf, header, cases); err != nil {
		return err
	}
	if path == "" {
		_, err := f.IO.Out.Write(buf.Bytes())
		return err
	}
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("cannot write %s: %w", esc(path), err)
	case !bytes.HasPrefix(old, []byte("# "+madeBy)):
		return fmt.Errorf("%s already exists and was not made by this command; nothing was written (choose another --output, or remove it first)", esc(path))
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", esc(path), err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(buf.Bytes())
	if err == nil {
		err = fileowner.Keep(tmp, path)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", esc(path), err)
	}
	return nil
}
