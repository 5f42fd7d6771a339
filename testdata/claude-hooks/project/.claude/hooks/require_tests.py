#!/usr/bin/env python3
"""Stop: ask for the tests once before finishing."""
import json
import sys

data = json.load(sys.stdin)
if data.get("stop_hook_active"):
    sys.exit(0)  # asked once already: let it stop
print(json.dumps({"decision": "block", "reason": "Run the test suite (make test) before you finish."}))
