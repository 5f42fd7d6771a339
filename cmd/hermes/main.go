// Command hermes inspects, approves, tests and fires the hooks of the
// Hermes agent.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/hermes-hooks/hermes/internal/cli"
)

func main() { os.Exit(run()) }

// run builds the command tree, runs it and maps the result to an exit code.
// Ctrl-C (SIGINT) or SIGTERM cancels the context: running hooks are killed
// and the program exits 130.
func run() int {
	tuneGC()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	f := cli.NewFactory()
	return cli.HandleError(f.IO, cli.Execute(ctx, cli.NewRootCmdFor(f, os.Args[1:]), os.Args[1:]))
}
