package outbound

import (
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// Redact is how a webhook URL is shown anywhere (human output, --json,
// warnings, errors, logs): user-info and the value of every query parameter
// replaced by *** (https://***@host/path?token=***), and a fragment too,
// since credentials ride in each (SPEC §13 rule 11). The URL used to
// deliver is never changed.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return redactUnparsed(raw)
	}
	hadUser := u.User != nil
	u.User = nil
	if u.RawQuery != "" || u.ForceQuery {
		u.RawQuery = redactQuery(u.RawQuery)
	}
	if u.Fragment != "" {
		u.Fragment, u.RawFragment = "***", ""
	}
	s := u.String()
	if hadUser {
		// url.User would percent-encode the stars.
		s = strings.Replace(s, "//", "//***@", 1)
	}
	return s
}

// redactQuery keeps the names of the parameters, in order, and hides their
// values; a bare word (?s3cr3t) may itself be the secret.
func redactQuery(q string) string {
	if q == "" {
		return ""
	}
	parts := strings.Split(q, "&")
	for i, p := range parts {
		if name, _, ok := strings.Cut(p, "="); ok {
			parts[i] = name + "=***"
		} else if p != "" {
			parts[i] = "***"
		}
	}
	return strings.Join(parts, "&")
}

var (
	userInfo = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`//[^/?#]*@`) })
	afterQ   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[?#].*$`) })
)

// redactUnparsed hides what may be secret in a string url.Parse refused.
func redactUnparsed(raw string) string {
	s := userInfo().ReplaceAllString(raw, "//***@")
	return afterQ().ReplaceAllString(s, "?***")
}
