package hooks

import (
	"path/filepath"
	"sync"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/code"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks/gateway"
	"github.com/hermes-hooks/hermes/internal/hookspec"
	"github.com/hermes-hooks/hermes/internal/memo"
	"github.com/hermes-hooks/hermes/internal/safepath"
	"github.com/hermes-hooks/hermes/internal/shell"
	"github.com/hermes-hooks/hermes/internal/trust"
)

// Setup is everything one invocation knows about the user's hooks: where
// the files are, the config and what was parsed from it, the allowlist
// store. Commands load it once.
type Setup struct {
	Loc       *config.Location
	Config    *config.File
	Catalogue *catalog.Catalogue
	Parsed    *hookspec.Parsed
	Store     *allowlist.Store
	Env       config.Env
	// Environ is the environment as NAME=value lines, when the caller
	// gives it: secret values in it are hidden in reports (SPEC §13.2
	// rule 10).
	Environ  []string
	UserHome string
	// Fingerprints hashes each script once per invocation.
	Fingerprints *allowlist.Fingerprinter

	gateway []gateway.Hook
	gwDone  bool

	pathsOnce sync.Once
	paths     *safepath.Checker

	cachedOnce sync.Once
	cached     trust.Probes // cachedProbes
	cachedEnv  code.Env     // CodeEnv as display and planning find code with

	checkoutOnce sync.Once
	checkoutDir  string // the git work tree holding the config, looked for once

	execChecks   memo.Map[execKey, error]
	interpreters memo.Map[string, bool] // interpreter path → there (display only)
	codeMemo     code.Memo              // what finding hooks' code asked of the disk (display and planning only)
	files        safepath.Resolver      // each script's lstat and folder, shared by the caches above (display and planning only)
}

// Load finds HERMES_HOME and the config file, reads the config and parses
// its hooks. A config that cannot be read or is not valid YAML is an error;
// everything else becomes a diagnostic.
func Load(req config.Request) (*Setup, error) { return load(req, false) }

// LoadWithAllowlist is Load for a command that reads the allowlist next
// (Store.Read): the reading starts before the config is parsed and runs
// beside it (Store.ReadAhead), the two costly steps of loading a long
// config on two cores.
func LoadWithAllowlist(req config.Request) (*Setup, error) { return load(req, true) }

func load(req config.Request, readAhead bool) (*Setup, error) {
	loc, err := config.Locate(req)
	if err != nil {
		return nil, err
	}
	// ${HERMES_HOME} in the config names the home in use (--home, -p), as
	// the agent sets HERMES_HOME for a profile before reading its config;
	// hooks get the same value in their environment (SPEC §14).
	env := req.Env.With("HERMES_HOME", loc.Home)
	store := allowlist.Open(loc.Home)
	if readAhead {
		store.ReadAhead()
	}
	file, err := config.Load(loc.ConfigPath, env)
	if err != nil {
		return nil, err
	}
	cat := catalog.NewCatalogue(file.Settings.ExtraEvents)
	s := &Setup{
		Loc:          loc,
		Config:       file,
		Catalogue:    cat,
		Parsed:       hookspec.Parse(file, cat, env),
		Store:        store,
		Env:          env,
		UserHome:     req.UserHome,
		Fingerprints: allowlist.NewFingerprinter(),
	}
	// A script's #! line is read with its hash, for display and planning
	// alike: one open of each script, not two.
	s.codeMemo.ReadHead = func(path string) []byte { return s.Fingerprints.Head(path, shell.HeadSize) }
	s.codeMemo.Files = &s.files
	return s, nil
}

// Diagnostics are the config's problems: settings first, then the hooks
// block, each with its path, file and line.
func (s *Setup) Diagnostics() []config.Diagnostic {
	out := make([]config.Diagnostic, 0, len(s.Config.Diagnostics)+len(s.Parsed.Diagnostics))
	out = append(out, s.Config.Diagnostics...)
	return append(out, s.Parsed.Diagnostics...)
}

// GatewayDir is where gateway hooks live.
func (s *Setup) GatewayDir() string { return filepath.Join(s.Loc.Home, "hooks") }

// GatewayHooks discovers the gateway hooks (once).
func (s *Setup) GatewayHooks() []gateway.Hook {
	if !s.gwDone {
		s.gateway = gateway.Discover(s.GatewayDir(), catalog.GatewayEventNames())
		if s.Config.Settings.StrictModes {
			gateway.CheckOwnership(s.gateway, s.SafePaths())
		}
		s.gwDone = true
	}
	return s.gateway
}

// GatewayError is the first gateway hook whose HOOK.yaml is not a regular
// file (a *config.FileError), or nil.
func (s *Setup) GatewayError() error {
	for _, g := range s.GatewayHooks() {
		if g.ManifestErr != nil {
			return g.ManifestErr
		}
	}
	return nil
}

// ForgetTree lets go of the config's YAML tree once its hooks are parsed,
// for a command that reads only Parsed from then on (list): the tree of a
// 55 MB config is 600 MB that would otherwise stay live, scanned by every
// garbage collection, while its 755,000 hooks are inspected (SPEC §29
// item 2). The decoding offered to an edit of the same bytes goes too.
func (s *Setup) ForgetTree() {
	s.Config.Hooks, s.Config.Disabled, s.Config.Expansions = nil, nil, nil
	config.OfferDecoding(nil)
}
