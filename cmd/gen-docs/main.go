// Command gen-docs writes the command reference (Markdown) and man pages of
// hermes from its Cobra tree: `make docs`. A test checks the checked-in
// files are up to date.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gen-docs MARKDOWN_DIR MAN_DIR")
		os.Exit(2)
	}
	if err := genDocs(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "gen-docs:", err)
		os.Exit(1)
	}
}
