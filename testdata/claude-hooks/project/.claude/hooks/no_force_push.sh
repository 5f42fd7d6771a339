#!/bin/bash
# PreToolUse guard: no force pushes (exit 2, the reason on stderr).
input=$(cat)
case "$input" in
  *'"command": "git push --force'*|*'"command":"git push --force'*|*'"command": "git push -f'*)
    echo "Force pushes are blocked by policy; push without --force." >&2
    exit 2
    ;;
esac
exit 0
