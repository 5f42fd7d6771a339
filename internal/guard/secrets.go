package guard

import (
	"os"
	"sort"
	"strings"

	"github.com/hermes-hooks/hermes/internal/secretname"
	"github.com/hermes-hooks/hermes/internal/textsafe"
)

// minSecretLen: values shorter than this are not taken for secrets (a "1"
// would otherwise be hidden in every command that holds the digit).
const minSecretLen = 4

// secrets are the values of the guard's secret-named environment
// variables (SPEC §13 rule 11), longest first, with their names.
type secrets []struct{ name, value string }

// envSecrets reads them from the environment.
func envSecrets() secrets {
	var out secrets
	for _, kv := range os.Environ() {
		name, value, ok := strings.Cut(kv, "=")
		if ok && len(value) >= minSecretLen && secretname.Var(name) {
			out = append(out, struct{ name, value string }{name, value})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].value) > len(out[j].value) })
	return out
}

// hide shows each secret's value in s as ${NAME} (SPEC §24 item 4): the
// guard's audit line, its stderr and its block message hold the command
// as it was written, never the token the agent expanded into it.
func (ss secrets) hide(s string) string {
	for _, sec := range ss {
		if strings.Contains(s, sec.value) {
			s = strings.ReplaceAll(s, sec.value, "${"+sec.name+"}")
		}
	}
	return s
}

// AuditCommand is how an audit line names a protected hook whose wrapped
// command (as the agent runs it, expanded) is command: the command it
// guards, with the values of secret-named variables of this process's
// environment as ${NAME}; and the wrapped command, likewise (SPEC §24
// item 4). The guard and run-event both name it so, so log and stats show
// one hook one way whoever fired it.
func AuditCommand(command string) (inner, wrapped string) {
	ss := envSecrets()
	wrapped = ss.hide(command)
	if in, _, ok := Unwrap(command); ok {
		return ss.hide(in), wrapped
	}
	return wrapped, ""
}

// say writes one line on stderr: the words escaped (SPEC §13 rule 9, §24
// item 6) and secrets hidden.
func (g *run) say(line string) {
	os.Stderr.WriteString(textsafe.Command(g.secrets().hide(line)) + "\n")
}

// secrets are read once per run, when first needed.
func (g *run) secrets() secrets {
	if g.hidden == nil {
		g.hidden = envSecrets()
	}
	return g.hidden
}
