package code

import (
	"os"
	"testing"
)

// BenchmarkFind is the finder's cost per command (SPEC §23's figure): a
// plain script hook, and a Claude Code inline pipeline through sh -c.
func BenchmarkFind(b *testing.B) {
	env := Env{PATH: "/usr/local/bin:/usr/bin:/bin", Home: os.TempDir()}
	for _, bc := range []struct{ name, cmd string }{
		{"script", "/bin/sh /etc/hostname"},
		{"inline-pipeline", `sh -c "jq -r '.tool_input.command' | grep -q 'rm -rf' && echo blocked >> ~/.claude/log.txt"`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				Find(bc.cmd, env)
			}
		})
	}
}
