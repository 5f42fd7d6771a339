package hookspec

import (
	"fmt"
	"net/url"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks/outbound"
)

// Timeouts of an outbound webhook delivery, in seconds (SPEC §11).
const (
	DefaultWebhookTimeout = 10
	MinWebhookTimeout     = 1
	MaxWebhookTimeout     = 60
)

// Webhook is one valid entry of hooks.outbound.
type Webhook struct {
	Index int    // position in hooks.outbound, counting skipped entries
	Name  string // label; the URL (redacted) when not given
	URL   string // as configured, credentials included: for delivery only
	// Shown is URL with its user-info and query values hidden: what every
	// report, warning and error shows (SPEC §13 rule 11).
	Shown   string
	Events  []string // valid shell event names, deduplicated, in config order
	Matcher *Matcher // nil: every tool call (and always nil without a tool event)
	Timeout int
	// Secret signs deliveries; it must never be printed. SecretEnv is the
	// variable it came from ("" for a literal secret).
	Secret    string
	SecretEnv string
	Signed    bool // a non-empty secret was resolved
	File      string
	Line      int
}

func (p *parser) webhooks(pr config.Pair) {
	path, line := "hooks."+OutboundKey, pr.KeyNode.Line
	v := config.Resolve(pr.Value)
	switch v.Kind {
	case config.KindNull:
		return
	case config.KindList:
	default:
		p.warn(path, line, "outbound must be a list of webhooks (entries starting with '-'), got %s; no webhooks are loaded", v.Describe())
		return
	}
	for i, item := range v.Node.Content {
		if w, ok := p.webhook(i, item); ok {
			p.out.Webhooks = append(p.out.Webhooks, w)
		}
	}
}

func (p *parser) webhook(i int, item *yaml.Node) (Webhook, bool) {
	at := entryPath{OutboundKey, i}
	path := at.String() // webhooks are few: made once
	w := Webhook{Index: i, Timeout: DefaultWebhookTimeout, File: p.file, Line: item.Line}
	item = p.item(item)
	v := config.Resolve(item)
	if v.Kind != config.KindMapping {
		p.warn(path, item.Line, "a webhook must be a mapping with url and events, got %s; skipped", v.Describe())
		return w, false
	}
	f := p.fields(at.key, v.Node)

	u, ok := f.get("url")
	if !ok {
		p.warn(path, item.Line, "webhook has no url; skipped")
		return w, false
	}
	uv := config.Resolve(u.Value)
	w.URL = strings.TrimSpace(uv.Str)
	if uv.Kind != config.KindString || w.URL == "" {
		p.warn(path+".url", u.KeyNode.Line, "url must be an http:// or https:// address, got %s; webhook skipped", uv.Describe())
		return w, false
	}
	w.Shown = outbound.Redact(w.URL)
	// A ${…TOKEN} in the path would survive redaction expanded: it is
	// shown as written (SPEC §13.2 rule 10).
	w.Shown = p.unexpandSecrets(u.Value, uv, w.Shown)
	parsed, err := url.Parse(w.URL)
	scheme := ""
	if err == nil {
		scheme = strings.ToLower(parsed.Scheme)
	}
	if (scheme != "http" && scheme != "https") || parsed.Host == "" {
		p.warn(path+".url", u.KeyNode.Line, "url %q is not an http:// or https:// address; webhook skipped", w.Shown)
		return w, false
	}
	if scheme == "http" {
		p.warn(path+".url", u.KeyNode.Line, "url %q is plain http: payloads (and their signature) travel unencrypted; use https://", w.Shown)
	}

	w.Name = w.Shown
	if n, ok := f.get("name"); ok {
		nv := config.Resolve(n.Value)
		switch {
		case nv.Kind == config.KindString && strings.TrimSpace(nv.Str) != "":
			w.Name = p.unexpandSecrets(n.Value, nv, strings.TrimSpace(nv.Str))
		case nv.Kind != config.KindNull && nv.Kind != config.KindString:
			p.warn(path+".name", n.KeyNode.Line, "name must be a string, got %s; using the url", nv.Describe())
		}
	}

	if !p.webhookEvents(&w, path, item.Line, f) {
		return w, false
	}
	if m, ok := f.get("matcher"); ok {
		w.Matcher = p.webhookMatcher(&w, path+".matcher", m)
	}
	if t, ok := f.get("timeout"); ok {
		w.Timeout = p.webhookTimeout(path+".timeout", t)
	}
	p.secret(&w, path, f)
	return w, true
}

// unexpandSecrets is text (the value of n, possibly redacted) with the
// value of each secret-named variable its ${VAR} expansion brought in put
// back as ${NAME}.
func (p *parser) unexpandSecrets(n *yaml.Node, v config.Value, text string) string {
	x, ok := p.written(n, v)
	if !ok {
		return text
	}
	for _, name := range x.SecretVars() {
		if value, _ := p.env(name); value != "" {
			text = strings.ReplaceAll(text, value, "${"+name+"}")
		}
	}
	return text
}

// webhookEvents fills w.Events; false means none is usable.
func (p *parser) webhookEvents(w *Webhook, path string, line int, f fieldSet) bool {
	e, ok := f.get("events")
	if !ok {
		p.warn(path, line, "webhook has no events; skipped")
		return false
	}
	path, line = path+".events", e.KeyNode.Line
	v := config.Resolve(e.Value)
	if v.Kind != config.KindList {
		p.warn(path, line, "events must be a list of event names, got %s; webhook skipped", v.Describe())
		return false
	}
	seen := map[string]bool{}
	for j, item := range v.Node.Content {
		ipath := fmt.Sprintf("%s[%d]", path, j)
		iv := config.Resolve(item)
		name := strings.TrimSpace(iv.Str)
		switch {
		case iv.Kind != config.KindString:
			p.warn(ipath, item.Line, "an event name must be a string, got %s; dropped", iv.Describe())
		case catalog.IsGatewayEvent(name):
			p.warn(ipath, item.Line, "%q is a gateway event: webhooks are delivered for shell events only; dropped", name)
		case !p.cat.Has(name):
			p.warn(ipath, item.Line, "%s (dropped from this webhook)", p.unknownEvent(name))
		case !seen[name]:
			seen[name] = true
			w.Events = append(w.Events, name)
		}
	}
	if len(w.Events) == 0 {
		p.warn(path, line, "webhook has no valid event left; skipped")
		return false
	}
	return true
}

func (p *parser) webhookMatcher(w *Webhook, path string, m config.Pair) *Matcher {
	tool := false
	for _, name := range w.Events {
		if ev, _ := p.cat.Lookup(name); ev.Tool {
			tool = true
		}
	}
	if !tool {
		v := config.Resolve(m.Value)
		if blank := v.Kind == config.KindNull || (v.Kind == config.KindString && strings.TrimSpace(v.Str) == ""); !blank {
			p.warn(path, m.KeyNode.Line, "matcher only applies to tool events (pre_tool_call, post_tool_call) and this webhook has none; ignored")
		}
		return nil
	}
	// A tool event is present: validate as for a shell hook on that event.
	ev, _ := p.cat.Lookup("pre_tool_call")
	return p.matcher(ev, func() string { return path }, m)
}

func (p *parser) webhookTimeout(path string, t config.Pair) int {
	line := t.KeyNode.Line
	v := config.Resolve(t.Value)
	n, ok := pythonInt(v)
	switch {
	case !ok:
		p.warn(path, line, "timeout must be a whole number of seconds, got %s; using the default %d", v.Describe(), DefaultWebhookTimeout)
		return DefaultWebhookTimeout
	case n < MinWebhookTimeout:
		p.warn(path, line, "timeout %s is below %d second; using %d", v.Describe(), MinWebhookTimeout, MinWebhookTimeout)
		return MinWebhookTimeout
	case n > MaxWebhookTimeout:
		p.advise(path, line, "timeout %s is above the maximum of %d seconds for a webhook; using %d", v.Describe(), MaxWebhookTimeout, MaxWebhookTimeout)
		return MaxWebhookTimeout
	}
	return int(n)
}

// secret resolves the signing secret: secret_env wins over secret even when
// the variable is unset, so that removing a variable never silently falls
// back to a stale literal.
func (p *parser) secret(w *Webhook, path string, f fieldSet) {
	if se, ok := f.get("secret_env"); ok {
		v := config.Resolve(se.Value)
		name := strings.TrimSpace(v.Str)
		if v.Kind != config.KindString || name == "" {
			p.warn(path+".secret_env", se.KeyNode.Line, "secret_env must name an environment variable, got %s; deliveries will be unsigned", v.Describe())
			return
		}
		w.SecretEnv = name
		w.Secret, _ = p.env(name)
		if w.Secret == "" {
			p.warn(path+".secret_env", se.KeyNode.Line, "environment variable %s is not set or empty; deliveries will be unsigned (set it, or remove secret_env)", name)
		}
		w.Signed = w.Secret != ""
		return
	}
	if s, ok := f.get("secret"); ok {
		v := config.Resolve(s.Value)
		switch {
		case v.Kind == config.KindString:
			w.Secret = v.Str
		case v.Kind != config.KindNull:
			// The value is not echoed: it is meant to be secret.
			p.warn(path+".secret", s.KeyNode.Line, "secret must be a string; deliveries will be unsigned")
		}
	}
	w.Signed = w.Secret != ""
}
