package cli

import "strings"

// globalFlagTakesValue lists the root's persistent flags (root.go) by every
// name they answer to, and whether each takes the next word as its value.
var globalFlagTakesValue = map[string]bool{
	"--home": true, "--profile": true, "-p": true, "--config": true, "--lock-timeout": true,
	"--accept-hooks": false, "--no-color": false, "--verbose": false, "-v": false,
}

// plainHooksCommand is the subcommand of `hooks` that args run, when they
// are global flags (spelled out one by one), "hooks", a subcommand's own
// name and words that ask for no help; else "". Anything else (an alias, a
// typo, --help, -h in a cluster, a shorthand with its value attached, an
// unknown flag) gets "" and so the whole tree: the answer may then depend
// on the other commands.
func plainHooksCommand(args []string) string {
	i := 0
	for ; i < len(args) && strings.HasPrefix(args[i], "-"); i++ {
		name, _, withValue := strings.Cut(args[i], "=")
		takesValue, known := globalFlagTakesValue[name]
		if !known || withValue && !strings.HasPrefix(name, "--") {
			return ""
		}
		if takesValue && !withValue {
			i++ // the flag's value
		}
	}
	if i+1 >= len(args) || args[i] != "hooks" {
		return ""
	}
	for _, a := range args[i+2:] {
		if a == "--help" || strings.HasPrefix(a, "--help=") || !strings.HasPrefix(a, "--") && strings.HasPrefix(a, "-") && strings.Contains(a, "h") {
			return ""
		}
	}
	for _, sub := range hooksCommands {
		if sub.name == args[i+1] {
			return sub.name
		}
	}
	return ""
}
