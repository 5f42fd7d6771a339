package main

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra/doc"

	"github.com/hermes-hooks/hermes/internal/cli"
)

// genDocs writes the Markdown command reference into mdDir and the man
// pages into manDir, generated from the command tree. The output is
// deterministic (no generation date) so CI can check it is up to date.
// It lives here, not in cli, so the hermes binary does not carry the
// Markdown and man-page renderers.
func genDocs(mdDir, manDir string) error {
	root := cli.NewRootCmd(cli.NewFactory())
	root.DisableAutoGenTag = true
	for _, dir := range []string{mdDir, manDir} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	if err := doc.GenMarkdownTree(root, mdDir); err != nil {
		return fmt.Errorf("markdown reference: %w", err)
	}
	date := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	header := &doc.GenManHeader{Title: "HERMES", Section: "1", Source: "hermes", Manual: "Hermes hooks", Date: &date}
	if err := doc.GenManTree(root, header, manDir); err != nil {
		return fmt.Errorf("man pages: %w", err)
	}
	return nil
}
