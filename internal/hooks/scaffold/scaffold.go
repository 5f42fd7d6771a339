// Package scaffold writes the starting point of a new shell hook: a script
// for one event, from the templates embedded under templates/, that reads
// the payload, documents the event's fields and shows the answers the
// event can give, answering nothing until it is edited.
package scaffold

import (
	"bytes"
	"embed"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"text/template"

	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/pyjson"
)

//go:embed templates/*.tmpl
var templates embed.FS

// Langs are the languages a hook can be scaffolded in, with their file
// extension.
var Langs = sync.OnceValue(func() map[string]string {
	return map[string]string{"sh": ".sh", "python": ".py"}
})

// Answer kinds: what a hook of the event can answer (SPEC §7).
const (
	AnswerTool    = "tool"    // pre_tool_call: block, modify, approve
	AnswerContext = "context" // pre_llm_call: context for the model
	AnswerVerify  = "verify"  // pre_verify: continue
	AnswerNone    = "none"    // observers
)

// AnswerKind says what hooks of ev can answer.
func AnswerKind(ev catalog.Event) string {
	switch {
	case ev.Blocking:
		return AnswerTool
	case ev.Name == "pre_llm_call":
		return AnswerContext
	case ev.Name == "pre_verify":
		return AnswerVerify
	}
	return AnswerNone
}

// Field is one payload field of the event, where the hook finds it and an
// example value.
type Field struct {
	Name    string
	Where   string // "top" (a key of the payload) or "extra" (under "extra")
	Key     string // the key to read: tool_input for args, session_id for parent_session_id
	Example string // compact JSON, cut to a line
}

type data struct {
	Name        string
	Event       string
	Description string
	Kind        string
	Tool        bool
	Fields      []Field
}

var nameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$`) })

// CheckName reports whether name can be a hook's file name: letters,
// digits, '_', '-' and inner dots, at most 64 characters.
func CheckName(name string) error {
	if len(name) > 64 || !nameRE().MatchString(name) {
		return fmt.Errorf("hook name %q: use letters, digits, '_', '-' and inner dots (at most 64), it becomes a file name", name)
	}
	return nil
}

// Render returns the script for a hook called name of event ev in lang
// ("sh" or "python").
func Render(lang, name string, ev catalog.Event) ([]byte, error) {
	if _, ok := Langs()[lang]; !ok {
		return nil, fmt.Errorf("unknown language %q: choose sh or python", lang)
	}
	t, err := template.ParseFS(templates, "templates/"+lang+".tmpl")
	if err != nil {
		return nil, err
	}
	d := data{Name: name, Event: ev.Name, Description: ev.Description, Kind: AnswerKind(ev), Tool: ev.Tool}
	payload, _ := ev.PayloadObject()
	for _, f := range ev.Fields {
		fd := Field{Name: f, Where: "extra", Key: f}
		switch f {
		case "tool_name", "session_id":
			fd.Where = "top"
		case "args":
			fd.Where, fd.Key = "top", "tool_input"
		case "parent_session_id":
			fd.Where, fd.Key = "top", "session_id"
		}
		if payload != nil {
			if v, ok := payload.Get(f); ok {
				fd.Example = example(v)
			}
		}
		d.Fields = append(d.Fields, fd)
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, d); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func example(v any) string {
	s := string(pyjson.Marshal(v, pyjson.Options{}))
	s = strings.ReplaceAll(s, "\n", " ")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:57]) + "..."
	}
	return s
}
