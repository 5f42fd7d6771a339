// Package record owns the payload recordings of SPEC §26: the id that
// names a firing (and its audit lines), whether recording is on (a line
// scan of the config, the environment winning), the redaction of a wire
// payload before it is kept, and the bounded store under
// <HERMES_HOME>/logs/payloads/.
//
// The guard imports it on every agent tool call, so it stays lean: no
// YAML, no regular expressions, no Cobra (TestRecordStaysLean).
package record
