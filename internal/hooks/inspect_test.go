package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hookspec"
)

// parseConfig loads content as a config file and reads its hooks block the
// way a command does.
func parseConfig(t *testing.T, content string, env map[string]string) (*config.File, *hookspec.Parsed) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := config.Load(path, config.MapEnv(env))
	if err != nil {
		t.Fatal(err)
	}
	return f, hookspec.Parse(f, catalog.NewCatalogue(f.Settings.ExtraEvents), config.MapEnv(env))
}

func TestParseErrorNamesTheCommandAsWritten(t *testing.T) {
	f, p := parseConfig(t, "hooks:\n  on_session_start:\n    - command: \"/h/a.sh '${API_TOKEN}\"\n", map[string]string{"API_TOKEN": "s3cr3t"})
	s := &Setup{Config: f, Parsed: p}
	h := s.Inspect(p.Specs[0], nil)
	if h.ParseErr == nil || strings.Contains(h.ParseErr.Error(), "s3cr3t") || !strings.Contains(h.ParseErr.Error(), "${API_TOKEN}") {
		t.Errorf("parse error = %v, want it to name the command as written", h.ParseErr)
	}
}
