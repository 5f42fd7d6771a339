// Package code finds a hook's code (SPEC §23): every file whose bytes
// decide what a command runs, found the way the process that runs it finds
// it. The program is resolved as execvp resolves it through the PATH the
// hook runs with, `env` is looked through, an interpreter's script is the
// first operand after its own options, `sh -c STRING` is parsed with a real
// POSIX shell parser (mvdan.cc/sh) and each simple command it can run is
// judged the same way, and a `#!` line's interpreter is code too. Redirect
// targets, here-documents and the arguments of programs that are not
// interpreters are data. When what runs depends on something only known
// when it runs (a variable program, `eval`, `python -m`, a relative path no
// `cd` fixes), the code is not pinnable and says why.
//
// System files (root-owned all the way up under /usr, /bin, /sbin, /lib,
// /lib64 or /opt, and not in the user's home, HERMES_HOME or a project)
// are trusted by ownership; every other file is pinned by its sha256.
//
// Nobody else in the module parses shell: trust, the lock, the importer,
// the dialect's `if` rules and scan ask this package.
package code
