package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
	"github.com/spf13/pflag"

	"github.com/hermes-hooks/hermes/internal/cli"
	"github.com/hermes-hooks/hermes/internal/guard"
)

// genDocs writes the Markdown command reference into mdDir and the man
// pages into manDir, generated from the command tree. The output is
// deterministic (no generation date) so CI can check it is up to date.
// It lives here, not in cli, so the hermes binary does not carry the
// Markdown and man-page renderers.
func genDocs(mdDir, manDir string) error {
	for _, dir := range []string{mdDir, manDir} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	root := cli.NewRootCmd(cli.NewFactory())
	root.DisableAutoGenTag = true
	if err := doc.GenMarkdownTree(root, mdDir); err != nil {
		return fmt.Errorf("markdown reference: %w", err)
	}
	// The man pages from a tree of their own: its texts are escaped for
	// the Markdown the man renderer reads.
	root = cli.NewRootCmd(cli.NewFactory())
	root.DisableAutoGenTag = true
	escapeTree(root)
	root.Long += "\n\n# EXIT STATUS\n" + manExitCodes()
	if err := genManTree(root, manDir); err != nil {
		return fmt.Errorf("man pages: %w", err)
	}
	if err := genGuardMan(manDir); err != nil {
		return fmt.Errorf("hermes-guard man page: %w", err)
	}
	return nil
}

// genGuardMan writes hermes-guard(1). The guard has no Cobra (its start-up
// is on every tool call of the agent), so its page is built here from the
// words its --help prints (guard.Synopsis, Description, Options).
func genGuardMan(dir string) error {
	cmd := &cobra.Command{Use: guard.Synopsis, Short: "Run a protected hook only while its script is the one approved",
		Long: guard.Description, DisableAutoGenTag: true, DisableFlagsInUseLine: true, Run: func(*cobra.Command, []string) {}}
	fl := cmd.Flags()
	for _, o := range guard.Options {
		name, arg, _ := strings.Cut(o[0], " ")
		// An underscore inside a word would start emphasis in the
		// Markdown the man renderer reads.
		o[1] = strings.ReplaceAll(o[1], "_", `\_`)
		if strings.HasPrefix(name, "-h,") {
			fl.BoolP("help", "h", false, o[1])
			continue
		}
		name = strings.TrimPrefix(name, "--")
		if arg == "" {
			fl.Bool(name, false, o[1])
		} else {
			// pflag shows the back-quoted word as the option's argument.
			fl.String(name, "", o[1]+" (`"+arg+"`)")
		}
	}
	escapeTree(cmd)
	header := &doc.GenManHeader{Title: "HERMES-GUARD", Section: "1", Source: "hermes", Manual: "Hermes hooks", Date: &manDate}
	f, err := os.Create(filepath.Join(dir, guard.Name+".1"))
	if err != nil {
		return err
	}
	defer f.Close()
	return doc.GenMan(cmd, header, f)
}

// manDate is the date every page carries: fixed, so the pages only change
// when the commands do.
var manDate = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// genManTree writes one page per available command, as doc.GenManTree
// does, but with each page's own title (HERMES-HOOKS-LIST(1), not
// HERMES(1) on all of them), every <placeholder> kept (the renderer reads
// Markdown, where <event> is an HTML tag and vanishes), and the exit-code
// table in hermes(1).
func genManTree(cmd *cobra.Command, dir string) error {
	for _, c := range cmd.Commands() {
		if !c.IsAvailableCommand() || c.IsAdditionalHelpTopicCommand() {
			continue
		}
		if err := genManTree(c, dir); err != nil {
			return err
		}
	}
	name := strings.ReplaceAll(cmd.CommandPath(), " ", "-")
	header := &doc.GenManHeader{Title: strings.ToUpper(name), Section: "1", Source: "hermes", Manual: "Hermes hooks", Date: &manDate}
	f, err := os.Create(filepath.Join(dir, name+".1"))
	if err != nil {
		return err
	}
	defer f.Close()
	return doc.GenMan(cmd, header, f)
}

// escapeTree escapes what Markdown would swallow in the texts the pages
// are built from: usage lines, descriptions and every flag's usage, each
// flag once, where it is defined (examples are code blocks, printed as
// they are).
func escapeTree(cmd *cobra.Command) {
	cmd.Use = manEscape(cmd.Use)
	cmd.Short = manEscape(cmd.Short)
	cmd.Long = manEscape(cmd.Long)
	esc := func(f *pflag.Flag) { f.Usage = manEscape(f.Usage) }
	cmd.LocalNonPersistentFlags().VisitAll(esc)
	cmd.PersistentFlags().VisitAll(esc)
	for _, c := range cmd.Commands() {
		escapeTree(c)
	}
}

// manEscape backslash-escapes < so <placeholder> reads as text.
func manEscape(s string) string { return strings.ReplaceAll(s, "<", `\<`) }

// manExitCodes is the exit-code table as a man page section: one
// paragraph per code.
func manExitCodes() string {
	var b strings.Builder
	for _, row := range cli.ExitCodes() {
		fmt.Fprintf(&b, "**%d**\n\t%s\n\n", row.Code, manEscape(row.Meaning))
	}
	return b.String()
}
