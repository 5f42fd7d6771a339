#!/bin/sh
# make fuzz: runs every fuzz target for FUZZTIME (default 30s) each.
# New crashers land in the package's testdata/fuzz/<Target>/ as seeds.
set -eu
time=${1:-30s}
for target in \
  ./internal/shell:FuzzSplit \
  ./internal/hooks:FuzzParse \
  ./internal/hooks:FuzzEvaluate \
  ./internal/hooks:FuzzNormalize \
  ./internal/allowlist:FuzzRead \
  ./internal/config/edit:FuzzAppendRemove \
  ./internal/pyre:FuzzCompile \
  ./internal/pyjson:FuzzDecode
do
  pkg=${target%%:*}
  name=${target#*:}
  echo "--- $name ($pkg) for $time"
  go test -run '^$' -fuzz "^$name\$" -fuzztime "$time" "$pkg"
done
