// Package casefile writes policy case files (SPEC §16) that nobody typed:
// from recorded firings (`hermes hooks cases from-log`, SPEC §26), each
// case the payload the agent sent and the decision the hooks gave then,
// and the starter set of canaries (`hermes hooks cases canaries`),
// everyday calls no guard should block.
package casefile
