package cli

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/code"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/iostreams"
)

// codeFileJSON is one file of a hook's code in --json (SPEC §23): a pinned
// file with its sha256, a system file with "system": true.
type codeFileJSON struct {
	Path   string
	SHA256 *string
	System bool
}

// MarshalJSON writes {"path", "sha256"} (null when the file could not be
// read) for a pinned file and {"path", "system": true} for a system file.
func (f codeFileJSON) MarshalJSON() ([]byte, error) {
	if f.System {
		return json.Marshal(struct {
			Path   string `json:"path"`
			System bool   `json:"system"`
		}{f.Path, true})
	}
	return json.Marshal(struct {
		Path   string  `json:"path"`
		SHA256 *string `json:"sha256"`
	}{f.Path, f.SHA256})
}

func codeJSONOf(files []code.File) []codeFileJSON {
	if files == nil {
		return nil
	}
	out := make([]codeFileJSON, 0, len(files))
	for _, f := range files {
		j := codeFileJSON{Path: f.Path, System: f.System}
		if !f.System {
			j.SHA256 = pyJSONString(f.SHA256)
		}
		out = append(out, j)
	}
	return out
}

// pyJSONString is s, or nil (null) when it is empty.
func pyJSONString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// pinnableOf is false for an approval of a command whose code could not be
// pinned, nil (absent) otherwise.
func pinnableOf(e allowlist.Entry) *bool {
	if e.Unpinnable == "" {
		return nil
	}
	f := false
	return &f
}

// notPinnableWarning is what is shown, before consent, about a command
// whose code cannot be pinned (SPEC §23).
func notPinnableWarning(reason string) string {
	return "the code behind this command cannot be pinned: " + reason + "; what it runs can change without hermes seeing it"
}

// renderCode is the code of a hook as a prompt shows it before the answer:
// each file with its hash prefix or "system", then the warning when it is
// not pinnable. hash gives a file's sha256 now ("" when it cannot be read).
func renderCode(c code.Code, hash func(string) string, indentBy string) string {
	files := make([]code.File, len(c.Files))
	copy(files, c.Files)
	for i, f := range files {
		if !f.System && f.SHA256 == "" {
			files[i].SHA256 = hash(f.Path)
		}
	}
	out := renderCodeFiles(files, indentBy)
	if !c.Pinnable {
		out += indentBy + "⚠ " + esc(notPinnableWarning(c.Reason)) + "\n"
	}
	return out
}

// renderCodeFiles lists files of a code, one a line.
func renderCodeFiles(files []code.File, indentBy string) string {
	if len(files) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(indentBy + "code:\n")
	for _, f := range files {
		what := "system"
		switch {
		case f.System:
		case len(f.SHA256) >= 12:
			what = "sha256 " + f.SHA256[:12] + "…"
		default:
			what = "cannot be read"
		}
		fmt.Fprintf(&b, "%s  %s  %s\n", indentBy, esc(f.Path), what)
	}
	return b.String()
}

// hashOf is the invocation's cached sha256 of a file, for display.
func hashOf(s *hooks.Setup) func(string) string {
	return func(path string) string { return s.Fingerprints.Of(path).SHA256 }
}

// warnNotPinnable says on stderr, for each hook approved as its command
// string, why its code cannot be pinned.
func warnNotPinnable(ios *iostreams.IOStreams, hs []hooks.ShellHook) {
	for _, h := range hs {
		if !h.NoScript && !h.Code.Pinnable {
			fmt.Fprintf(ios.ErrOut, "%s %s hook %s: %s\n", ios.ErrColors().WarningIcon(), esc(h.Event), esc(h.Spec.Named()), esc(notPinnableWarning(h.Code.Reason)))
		}
	}
}

// splitApprovable keeps the hooks accept --all may approve and lists the
// others with the reason: a file of the code that cannot be read, or that
// someone else can change.
func splitApprovable(s *hooks.Setup, hs []hooks.ShellHook) ([]hooks.ShellHook, []refusedHookJSON) {
	var ok []hooks.ShellHook
	var refused []refusedHookJSON
	for _, h := range hs {
		reason := unreadable(h)
		if reason != "" {
			reason = "cannot be read, so there is nothing to pin: " + reason
		} else if now := s.InspectNow(h.Spec, nil); now.Unsafe != nil {
			reason = "someone else can change the code: " + now.Unsafe.Error()
		}
		if reason == "" {
			ok = append(ok, h)
			continue
		}
		refused = append(refused, refusedHookJSON{Event: h.Event, commandJSON: commandOf(h.Spec), Reason: reason})
	}
	return ok, refused
}

// reportNotApproved lists on stderr the hooks accept --all left out; exit 1
// when there are any.
func reportNotApproved(opts *acceptOptions, s *hooks.Setup, refused []refusedHookJSON) error {
	if len(refused) == 0 {
		return nil
	}
	ios := opts.f.IO
	for _, r := range refused {
		fmt.Fprintf(ios.ErrOut, "%s not approved: %s hook %s: %s\n", ios.ErrColors().FailureIcon(), esc(r.Event), esc(r.Command), esc(r.Reason))
	}
	return SilentError
}
