#!/bin/sh
# UserPromptSubmit: plain stdout is added to the prompt as context.
prompt=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["prompt"])')
echo "Project conventions: tabs, not spaces. (prompt was: $prompt)"
