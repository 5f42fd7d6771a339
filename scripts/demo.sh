#!/bin/sh
# make demo: runs hermes on a copy of the bundled example home, so the
# repository's files are never changed.
set -eu
bin=${1:-bin/hermes}
demo=$(mktemp -d "${TMPDIR:-/tmp}/hermes-demo.XXXXXX")
trap 'rm -rf "$demo"' EXIT
cp -R examples/home/. "$demo/"
export HERMES_HOME="$demo"
run() { printf '\n$ %s\n' "$*"; "$@" || printf '(exit %s)\n' "$?"; }
run "$bin" hooks list
run "$bin" hooks accept --all --yes
run "$bin" hooks list
run "$bin" hooks test pre_tool_call --payload '{"args": {"command": "rm -rf /"}}'
run "$bin" hooks run-event pre_tool_call --payload '{"tool_name": "terminal", "args": {"command": "rm -rf /"}}' --exit-code
run "$bin" hooks run-event pre_llm_call
run "$bin" hooks doctor
