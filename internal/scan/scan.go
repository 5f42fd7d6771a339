package scan

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hermes-hooks/hermes/internal/regfile"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// Hook is one command an agent would run because of a file in the
// checkout.
type Hook struct {
	Agent string `json:"agent"`
	// File is the file that configures the hook, relative to the checkout
	// (with /); Line its line there (0 when the file itself is the hook).
	File string `json:"file"`
	Line int    `json:"line"`
	// Event is the agent's event name as written (a git hook's name).
	Event   string  `json:"event"`
	Matcher *string `json:"matcher"`
	// Command is the command as written in the file; for a hook that is an
	// executable file (Cline, git), its path relative to the checkout.
	Command string `json:"command"`
	// Code is every file whose bytes decide what runs (SPEC §23).
	Code []CodeFile `json:"code"`
	// Pinnable is false when the code cannot be told from the command
	// alone; UnpinnableReason says why.
	Pinnable         bool   `json:"pinnable"`
	UnpinnableReason string `json:"unpinnable_reason,omitempty"`
	// Findings are the kinds (Kind*) found about this hook, in a fixed
	// order; the top-level list carries their messages.
	Findings []string `json:"findings"`

	// shell: the agent runs Command through sh -c (every agent but Hermes,
	// and hooks that are files).
	shell bool
	// dir is the folder the command runs in, absolute.
	dir string
	// found are this hook's findings with their messages.
	found []Finding
	// exe: Command is a path to an executable the agent starts directly
	// (Cline, git): quoted as one word for the code finder.
	exe bool
	// files, when set, are the hook's code, known without asking the code
	// finder (a gateway hook's folder).
	files []string
}

// CodeFile is one file of a hook's code.
type CodeFile struct {
	// Path is relative to the checkout (with /) when inside it, else
	// absolute.
	Path string `json:"path"`
	// SHA256 of a pinned file; "" for a system file or one that could not
	// be read.
	SHA256 string `json:"sha256,omitempty"`
	System bool   `json:"system,omitempty"`
	// Outside: the file is neither in the checkout nor a system file.
	Outside bool `json:"outside,omitempty"`
	// Missing: the file does not exist (yet): what will run there is not
	// in the checkout.
	Missing bool `json:"missing,omitempty"`
}

// Kinds of a finding.
const (
	KindIgnoredFile  = "ignored_file"
	KindOutside      = "outside_checkout"
	KindDownloads    = "downloads_and_runs"
	KindNetwork      = "network"
	KindSessionStart = "session_start"
)

// Finding is one thing worth a reviewer's eye: about a hook (Command set)
// or about a whole file.
type Finding struct {
	Kind    string `json:"kind"`
	Agent   string `json:"agent"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Event   string `json:"event,omitempty"`
	Command string `json:"command,omitempty"`
	// Message is the finding in words: "Cursor ignores this whole file:
	// unknown event \"beforeShell\"", "downloads and runs (curl … | sh)".
	Message string `json:"message"`
}

// Serious reports whether the finding fails a scan (exit 1): code fetched
// and run, or a whole file an agent drops.
func (f Finding) Serious() bool { return f.Kind == KindDownloads || f.Kind == KindIgnoredFile }

// Result is a scan of one checkout.
type Result struct {
	Dir      string    `json:"dir"`
	Hooks    []Hook    `json:"hooks"`
	Findings []Finding `json:"findings"`
}

// Options tune a scan. The zero value scans with the stand-in code finder
// and the process's HOME and PATH.
type Options struct {
	// Code finds the code of a command; nil uses DefaultCodeFinder.
	Code CodeFinder
	// Home is the user's home folder (for ~ and $HOME); "" reads $HOME.
	Home string
	// Path is the PATH a hook runs with; "" reads $PATH.
	Path string
}

// fileProblem is a file an agent drops (or reads only in part), said by a
// reader.
type fileProblem struct {
	file   string // relative
	line   int
	reason string
}

// reading is what one reader returns.
type reading struct {
	hooks    []Hook
	problems []fileProblem
}

// add appends what another reading found.
func (r *reading) add(o reading) {
	r.hooks = append(r.hooks, o.hooks...)
	r.problems = append(r.problems, o.problems...)
}

// Scan lists the hooks of the checkout at dir. It reads files and never
// runs anything. An error is returned only when dir itself cannot be read;
// a file that cannot be read or parsed is a finding.
func Scan(dir string, opt Options) (*Result, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("scan: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("scan: %s is not a folder", dir)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if opt.Code == nil {
		opt.Code = DefaultCodeFinder
	}
	if opt.Home == "" {
		opt.Home = os.Getenv("HOME")
	}
	if opt.Path == "" {
		opt.Path = os.Getenv("PATH")
	}
	c := &checkout{dir: abs, opt: opt}
	res := &Result{Dir: abs, Hooks: []Hook{}, Findings: []Finding{}}
	for _, a := range Agents {
		r := a.read(c, a)
		dropped := map[string]bool{}
		for _, p := range r.problems {
			dropped[p.file] = true
			res.Findings = append(res.Findings, Finding{Kind: KindIgnoredFile, Agent: a.Name, File: p.file, Line: p.line,
				Message: fmt.Sprintf("%s ignores this whole file: %s", a.Name, p.reason)})
		}
		for _, h := range r.hooks {
			h.Agent = a.Name
			c.complete(&h, a)
			if dropped[h.File] {
				// Listed all the same: it runs as soon as the file is fixed.
				h.Findings = append([]string{KindIgnoredFile}, h.Findings...)
			}
			res.Hooks = append(res.Hooks, h)
			res.Findings = append(res.Findings, h.found...)
		}
	}
	sortFindings(res.Findings)
	return res, nil
}

// checkout is the scan's view of the folder.
type checkout struct {
	dir string
	opt Options
	// hashes memoises file hashes: one script behind many hooks is read once.
	hashes map[string]string
}

// rel names a path inside the checkout relative to it (with /), and any
// other path as it is.
func (c *checkout) rel(p string) string {
	if r, ok := within(c.dir, p); ok {
		return r
	}
	return p
}

// within reports whether p is dir or below it, and p relative to dir.
func within(dir, p string) (string, bool) {
	r, err := filepath.Rel(dir, p)
	if err != nil || r == ".." || strings.HasPrefix(r, "../") || filepath.IsAbs(r) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// abs is a path of the checkout given relative to it (with /).
func (c *checkout) abs(rel string) string { return filepath.Join(c.dir, filepath.FromSlash(rel)) }

// readFile reads a file of the checkout by its relative path; ok false when
// it does not exist or is not a regular file (a FIFO is never opened).
func (c *checkout) readFile(rel string) (data []byte, ok bool, err error) {
	data, err = readSmall(c.abs(rel))
	var nr *regfile.NotRegularError
	if errors.Is(err, fs.ErrNotExist) || errors.As(err, &nr) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return data, true, nil
}

// maxConfigSize bounds a settings file scan reads: a checkout can hold a
// 10 GB "settings.json", and no agent reads one that large either.
const maxConfigSize = 16 << 20

// readSmall reads a regular file (never a FIFO or a device: regfile) of at
// most maxConfigSize bytes.
func readSmall(p string) ([]byte, error) {
	f, err := regfile.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfigSize+1))
	if err == nil && len(data) > maxConfigSize {
		err = fmt.Errorf("larger than %d MiB", maxConfigSize>>20)
	}
	return data, err
}

// glob lists the regular files of the checkout matching a pattern
// (relative, with /), sorted.
func (c *checkout) glob(pattern string) []string {
	matches, _ := filepath.Glob(filepath.Join(c.dir, filepath.FromSlash(pattern)))
	var out []string
	for _, m := range matches {
		if fi, err := os.Stat(m); err == nil && fi.Mode().IsRegular() {
			out = append(out, c.rel(m))
		}
	}
	sort.Strings(out)
	return out
}

// complete fills in a hook's code from the code finder.
func (c *checkout) complete(h *Hook, a *Agent) {
	if h.dir == "" {
		h.dir = c.dir
	}
	var code Code
	if h.files != nil {
		code = Code{Pinnable: true}
		for _, f := range h.files {
			code.Files = append(code.Files, CodeFile{Path: f})
		}
	} else {
		cmd := h.Command
		if h.exe {
			cmd = shell.Quote(cmd)
		}
		code = c.opt.Code(CodeRequest{Command: cmd, Shell: h.shell, Dir: h.dir, Checkout: c.dir,
			Home: c.opt.Home, Path: c.opt.Path})
	}
	h.Pinnable = code.Pinnable
	h.UnpinnableReason = code.Reason
	h.Code = []CodeFile{}
	for _, f := range code.Files {
		cf := CodeFile{Path: c.rel(f.Path), System: f.System}
		if !f.System {
			if _, in := within(c.dir, f.Path); !in {
				cf.Outside = true
			}
			sum, ok := c.hash(f.Path)
			cf.SHA256 = sum
			cf.Missing = !ok
		}
		h.Code = append(h.Code, cf)
	}
	h.found = c.hookFindings(*h, a, code)
	h.Findings = []string{}
	for _, f := range h.found {
		h.Findings = append(h.Findings, f.Kind)
	}
}

// Sorting puts file-level findings (whole files dropped) first, then by
// file and line.
func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if (a.Kind == KindIgnoredFile) != (b.Kind == KindIgnoredFile) {
			return a.Kind == KindIgnoredFile
		}
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
}

// Failed reports whether the scan alone fails (exit 1): something fetched
// and run, or a whole file an agent drops.
func (r *Result) Failed() bool {
	for _, f := range r.Findings {
		if f.Serious() {
			return true
		}
	}
	return false
}
