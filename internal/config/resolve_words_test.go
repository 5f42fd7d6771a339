package config

import (
	"regexp"
	"testing"
)

// The word switches and the number prefilter of Resolve say what PyYAML's
// resolver expressions say.
func TestResolverWordsMatchPyYAML(t *testing.T) {
	null := regexp.MustCompile(`^(?:~|null|Null|NULL|)$`)
	boolean := regexp.MustCompile(`^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$`)
	for _, s := range []string{"", "~", "null", "Null", "NULL", "nULL", "nil", "y", "Y", "yes", "YEs", "n", "no", "NO",
		"true", "True", "TRUE", "tRUE", "false", "on", "ON", "oN", "off", "Off", "OFF", "0", "1.5", ".inf", "-.INF",
		".nan", "0x1F", "+12", "-3", "1_000", "1:30", "abc", "/bin/sh", "~/x", " yes", "yes\n"} {
		if got, want := isPyNull(s), null.MatchString(s); got != want {
			t.Errorf("isPyNull(%q) = %v, want %v", s, got, want)
		}
		if got, want := isPyBool(s), boolean.MatchString(s); got != want {
			t.Errorf("isPyBool(%q) = %v, want %v", s, got, want)
		}
		if (pyInt().MatchString(s) || pyFloat().MatchString(s)) && !mayBeNumber(s) {
			t.Errorf("mayBeNumber(%q) is false, but it is a number", s)
		}
	}
}
