//go:build !cgo || osusergo

package shell

// nssInProcess: os/user reads /etc/passwd only; getent asks the rest.
const nssInProcess = false
