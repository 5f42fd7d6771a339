package main

import (
	"os"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"

	"github.com/hermes-hooks/hermes/internal/safepath"
)

// scriptCmds are the scenario commands beyond testscript's own.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"setacl": cmdSetACL,
}

// cmdSetACL: setacl PATH UID PERM — gives user UID the permissions PERM
// (rwx letters) on PATH through a POSIX access ACL, as `setfacl -m
// u:UID:PERM` would: written as the binary system.posix_acl_access
// attribute, so the scenario needs no acl package. Guard it with [acl].
func cmdSetACL(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: setacl PATH UID PERM")
	}
	path := ts.MkAbs(args[0])
	uid, err := strconv.Atoi(args[1])
	ts.Check(err)
	fi, err := os.Stat(path)
	ts.Check(err)
	mode := uint16(fi.Mode().Perm())
	perm := uint16(0)
	for i, c := range "rwx" {
		if strings.ContainsRune(args[2], c) {
			perm |= 4 >> i
		}
	}
	acl := safepath.EncodeACL([]safepath.ACLEntry{
		{Tag: 0x01, Perm: mode >> 6 & 7},
		{Tag: 0x02, Perm: perm, ID: uint32(uid)},
		{Tag: 0x04, Perm: mode >> 3 & 7},
		{Tag: 0x10, Perm: 7},
		{Tag: 0x20, Perm: mode & 7},
	})
	ts.Check(unix.Setxattr(path, "system.posix_acl_access", acl, 0))
}

// aclSupported is the [acl] condition: the temporary folder's file system
// keeps POSIX ACLs (setacl works there).
func aclSupported() (bool, error) {
	f, err := os.CreateTemp("", "acl")
	if err != nil {
		return false, err
	}
	defer os.Remove(f.Name())
	f.Close()
	acl := safepath.EncodeACL([]safepath.ACLEntry{{Tag: 0x01, Perm: 6}, {Tag: 0x04, Perm: 4}, {Tag: 0x20, Perm: 4}})
	// Any refusal (no ACLs on this file system, a sandbox denying xattrs)
	// means the scenarios needing ACLs are skipped, not failed.
	return unix.Setxattr(f.Name(), "system.posix_acl_access", acl, 0) == nil, nil
}
