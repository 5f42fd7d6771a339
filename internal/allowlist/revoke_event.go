package allowlist

// RevokeEvent removes the entries for (event, command) and returns how
// many were removed: what taking one hook out of the config withdraws,
// leaving the same command's approvals for other events alone.
func (l *List) RevokeEvent(event, command string) int {
	return l.filter(func(x Entry) bool { return x.Event != event || x.Command != command })
}
