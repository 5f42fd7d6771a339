// Package hooks is the engine of hermes hooks: Setup (a loaded home — the
// config, its parsed hooks, the allowlist store, gateway hooks) and the
// operations the commands are made of — inspecting hooks against the
// allowlist and deciding whether one may run now, recording approvals,
// diffing scripts against their snapshots, the lock, protect, and running
// hooks (Engine): selection, dispatch with consent and an audit log,
// evaluation of each answer and aggregation of an event's answers, and
// firing gateway hooks.
//
// What the agent can fire lives in package catalog, reading the config's
// hooks: block in package hookspec, and doctor's checks in package doctor,
// which sits above the engine. The engine never prints and knows nothing of
// Cobra: the cli package renders what it returns. Subpackages gateway and
// outbound hold gateway hooks and webhook delivery.
package hooks
