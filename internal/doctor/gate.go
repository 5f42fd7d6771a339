package doctor

import (
	"fmt"

	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/lockfile"
)

// Gate is what a CI job asks of doctor beyond the hooks' own health (SPEC
// §20): at least ExpectHooks hooks (-1: not asked), and a home equal to
// Lock (nil: not asked), read from LockPath.
type Gate struct {
	ExpectHooks int
	Lock        *lockfile.Lock
	LockPath    string
}

// GateReport checks the home against the gate, as a report of kind "gate"
// (no checks when nothing was asked), and lists the lock's differences.
func GateReport(e *hooks.Engine, g Gate) (HookReport, []lockfile.Difference) {
	r := HookReport{Kind: "gate", Name: "CI gate"}
	if g.ExpectHooks >= 0 {
		expectHooksCheck(e, g.ExpectHooks, &r)
	}
	if g.Lock == nil {
		return r, nil
	}
	now, err := e.Lock()
	if err != nil {
		r.add("lock", CheckFail, "%v", err)
		return r, nil
	}
	diffs := lockfile.Compare(g.Lock, now)
	for _, d := range diffs {
		r.add("lock", CheckFail, "%s", d.String())
	}
	if len(diffs) == 0 {
		r.add("lock", CheckOK, "the home matches the lock %s (%d shell hook(s), %d gateway hook(s), %d outbound webhook(s))",
			g.LockPath, len(now.ShellHooks), len(now.GatewayHooks), len(now.OutboundWebhooks))
	} else {
		r.add("lock", CheckInfo, "if the change was reviewed, update the lock with 'hermes hooks lock --output %s' and commit it", g.LockPath)
	}
	return r, diffs
}

// expectHooksCheck fails when fewer hooks are configured than the job
// expects: hooks that vanish (a bad indent, a wrong home) must not pass.
// Shell hooks and loaded gateway hooks count.
func expectHooksCheck(e *hooks.Engine, want int, r *HookReport) {
	shell := len(e.Parsed.Specs)
	gw := 0
	for _, g := range e.GatewayHooks() {
		if g.Loaded {
			gw++
		}
	}
	got := shell + gw
	msg := fmt.Sprintf("%d hook(s) configured (%d shell, %d gateway)", got, shell, gw)
	if got < want {
		r.add("expect_hooks", CheckFail, "%s, but --expect-hooks wants at least %d: hooks may have vanished (a bad indent under hooks:, a wrong HERMES_HOME or --config)", msg, want)
		return
	}
	r.add("expect_hooks", CheckOK, "%s, --expect-hooks wants at least %d", msg, want)
}
