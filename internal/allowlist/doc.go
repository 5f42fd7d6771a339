// Package allowlist owns the shell-hook consent file
// (<HERMES_HOME>/shell-hooks-allowlist.json) and what hangs off it: the
// tolerant read, the locked read-modify-write with an atomic replace, script
// fingerprints (sha256 and mtime), drift against what was recorded at
// approval, and the content-addressed snapshots of approved scripts.
//
// The file is shared with the Python agent, so every rewrite keeps what this
// package does not understand: unknown keys at the top and in entries, numbers
// as written, and approval items that are not well-formed entries (those are
// kept in place but never match a hook). Output is byte-identical to Python's
// json.dumps(indent=2, sort_keys=True, ensure_ascii=False).
//
// Decisions where the spec leaves room:
//   - An entry made here always carries every key; an unknown sha256 or mtime
//     is written as null (not left out) so the shape of our entries is stable.
//     approved_via is left out when empty.
//   - Replacing an entry (Approve) carries the old entry's unknown keys over.
//   - When (event, command) appears more than once, the first entry counts
//     (its approved_at, recorded mtime and sha256), because the agent's lookup
//     stops at the first match (SPEC §14). Approving removes every entry for
//     the pair, so a file written here never holds two.
//   - A file that is not valid UTF-8 is treated like invalid JSON (read as
//     empty, kept aside before the next write), since rewriting it would
//     replace bytes the user had.
package allowlist
