#!/usr/bin/env python3
"""PreToolUse guard: never write .env files (tool_input.file_path)."""
import json
import os
import sys

data = json.load(sys.stdin)
if data.get("tool_name") not in ("Write", "Edit", "MultiEdit"):
    sys.exit(0)
path = data.get("tool_input", {}).get("file_path", "")
name = os.path.basename(path)
if name == ".env" or name.startswith(".env."):
    print(f"Refusing to modify {path}: secrets live in .env files", file=sys.stderr)
    sys.exit(2)
