package guard

import (
	"fmt"
	"syscall"

	"github.com/hermes-hooks/hermes/internal/answer"
	"github.com/hermes-hooks/hermes/internal/pystr"
	"golang.org/x/sys/unix"
)

// closedGap says why a fail-closed guard turns how its hook ended into a
// block (SPEC §25), "" when the agent would judge it without help. The
// agent lets a fail-closed hook's call through when the hook dies by a
// signal, or exits non-zero (not 2) with nothing on stdout: those are the
// two results the guard closes. Everything else (a spawn error, a timeout,
// stdout that is not a JSON object) the agent already blocks, and any
// answer on stdout is the hook's own.
func closedGap(sig syscall.Signal, code int, stdout []byte, truncated bool) string {
	switch {
	case sig != 0:
		name := unix.SignalName(sig)
		if name == "" {
			name = fmt.Sprintf("signal %d", int(sig))
		}
		return "killed by " + name
	case code != 0 && code != 2 && !truncated && pystr.Strip(string(stdout)) == "":
		return fmt.Sprintf("exit %d", code)
	}
	return ""
}

// failClosed is the block a fail-closed guard answers for its hook's
// failure why; the agent reads it from stdout with exit 2.
func (g *run) failClosed(why string) *answer.Answer {
	ans := &answer.Answer{Action: answer.ActionBlock,
		Message: fmt.Sprintf("hook %s failed closed: %s", g.innerText(), why)}
	writeBlock(ans)
	return ans
}
