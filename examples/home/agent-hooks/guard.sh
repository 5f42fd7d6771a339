#!/bin/sh
# pre_tool_call guard: blocks `rm -rf /` (and `rm -rf /*`) in terminal calls.
# The payload arrives on stdin; an answer on stdout blocks the call.
payload=$(cat)
case "$payload" in
  *'"command": "rm -rf /"'*|*'"command": "rm -rf /*"'*|*'"command": "sudo rm -rf /"'*)
    echo '{"action": "block", "message": "guard.sh: refusing to delete the root filesystem"}'
    exit 0
    ;;
esac
# Nothing on stdout: the call goes ahead.
exit 0
