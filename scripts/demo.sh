#!/bin/sh
# make demo: runs hermes on a copy of the bundled example home, so the
# repository's files are never changed.
set -eu
bin=${1:-bin/hermes}
root=$(pwd)
demo=$(mktemp -d "${TMPDIR:-/tmp}/hermes-demo.XXXXXX")
trap 'rm -rf "$demo"' EXIT
cp -R examples/home/. "$demo/"
export HERMES_HOME="$demo"
run() { printf '\n$ %s\n' "$*"; "$@" || printf '(exit %s)\n' "$?"; }
say() { printf '\n# %s\n' "$*"; }

say "Every hook of the example home, none approved yet."
run "$bin" hooks list
say "Off a terminal, unapproved hooks are skipped with a warning."
run "$bin" hooks run-event pre_llm_call
say "Policy cases: what the hooks must decide, checked without approving anything."
say "A CI job runs the same with --junit for its test report (exit 1 when a case fails)."
run "$bin" hooks test --cases "$demo/hook-cases.yaml" --junit "$demo/hooks-junit.xml"
run grep -c '<testcase ' "$demo/hooks-junit.xml"
say "Approve them all (records each script's sha256 and a snapshot)."
run "$bin" hooks accept --all --yes
say "test runs an event's hooks on a synthetic payload merged with yours."
run "$bin" hooks test pre_tool_call --payload '{"args": {"command": "rm -rf /"}}'
say "run-event fires for real; --exit-code exits 3 on a block."
run "$bin" hooks run-event pre_tool_call --payload '{"tool_name": "terminal", "args": {"command": "rm -rf /"}}' --exit-code
run "$bin" hooks run-event pre_llm_call
say "Gateway hooks (HOOK.yaml + handler.py) run under python3."
run "$bin" hooks test agent:start
say "Someone edits an approved script: it is no longer trusted until reviewed."
printf '# edited after approval\n' >> "$demo/agent-hooks/guard.sh"
run "$bin" hooks diff "$demo/agent-hooks/guard.sh"
run "$bin" hooks run-event pre_tool_call --payload '{"tool_name": "terminal", "args": {"command": "ls"}}'
run "$bin" hooks doctor
say "Review done: approve the new version."
run "$bin" hooks accept "$demo/agent-hooks/guard.sh" --yes
run "$bin" hooks doctor

say "The agent itself runs whatever an approved script holds; protect routes its runs through hermes-guard, which decides as run-event does (sha256, owner, path rules)."
run "$bin" hooks protect --all
run "$bin" hooks list
wrapped=$(sed -n 's/^ *command: "\(.*hermes-guard --event pre_tool_call .*\)"$/\1/p' "$demo/config.yaml" | sed "s|\${HERMES_HOME}|$demo|g")
payload='{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "rm -rf /"}}'
say "What the agent runs now, with the payload it sends on stdin:"
printf '\n$ echo %s | %s\n' "'$payload'" "$wrapped"
# shellcheck disable=SC2086 # the wrapped command is words, as the agent splits it
printf '%s' "$payload" | $wrapped || printf '(exit %s)\n' "$?"
say "Another program rewrites the guard: the agent's next run is refused, and blocks (fail closed)."
printf '#!/bin/sh\nexit 0\n' > "$demo/agent-hooks/guard.sh"
printf '\n$ echo … | %s\n' "$wrapped"
# shellcheck disable=SC2086
printf '%s' "$payload" | $wrapped || printf '(exit %s)\n' "$?"
say "Make the guard stricter without a gap: edit swaps the script and its approval in one locked step, so the protected guard is never refused meanwhile."
cat > "$demo/stricter-guard.sh" <<'GUARD'
#!/bin/sh
# pre_tool_call guard: blocks `rm -rf /` and any sudo in terminal calls.
payload=$(cat)
case "$payload" in
  *'"command": "rm -rf /"'*|*'"command": "rm -rf /*"'*|*'"command": "sudo '*)
    echo '{"action": "block", "message": "guard.sh: refusing rm -rf / and sudo"}'
    exit 0
    ;;
esac
exit 0
GUARD
run "$bin" hooks edit "$demo/agent-hooks/guard.sh" --from "$demo/stricter-guard.sh" --yes
say "How each blocking guard behaves when it breaks (a missing program, a crash, a timeout, an edit not yet approved), judged as the agent judges it:"
run "$bin" hooks doctor --chaos
say "Everyday calls that must never be blocked: a starter set of canaries, tested like any case."
run "$bin" hooks cases canaries --output "$demo/canaries.yaml"
run "$bin" hooks test --cases "$demo/canaries.yaml"
say "Switch a hook off without deleting it (the agent no longer registers it; its approval stays), and back on, byte for byte."
cp "$demo/config.yaml" "$demo/config.before-disable"
run "$bin" hooks disable '${HERMES_HOME}/agent-hooks/context.sh'
run "$bin" hooks enable '${HERMES_HOME}/agent-hooks/context.sh'
run cmp "$demo/config.yaml" "$demo/config.before-disable"
say "What a cloned checkout would make coding agents run by themselves, without running any of it:"
run "$bin" hooks scan "$root/internal/scan/testdata/checkout"
say "Every run of the agent's hooks leaves an audit line: log and stats read them."
run "$bin" hooks log
run "$bin" hooks stats
say "A lock of the reviewed hashes, for a team's CI: doctor --lock fails on any difference."
run "$bin" hooks accept "$demo/agent-hooks/guard.sh" --yes
run "$bin" hooks lock --output "$demo/hooks.lock.json"
printf '# changed in a pull request\n' >> "$demo/agent-hooks/context.sh"
run "$bin" hooks doctor --lock "$demo/hooks.lock.json" --no-smoke
