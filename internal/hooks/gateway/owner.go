package gateway

import (
	"os"
	"path/filepath"

	"github.com/hermes-hooks/hermes/internal/safepath"
)

// CheckOwnership judges who could change each hook the way shell hook
// scripts are judged (SPEC §13.5, §13.2 rule 3): its handler, its HOOK.yaml
// and its folder, with every folder above them (the hooks folder included),
// must be owned by the user or root and writable by nobody else, ACLs
// included. A hook that fails gets Unsafe and is not run: whoever can
// plant or change it would run code as the user.
func CheckOwnership(hooks []Hook, c *safepath.Checker) {
	for i := range hooks {
		h := &hooks[i]
		paths := []string{filepath.Join(h.Dir, ManifestName), h.HandlerPath()}
		for _, p := range paths {
			if p == "" {
				continue
			}
			if _, err := os.Lstat(p); err != nil {
				continue
			}
			if err := c.Check(p); err != nil {
				h.Unsafe = err
				break
			}
		}
		if h.Unsafe == nil {
			h.Unsafe = c.Check(h.Dir)
		}
	}
}
