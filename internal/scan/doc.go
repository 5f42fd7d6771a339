// Package scan lists the hooks a checkout brings (SPEC §27): every command a
// coding agent would run by itself because of a file in the repository —
// Hermes' config.yaml and gateway hooks, Claude Code's and Codex's
// settings, Cursor's, Antigravity's (and legacy Gemini CLI's), Copilot's,
// Cline's and Kiro's hook files, and git's hooksPath, fsmonitor, .githooks
// and .husky.
//
// Each agent's format is data (the table in agents.go: where its files are,
// which events it dispatches, which run at session start, how it treats an
// error) plus one reader that reads the files the way that agent does —
// including the ways an agent silently drops a whole file (Cursor on one
// unknown event name, Antigravity on any error), which is a finding too.
//
// Nothing here runs anything it finds: files are read, hashed and looked
// at as text. The code behind each command (SPEC §23) comes from a
// CodeFinder, which resolves programs and scripts without executing them.
// Nothing here prints.
package scan
