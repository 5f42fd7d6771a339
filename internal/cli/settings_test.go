package cli

import (
	"slices"
	"testing"

	"github.com/spf13/pflag"
)

func TestSettingsReadFlagsUnlessSet(t *testing.T) {
	fs := pflag.NewFlagSet("hermes", pflag.ContinueOnError)
	fs.String("home", "", "")
	fs.Bool("verbose", false, "")
	fs.Bool("accept-hooks", false, "")
	s := NewSettings()
	s.BindPFlags(fs)
	if err := fs.Parse([]string{"--home", "/h", "--verbose"}); err != nil {
		t.Fatal(err)
	}
	if got := s.GetString("home"); got != "/h" {
		t.Errorf("home = %q, want the flag's /h", got)
	}
	if !s.GetBool("verbose") || s.GetBool("accept-hooks") {
		t.Errorf("verbose, accept-hooks = %v, %v; want the flags' true, false", s.GetBool("verbose"), s.GetBool("accept-hooks"))
	}
	if v, ok := s.Get("verbose").(bool); !ok || !v {
		t.Errorf("Get(verbose) = %#v, want a bool flag as the bool true", s.Get("verbose"))
	}
	s.Set("home", "/other")
	s.Set("accept-hooks", "true")
	if got := s.GetString("home"); got != "/other" {
		t.Errorf("home after Set = %q, want /other", got)
	}
	if !s.GetBool("accept-hooks") {
		t.Error(`accept-hooks set to "true" reads false`)
	}
	if s.GetString("nothing") != "" || s.GetBool("nothing") || s.Get("nothing") != nil {
		t.Error("an unknown key has a value")
	}
	s.Set("extra", 1)
	if got, want := s.AllKeys(), []string{"accept-hooks", "extra", "home", "verbose"}; !slices.Equal(got, want) {
		t.Errorf("AllKeys = %q, want %q", got, want)
	}
	// A copy made the way test --isolated makes it reads the same.
	c := NewSettings()
	for _, k := range s.AllKeys() {
		c.Set(k, s.Get(k))
	}
	for _, k := range s.AllKeys() {
		if c.GetString(k) != s.GetString(k) || c.GetBool(k) != s.GetBool(k) {
			t.Errorf("copy of %s reads %q, original %q", k, c.GetString(k), s.GetString(k))
		}
	}
}
