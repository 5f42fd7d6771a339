// Package claude is the Claude Code dialect of hooks (SPEC §19): what a
// Claude Code hook expects to read and what its answers mean, in Hermes'
// terms. The tables (events, tools, fields) are data; the surface is
// Input, which turns a Hermes payload into the stdin a Claude Code hook
// reads, and Answer, which reads the hook's result as Claude Code would
// and says what the agent should be told. The importer reads the same
// tables to translate settings files, and the guard (SPEC §17) calls Input
// and Answer around the hook it runs.
//
// Nothing here prints, runs processes or reads files other than through
// the callers' arguments, and it imports neither the engine nor a regular
// expression engine beyond the standard library, so the guard stays lean.
package claude
