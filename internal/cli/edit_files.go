package cli

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hermes-hooks/hermes/internal/code"
	"github.com/hermes-hooks/hermes/internal/hooks"
)

// editFiles are the files of h's code edit can open (SPEC §23, §25): its
// §4 script first, then every other file of its code that is not a system
// file (a sourced library, an interpreter's script behind `sh -c`).
func editFiles(f *Factory, s *hooks.Setup, h hooks.ShellHook) []string {
	files := []string{h.Script}
	env := code.Env{Home: s.UserHome, HermesHome: s.Loc.Home}
	if p, ok := f.Env("PATH"); ok {
		env.PATH = p
	}
	argv := h.Argv
	if h.Guard != nil {
		argv = h.Guard.Inner
		env.ProjectDir = h.Guard.Extra["--project-dir"]
	}
	for _, file := range code.FindArgv(argv, env).Files {
		if file.System || !filepath.IsAbs(file.Path) || slices.Contains(files, file.Path) {
			continue
		}
		// A link is left out: what it points to may be a system program
		// edit must not replace (a ~/bin/python → /usr/bin/python3).
		if fi, err := os.Lstat(file.Path); err != nil || fi.Mode()&fs.ModeSymlink != 0 {
			continue
		}
		files = append(files, file.Path)
	}
	return files
}

// chooseEditFile is the file to edit: --file (one of the hook's files),
// the only one, or, at a terminal, the one the person picks.
func chooseEditFile(f *Factory, s *hooks.Setup, h hooks.ShellHook, chosen string) (string, error) {
	files := editFiles(f, s, h)
	if chosen != "" {
		abs, err := filepath.Abs(chosen)
		if err == nil && slices.Contains(files, abs) {
			return abs, nil
		}
		return "", usageErrorf("--file %s is not a file of the hook's code (%s)", chosen, strings.Join(files, ", "))
	}
	if len(files) == 1 {
		return files[0], nil
	}
	if !f.IO.CanPrompt() {
		return "", usageErrorf("the code of %s hook %q is in %d files (%s): choose one with --file", h.Event, h.Named(), len(files), strings.Join(files, ", "))
	}
	options := make([]string, len(files))
	for i, p := range files {
		options[i] = esc(p)
		if hooks.Pinned(h, p) {
			options[i] += "  (the script its approval pins)"
		}
	}
	i, err := f.Prompter.Select(fmt.Sprintf("The code of %s is in %d files: which one do you want to edit?", esc(h.Named()), len(files)), options)
	if err != nil {
		return "", err
	}
	return files[i], nil
}
