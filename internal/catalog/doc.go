// Package catalog owns what the agent can fire: the shell events and the
// gateway events (names, descriptions, whether a hook may block or answer),
// the synthetic payloads hermes sends when it fires an event itself, and
// payloads in both shapes — the fields the agent passes and the wire object a
// hook reads on stdin (NormalizeInput, ReadShape, MergeFields, Wire).
//
// It is a leaf of the hooks suite: the spec reader (hookspec), the engine
// (hooks) and the commands read it; it imports none of them.
package catalog
