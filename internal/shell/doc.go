// Package shell owns what happens between a hook's command string and the
// process it starts: tokenising the command the way Python's shlex.split
// does (no shell ever runs), expanding a leading ~, resolving the script
// behind the command and checking it can be run, and running one process
// group with a timeout, bounded output capture and a clean kill of the whole
// group on timeout or interruption.
//
// The engine depends only on the Runner interface so it can be tested with a
// fake; Exec is the real implementation and is tested against real scripts.
package shell
