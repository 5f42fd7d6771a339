// Package tools is the agent's tool catalogue: every tool name the agent can
// pass to a pre_tool_call or post_tool_call hook, with the arguments its
// schema declares. It is data (tools.json, transcribed from the agent's
// tools/*.py by scripts/gen-tools.py) plus lookups, and imports nothing of
// the engine, so the guard and the Claude dialect can use it cheaply.
package tools

import (
	_ "embed"
	"encoding/json"
	"regexp"
	"sort"
	"sync"
)

//go:embed tools.json
var catalogueJSON []byte

// Arg is one argument of a tool's schema, as the model sends it in
// tool_input (the hook payload's "args").
type Arg struct {
	Name string `json:"name"`
	// Type is the schema type: string, integer, number, boolean, object,
	// array<T>, or alternatives joined with | (boolean|array<string>).
	Type        string `json:"type"`
	Required    bool   `json:"required"`
	Description string `json:"description"`
}

// Tool is one tool of the agent.
type Tool struct {
	Name        string `json:"name"`
	Toolset     string `json:"toolset"`
	Description string `json:"description"`
	// Status is current, legacy (renamed: Canonical is the new name; the
	// agent rewrites it before hooks fire), legacy-or-removed, or
	// unconfirmed (seen by name, schema not read: Args is nil).
	Status    string `json:"status"`
	Canonical string `json:"canonical,omitempty"`
	Confirmed bool   `json:"confirmed"`
	Args      []Arg  `json:"args"`
}

// Arg returns the tool's argument called name.
func (t Tool) Arg(name string) (Arg, bool) {
	for _, a := range t.Args {
		if a.Name == name {
			return a, true
		}
	}
	return Arg{}, false
}

// Pattern is a family of tool names (MCP tools) given by a regular
// expression that must match the whole name.
type Pattern struct {
	Pattern     string `json:"pattern"`
	Description string `json:"description"`
}

type catalogue struct {
	Source   string    `json:"source"`
	Tools    []Tool    `json:"tools"`
	Patterns []Pattern `json:"patterns"`

	byName   map[string]int
	patterns []*regexp.Regexp
	names    []string
}

var load = sync.OnceValue(func() *catalogue {
	var c catalogue
	if err := json.Unmarshal(catalogueJSON, &c); err != nil {
		panic("tools: embedded tools.json: " + err.Error())
	}
	c.byName = make(map[string]int, len(c.Tools))
	for i, t := range c.Tools {
		if _, dup := c.byName[t.Name]; !dup {
			c.byName[t.Name] = i
		}
		c.names = append(c.names, t.Name)
	}
	sort.Strings(c.names)
	for _, p := range c.Patterns {
		c.patterns = append(c.patterns, regexp.MustCompile(`\A(?:`+p.Pattern+`)\z`))
	}
	return &c
})

// All returns every tool of the catalogue (current, legacy and unconfirmed),
// in the catalogue's order. The slice is shared: do not modify it.
func All() []Tool { return load().Tools }

// Lookup returns the tool called exactly name (case matters, as the
// agent's tool names are compared exactly).
func Lookup(name string) (Tool, bool) {
	c := load()
	i, ok := c.byName[name]
	if !ok {
		return Tool{}, false
	}
	return c.Tools[i], true
}

// Canonical returns the name hooks see for a tool called name: a legacy
// name's new name, or name itself.
func Canonical(name string) string {
	if t, ok := Lookup(name); ok && t.Canonical != "" {
		return t.Canonical
	}
	return name
}

// Known reports whether the agent can call a tool by that name: a tool of
// the catalogue or a name of a pattern's family (mcp_server_tool).
func Known(name string) bool {
	if _, ok := Lookup(name); ok {
		return true
	}
	for _, re := range load().patterns {
		if re.MatchString(name) {
			return true
		}
	}
	return false
}

// Names returns every tool name of the catalogue, sorted (the candidates of
// a did-you-mean). The slice is shared: do not modify it.
func Names() []string { return load().names }

// Patterns returns the families of tool names (MCP).
func Patterns() []Pattern { return load().Patterns }
