package guard

// Synopsis is the guard's command line, for its --help and its man page.
const Synopsis = "hermes-guard --event EVENT [--fail-closed] [--dialect claude [--project-dir DIR] [--if RULE]] -- COMMAND..."

// Description says what the guard does, for its --help and its man page
// (hermes-guard(1), written by make docs).
const Description = `The agent runs hermes-guard in place of a protected shell hook: 'hermes hooks
protect' writes it into the hook's command in config.yaml. At every firing it
finds the hook's approval in the allowlist of $HERMES_HOME (else ~/.hermes) by
its own whole command line, and runs COMMAND only when the script is the one
approved (sha256), nobody else can change it and the path rules hold, exactly
as 'hermes hooks run-event' decides. COMMAND then runs as its child with the
same environment, stdin, stdout and stderr, and the guard ends as it ended.

Otherwise it runs nothing: one line on stderr names the script, the reason and
what to do next; with --fail-closed on pre_tool_call it prints a block answer
and exits 2 (the agent blocks the call), else it exits 1. With --fail-closed,
a hook that dies by a signal or exits non-zero (not 2) with nothing on stdout
is answered with a block too: the agent would let those through. Every run
and every refusal appends one line to the audit log (see 'hermes hooks log').

It is not meant to be run by hand: see what a hook would do with
'hermes hooks test EVENT' and 'hermes hooks run-event EVENT'.`

// Options are the guard's options, each with what it means.
var Options = [][2]string{
	{"--event EVENT", "the event the hook serves: with the command line, the key of its approval"},
	{"--fail-closed", "pre_tool_call: a refusal blocks the tool call (exit 2 with a block answer), and so does a hook's death by signal or non-zero exit (not 2) with nothing on stdout"},
	{"--dialect claude", "run a hook imported from Claude Code: hand it Claude Code's input, read its answer as Claude Code does"},
	{"--project-dir DIR", "with --dialect claude: $CLAUDE_PROJECT_DIR, and the project the hook is kept to"},
	{"--if RULE", "with --dialect claude: run the hook only for calls the Claude Code rule matches"},
	{"-h, --help", "print this help and exit (nothing is run or logged)"},
}

// Usage is what --help prints.
func Usage() string {
	s := "Usage: " + Synopsis + "\n\n" + Description + "\n\nOptions:\n"
	for _, o := range Options {
		s += "  " + o[0] + "\n      " + o[1] + "\n"
	}
	return s
}

// isHelp reports whether the guard was asked for its help (-h or --help
// among its options, before "--"): it prints the usage, exits 0, and
// writes no audit line — no hook was asked to run (SPEC §28 item 8).
func isHelp(args []string) bool {
	for _, a := range args[min(1, len(args)):] {
		switch a {
		case "--":
			return false
		case "-h", "--help":
			return true
		}
	}
	return false
}
