package config

import (
	"regexp"
	"sync"

	"gopkg.in/yaml.v3"
)

// pyTimestamp is PyYAML's implicit resolver for timestamps: a plain
// 2001-12-14 or 2001-12-14 21:59:43.10 -5 is a date or datetime to the
// agent, not a string.
var pyTimestamp = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$`)
})

// PlainClass names what the agent's YAML 1.1 reader makes of s written as a
// plain (unquoted) scalar: "string" when it reads the string s, else
// "null", "bool", "int", "float", "timestamp", "value" (a lone `=`, which
// PyYAML's safe loader cannot construct: the whole file is refused) or
// "merge" (`<<`).
func PlainClass(s string) string {
	switch s {
	case "=":
		return "value"
	case "<<":
		return "merge"
	}
	if s != "" && s[0] >= '0' && s[0] <= '9' && pyTimestamp().MatchString(s) {
		return "timestamp"
	}
	v := Resolve(&yaml.Node{Kind: yaml.ScalarNode, Value: s})
	switch v.Kind {
	case KindNull:
		return "null"
	case KindBool:
		return "bool"
	case KindInt:
		return "int"
	case KindFloat:
		return "float"
	case KindString:
		if v.Str == s {
			return "string"
		}
	}
	return "other"
}

// PlainIsString: s written plain is read by the agent as the string s.
func PlainIsString(s string) bool { return PlainClass(s) == "string" }
