#!/bin/sh
# make fuzz: runs every fuzz target for FUZZTIME (default 30s) each.
# New crashers land in the package's testdata/fuzz/<Target>/ as seeds.
set -eu
time=${1:-30s}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for target in \
  ./internal/shell:FuzzSplit \
  ./internal/hookspec:FuzzParse \
  ./internal/hooks:FuzzEvaluate \
  ./internal/catalog:FuzzNormalize \
  ./internal/allowlist:FuzzRead \
  ./internal/lockfile:FuzzParse \
  ./internal/allowlist:FuzzValidJSON \
  ./internal/allowlist:FuzzReadCode \
  ./internal/config:FuzzFastDecode \
  ./internal/config:FuzzFlatItem \
  ./internal/config/edit:FuzzAppendRemove \
  ./internal/config/edit:FuzzRemove \
  ./internal/config/edit:FuzzCheckEachItem \
  ./internal/cli:FuzzIndentJSON \
  ./internal/pyre:FuzzCompile \
  ./internal/pyre:FuzzSimple \
  ./internal/pyjson:FuzzDecode \
  ./internal/pyjson:FuzzCanonical \
  ./internal/textsafe:FuzzLine \
  ./internal/textsafe:FuzzEscapeScan \
  ./internal/audit:FuzzReader \
  ./internal/code:FuzzFind
do
  pkg=${target%%:*}
  name=${target#*:}
  echo "--- $name ($pkg) for $time"
  if go test -run '^$' -fuzz "^$name\$" -fuzztime "$time" "$pkg" >"$out" 2>&1; then
    cat "$out"
    continue
  fi
  cat "$out"
  # The Go fuzzer sometimes reports "context deadline exceeded" when
  # -fuzztime ends while a worker is busy (minimising an input); that is
  # not a finding. A real failure says where its input was written.
  if grep -q 'context deadline exceeded' "$out" && ! grep -q 'Failing input written to' "$out"; then
    echo "($name: the fuzzer's own deadline report, not a failure)"
    continue
  fi
  exit 1
done
