#!/bin/sh
# pre_llm_call context injector: adds a line of context to the next LLM call.
cat >/dev/null
printf '{"context": "Working directory: %s. Be careful with destructive commands."}\n' "$(pwd)"
