#!/usr/bin/env python3
"""PostToolUse formatter: strip trailing whitespace from the file just written."""
import json
import sys

data = json.load(sys.stdin)
path = data.get("tool_input", {}).get("file_path")
if not path or not path.endswith(".txt"):
    sys.exit(0)
with open(path) as f:
    lines = f.read().splitlines()
with open(path, "w") as f:
    f.write("\n".join(line.rstrip() for line in lines) + "\n")
print(f"formatted {path}")
