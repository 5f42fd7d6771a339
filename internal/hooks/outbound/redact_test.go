package outbound

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

func TestRedact(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://example.test/hermes", "https://example.test/hermes"},
		{"https://user:pw@host/x?token=abc", "https://***@host/x?token=***"},
		{"https://tok@host/x", "https://***@host/x"},
		{"https://host/x?a=1&token=s3cr3t&b", "https://host/x?a=***&token=***&***"},
		{"https://host/x?s3cr3t", "https://host/x?***"},
		{"https://host/x#access_token=s3cr3t", "https://host/x#***"},
		{"http://127.0.0.1:9/never", "http://127.0.0.1:9/never"},
		{"http://user:pw@bad host/?token=abc", "http://***@bad host/?***"},
		{"https://us%zzer:pw@host/?k=v", "https://***@host/?***"},
	} {
		if got := Redact(c.in); got != c.want {
			t.Errorf("Redact(%q) = %q, want %q", c.in, got, c.want)
		}
		for _, secret := range []string{"pw", "abc", "s3cr3t", "tok@"} {
			if strings.Contains(c.in, secret) && strings.Contains(Redact(c.in), secret) {
				t.Errorf("Redact(%q) = %q still holds %q", c.in, Redact(c.in), secret)
			}
		}
	}
}

// net/http hides only the password of a URL in its errors; the user name
// and the query would reach the message.
func TestDeliveryErrorsHideSecrets(t *testing.T) {
	c := &Client{RetryDelay: time.Millisecond}
	for _, u := range []string{
		"http://hookuser:hookpass@127.0.0.1:1/x?token=tok-secret",   // connection refused
		"http://hookuser:hookpass@127.0.0.1:bad/x?token=tok-secret", // unusable URL
	} {
		res := c.Deliver(context.Background(), Target{URL: u, Timeout: time.Second}, "on_session_start", pyjson.NewObject())
		if res.Error == "" {
			t.Fatalf("delivery to %s did not fail", u)
		}
		for _, s := range []string{res.Error, res.URL, res.Name} {
			if strings.Contains(s, "hookuser") || strings.Contains(s, "hookpass") || strings.Contains(s, "tok-secret") {
				t.Errorf("delivery result leaks a secret: %q", s)
			}
		}
	}
}

// SPEC §24 item 4: a secret expanded into a webhook URL's path (a Slack-
// style URL) never reaches a delivery error or result: they show the URL
// as written, ${NAME} for the secret.
func TestDeliveryErrorsShowTheURLAsWritten(t *testing.T) {
	c := &Client{RetryDelay: time.Millisecond}
	tg := Target{URL: "http://127.0.0.1:1/services/T0/sk-path-secret", Shown: "http://127.0.0.1:1/services/T0/${HOOK_TOKEN}", Timeout: time.Second}
	res := c.Deliver(context.Background(), tg, "on_session_start", pyjson.NewObject())
	if res.Error == "" {
		t.Fatal("delivery did not fail")
	}
	for _, s := range []string{res.Error, res.URL} {
		if strings.Contains(s, "sk-path-secret") || !strings.Contains(s, "${HOOK_TOKEN}") {
			t.Errorf("delivery result shows %q", s)
		}
	}
	if got := tg.hide(`Post "http://127.0.0.1:1/services/T0/sk-path-secret": EOF; path /services/T0/sk-path-secret`); strings.Contains(got, "sk-path-secret") {
		t.Errorf("hide left the secret in %q", got)
	}
}
