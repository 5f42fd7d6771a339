#!/bin/sh
jq -r .tool_input.command >/dev/null
