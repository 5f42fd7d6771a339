//go:build cgo && !osusergo

package shell

// nssInProcess: os/user asks the C library, whose answer is the agent's.
const nssInProcess = true
