#!/usr/bin/env python3
"""Transcribe the agent's tool schemas (hermes-tools.json, read from the
agent's tools/*.py) into internal/catalog/tools/tools.json, the format this
project embeds. Run: scripts/gen-tools.py /path/to/hermes-tools.json"""
import json
import sys

src = json.load(open(sys.argv[1]))
out = {
    "source": src["source"],
    "tools": [],
    "patterns": [
        {
            "pattern": "mcp_[A-Za-z0-9_]+",
            "description": "MCP tools: mcp_ + server + _ + tool, other characters replaced by _",
        }
    ],
}
for t in src["tools"]:
    out["tools"].append({
        "name": t["name"],
        "toolset": t["toolset"],
        "description": t.get("description", ""),
        "status": t.get("status", "current"),
        "canonical": t.get("canonical", ""),
        "confirmed": True,
        "args": [
            {k: a[k] for k in ("name", "type", "required", "description") if k in a}
            for a in t.get("args", [])
        ],
    })
for u in src["unconfirmed"]:
    names = u.get("names") or [u["name"]]
    for n in names:
        if "<" in n:
            continue  # a naming pattern, listed under "patterns"
        out["tools"].append({
            "name": n,
            "toolset": u["toolset"],
            "description": u["reason"],
            "status": "unconfirmed",
            "canonical": "",
            "confirmed": False,
            "args": None,
        })
for alias, canon in src["legacy_aliases"].items():
    if not any(t["name"] == alias for t in out["tools"]):
        out["tools"].append({
            "name": alias, "toolset": "", "description": "legacy name of " + canon,
            "status": "legacy", "canonical": canon, "confirmed": False, "args": None,
        })
json.dump(out, open("internal/catalog/tools/tools.json", "w"), indent=1, ensure_ascii=False)
open("internal/catalog/tools/tools.json", "a").write("\n")
