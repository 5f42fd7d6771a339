package cli

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/allowlist"
)

// isolatedFactory is f with a throwaway home for test --cases --isolated
// (SPEC §26): HERMES_HOME a copy of the one located (config, allowlist,
// snapshots and every other file in it), HOME an empty folder, both in one
// temporary folder that cleanup removes. ${HERMES_HOME} in commands then
// expands to the copy, and the copy's approvals name the copy's scripts,
// so protected hooks still find theirs. When HERMES_HOME is ~/.hermes, the
// copy is the throwaway HOME's .hermes, so ~/.hermes/… names it too.
func isolatedFactory(cmd *cobra.Command, f *Factory) (*Factory, func(), error) {
	loc, err := f.Locate(cmd)
	if err != nil {
		return nil, nil, err
	}
	tmp, err := os.MkdirTemp("", "hermes-isolated-*")
	if err != nil {
		return nil, nil, fmt.Errorf("--isolated: cannot make a throwaway home: %w", err)
	}
	cleanup := func() { os.RemoveAll(tmp) }
	home := filepath.Join(tmp, "home")
	copyHome := filepath.Join(tmp, "hermes-home")
	if loc.Home == filepath.Join(f.UserHome(), ".hermes") {
		copyHome = filepath.Join(home, ".hermes")
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("--isolated: %w", err)
	}
	if err := copyTree(loc.Home, copyHome); err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("--isolated: copying %s: %w", esc(loc.Home), err)
	}
	if _, err := allowlist.Open(copyHome).Update(func(l *allowlist.List) error {
		for _, e := range l.Remove(func(allowlist.Entry) bool { return true }) {
			e.Command = strings.ReplaceAll(e.Command, loc.Home, copyHome)
			l.Approve(e)
		}
		return nil
	}); err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("--isolated: the copy's allowlist: %w", err)
	}

	set := map[string]string{"HERMES_HOME": copyHome, "HOME": home}
	fi := *f
	fi.Env = func(k string) (string, bool) {
		if v, ok := set[k]; ok {
			return v, true
		}
		return f.Env(k)
	}
	fi.Environ = func() []string {
		var out []string
		for _, kv := range f.Environ() {
			if k, _, _ := strings.Cut(kv, "="); set[k] == "" {
				out = append(out, kv)
			}
		}
		return append(out, "HERMES_HOME="+copyHome, "HOME="+home)
	}
	fi.UserHome = func() string { return home }
	v := NewSettings()
	for _, k := range f.Settings.AllKeys() {
		v.Set(k, f.Settings.Get(k))
	}
	v.Set("home", copyHome)
	v.Set("profile", "")
	if c := f.Settings.GetString("config"); c != "" && loc.ConfigPath != "" && strings.HasPrefix(loc.ConfigPath, loc.Home+string(filepath.Separator)) {
		v.Set("config", filepath.Join(copyHome, strings.TrimPrefix(loc.ConfigPath, loc.Home)))
	}
	fi.Settings = v
	return &fi, cleanup, nil
}

// copyTree copies the folder src to dst (created): folders, regular files
// and symbolic links, with their modes and modification times (a script's
// pin is its content; its mtime is kept all the same). Anything else (a
// socket, a FIFO) is left out.
func copyTree(src, dst string) error {
	// Folders get their mode once filled: a read-only one could not be.
	type dirMode struct {
		path string
		mode fs.FileMode
	}
	var dirs []dirMode
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			dirs = append(dirs, dirMode{target, info.Mode().Perm()})
			return os.MkdirAll(target, 0o700)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case !d.Type().IsRegular():
			return nil
		}
		if err := copyFile(path, target, info.Mode().Perm()); err != nil {
			return err
		}
		return os.Chtimes(target, info.ModTime(), info.ModTime())
	})
	for i := len(dirs) - 1; i >= 0 && err == nil; i-- {
		err = os.Chmod(dirs[i].path, dirs[i].mode)
	}
	return err
}

func copyFile(src, dst string, mode fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
