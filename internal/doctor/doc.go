// Package doctor owns hermes hooks doctor's checks: the home's own files,
// each shell hook (static checks — the command, its program, permissions,
// drift — and a smoke run of approved hooks with the event's synthetic
// payload), each gateway hook, the guard's audit checks, the allowlist as a
// whole (stale entries, secrets stored in clear) and the CI gate
// (--expect-hooks, --lock).
//
// It sits above the engine: it asks package hooks what each hook is and
// runs smoke tests through the engine's runner; nothing below imports it.
package doctor
