// Package hooks is the engine of hermes hooks: the event catalogue, parsing
// of the config's hooks: block into specs with diagnostics, payloads in
// fields and wire shape, evaluation of a hook's answer and aggregation of an
// event's answers, and the operations the commands are made of — inspecting
// hooks against the allowlist (Setup), recording approvals, diffing scripts,
// running hooks (Engine), dispatching an event for real with consent and an
// audit log, and doctor's checks.
//
// It never prints and knows nothing of Cobra: the cli package renders what
// it returns. Subpackages gateway and outbound hold gateway hooks and
// webhook delivery.
package hooks
