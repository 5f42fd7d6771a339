package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/config"
	dialect "github.com/hermes-hooks/hermes/internal/dialect/claude"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/hookspec"
	"github.com/hermes-hooks/hermes/internal/iostreams"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// The checks and flags of a new config entry, shared by add and new.

// addHookFlags are the entry flags shared by add and new.
func addHookFlags(cmd *cobra.Command, matcher, timeout *string, failClosed *bool) {
	fl := cmd.Flags()
	fl.StringVar(matcher, "matcher", "", "only for tool names that `REGEX` matches whole (pre_tool_call, post_tool_call)")
	fl.StringVar(timeout, "timeout", "", "kill the hook after `SECONDS` (1-300, or a duration such as 30s; default 60)")
	fl.BoolVar(failClosed, "fail-closed", false, "block the tool call when the hook fails or times out (pre_tool_call only)")
}

// checkNewHook validates an entry about to be written, as the agent will
// read it. It returns warnings (a matcher naming no tool of the agent), and
// neverFires: why the hook could never fire (a matcher Python's re rejects),
// which the caller refuses unless --force.
func checkNewHook(s *hooks.Setup, h *hookspec.NewHook, timeout string) (warnings, neverFires []string, err error) {
	if catalog.IsGatewayEvent(h.Event) {
		return nil, nil, usageErrorf("%q is a gateway event: gateway hooks are folders under %s with a HOOK.yaml, not config entries", h.Event, s.GatewayDir())
	}
	ev, ok := s.Catalogue.Lookup(h.Event)
	if !ok {
		return nil, nil, unknownEventError(s, h.Event)
	}
	if !ev.ShellSupported {
		return nil, nil, usageErrorf("shell hooks cannot serve %q (only in-process plugins can)", h.Event)
	}
	h.Command = strings.TrimSpace(h.Command)
	if h.Command == "" {
		return nil, nil, usageErrorf("the command is blank")
	}
	words, err := shell.Split(h.Command)
	if err != nil {
		return nil, nil, usageErrorf("command %q cannot be parsed: %v", h.Command, err)
	}
	if len(words) == 0 {
		return nil, nil, usageErrorf("command %q has no words", h.Command)
	}
	if h.Matcher = strings.TrimSpace(h.Matcher); h.Matcher != "" {
		if !ev.Tool {
			return nil, nil, usageErrorf("--matcher only applies to tool events (pre_tool_call, post_tool_call), not %q", h.Event)
		}
		m, w := hookspec.CompileMatcher(h.Matcher)
		if w != "" {
			neverFires = append(neverFires, w)
		} else if w := hookspec.UnknownToolWarning(m, claudeTool); w != "" {
			warnings = append(warnings, w)
		}
	}
	if timeout != "" {
		n, err := wholeSeconds(timeout)
		if err != nil {
			return nil, nil, usageErrorf("--timeout: %v", err)
		}
		if n < 1 || n > hookspec.MaxTimeout {
			return nil, nil, usageErrorf("--timeout %s: a hook timeout is 1 to %d seconds", timeout, hookspec.MaxTimeout)
		}
		h.Timeout = n
	}
	if h.FailClosed && !ev.Blocking {
		return nil, nil, usageErrorf("--fail-closed only applies to pre_tool_call, the one event a hook can block")
	}
	return warnings, neverFires, nil
}

// missingScript says why the script of command does not exist (not found in
// PATH, no such file), "" when it does or cannot be told: the agent would
// run a hook that fails every time.
func missingScript(s *hooks.Setup, command string) string {
	argv, err := shell.Argv(config.ExpandEnv(command, configEnv(s)), s.UserHome)
	if err != nil {
		return ""
	}
	script, first := shell.ResolveScript(argv)
	if first && !strings.Contains(script, "/") {
		return fmt.Sprintf("%q is not found in PATH: give its full path or install it", script)
	}
	if _, err := os.Stat(script); err != nil && (errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)) {
		if strings.Contains(command, "$") {
			// The path came from an expansion that may hold a secret
			// (SPEC §13 rule 11): name the command as written.
			return fmt.Sprintf("the script of %q does not exist", command)
		}
		return fmt.Sprintf("script %s does not exist", script)
	}
	return ""
}

// notExecutable is the warning for a command whose program is a script
// without the execute bit (SPEC §28 item 3): the agent would run it and
// fail every time. The words are list's and doctor's, with the chmod +x
// hint. "" when it can run, or is not there (missingScript says so).
func notExecutable(s *hooks.Setup, command string) string {
	argv, err := shell.Argv(config.ExpandEnv(command, configEnv(s)), s.UserHome)
	if err != nil {
		return ""
	}
	script, first := shell.ResolveScript(argv)
	if !first || !strings.Contains(script, "/") {
		return "" // handed to an interpreter, or found in PATH (executable there)
	}
	if _, err := os.Stat(script); err != nil {
		return ""
	}
	if err := shell.CheckExecutable(script, true); err != nil && strings.Contains(err.Error(), "chmod +x") {
		if strings.Contains(command, "$") && !strings.Contains(command, "${HERMES_HOME}") && !strings.Contains(command, "${HOME}") {
			// The path may hold a secret (SPEC §13 rule 11).
			return fmt.Sprintf("the script of %q is not executable; run chmod +x on it", command)
		}
		return err.Error()
	}
	return ""
}

// refuseNeverFires prints warnings, and refuses (exit 1) a hook that could
// never fire unless forced, when it prints the reasons as warnings too.
func refuseNeverFires(ios *iostreams.IOStreams, warnings, neverFires []string, force bool) error {
	for _, w := range warnings {
		fmt.Fprintf(ios.ErrOut, "%s %s\n", ios.ErrColors().WarningIcon(), esc(w))
	}
	if len(neverFires) == 0 {
		return nil
	}
	icon := ios.ErrColors().FailureIcon()
	if force {
		icon = ios.ErrColors().WarningIcon()
	}
	for _, w := range neverFires {
		fmt.Fprintf(ios.ErrOut, "%s %s\n", icon, esc(w))
	}
	if force {
		fmt.Fprintln(ios.ErrOut, "--force: adding it anyway")
		return nil
	}
	fmt.Fprintln(ios.ErrOut, "This hook could never fire, so nothing was written; fix it, or pass --force to add it anyway.")
	return SilentError
}

// claudeTool is the agent's tool for a Claude Code tool name, "" for none.
func claudeTool(name string) string {
	if hs := dialect.HermesTools(name); len(hs) > 0 {
		return hs[0]
	}
	return ""
}
