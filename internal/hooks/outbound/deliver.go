package outbound

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

const (
	// DefaultTimeout bounds one attempt when Target.Timeout is unset.
	DefaultTimeout = 10 * time.Second
	// DefaultRetryDelay is the pause before the second attempt.
	DefaultRetryDelay = time.Second
	// UserAgent is the agent's own, so receivers need not tell us apart.
	UserAgent = "Hermes-Agent-Outbound-Webhook"

	maxAttempts = 2
	// drainLimit caps how much of a response we read: enough for the
	// connection to be reused after a short reply, never a large download.
	drainLimit = 64 << 10
)

// Target is one configured webhook, already parsed and validated.
type Target struct {
	Name   string // label in results; the URL when empty
	URL    string
	Secret string // signs the body when not empty
	// Shown is the URL as every message shows it: as written, secrets as
	// ${NAME}, user-info and query values hidden (SPEC §24 item 4); the
	// redacted URL when empty.
	Shown string
	// Timeout bounds each attempt (connect, send, response headers);
	// DefaultTimeout when zero. Clamping to the config's range is the
	// parser's business.
	Timeout time.Duration
}

// Result says what happened to one delivery.
type Result struct {
	Name string
	URL  string
	// StatusCode is the last attempt's HTTP status, 0 when it got no
	// response.
	StatusCode int
	Attempts   int
	// Error says why no response came (connection, timeout, cancellation),
	// or "" when the last attempt got one, whatever its status.
	Error          string
	DeliveryID     string
	ElapsedSeconds float64
}

// Client delivers webhooks. The zero value is ready to use.
type Client struct {
	// HTTP sends the requests; nil means a default client. Whatever is
	// given, redirects are never followed (SPEC §11): a copy with its own
	// redirect policy is used, so a 3xx is the final status.
	HTTP *http.Client
	// RetryDelay is the pause before the second attempt; DefaultRetryDelay
	// when zero.
	RetryDelay time.Duration
	// NewID makes a delivery id; default a uuid4 as 32 hex digits.
	NewID func() string
	// Now is the clock for the timestamp and the elapsed time.
	Now func() time.Time
}

func (c *Client) retryDelay() time.Duration {
	if c.RetryDelay > 0 {
		return c.RetryDelay
	}
	return DefaultRetryDelay
}

func (c *Client) newID() string {
	if c.NewID != nil {
		return c.NewID()
	}
	return uuid4()
}

// uuid4 is a random (version 4) UUID as 32 hex digits, as Python's
// uuid.uuid4().hex: 16 random bytes with the version and variant bits set.
func uuid4() string {
	var id [16]byte
	_, _ = rand.Read(id[:]) // never fails (crypto/rand)
	id[6] = id[6]&0x0f | 0x40
	id[8] = id[8]&0x3f | 0x80
	return hex.EncodeToString(id[:])
}

func (c *Client) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c *Client) httpClient() *http.Client {
	var hc http.Client
	if c.HTTP != nil {
		hc = *c.HTTP
	}
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &hc
}

func (t Target) timeout() time.Duration {
	if t.Timeout > 0 {
		return t.Timeout
	}
	return DefaultTimeout
}

// Deliver POSTs the payload to t for event, retrying once after a connection
// error, a timeout or a 5xx. Both attempts send the same delivery id and the
// same bytes, so a receiver can drop a duplicate. It never fails: what went
// wrong is in Result.Error. Cancelling ctx stops it, also during the pause
// between attempts.
func (c *Client) Deliver(ctx context.Context, t Target, event string, payload *pyjson.Object) (res Result) {
	if c == nil {
		c = &Client{}
	}
	start := c.now()
	defer func() { res.ElapsedSeconds = c.now().Sub(start).Seconds() }()

	// Results are reported: they carry the URL with its secrets hidden.
	res = Result{Name: t.Name, URL: t.shown(), DeliveryID: c.newID()}
	if res.Name == "" {
		res.Name = res.URL
	}
	body := Body(payload, res.DeliveryID, start)
	// A URL that cannot make a request would fail the same way twice.
	if _, err := http.NewRequest(http.MethodPost, t.URL, nil); err != nil {
		res.Error = fmt.Sprintf("webhook %q has an unusable url: %v; fix it in hooks.outbound", res.Name, unwrapURLError(err))
		return res
	}
	hc := c.httpClient()
	for attempt := 1; attempt <= maxAttempts; attempt++ {
		if attempt > 1 && !wait(ctx, c.retryDelay()) {
			res.Error = fmt.Sprintf("retry of POST %s cancelled: %v", res.URL, context.Cause(ctx))
			return res
		}
		if ctx.Err() != nil {
			res.Error = fmt.Sprintf("POST %s cancelled: %v", res.URL, context.Cause(ctx))
			return res
		}
		res.Attempts = attempt
		status, err := c.send(ctx, hc, t, event, res.DeliveryID, body)
		res.StatusCode, res.Error = status, ""
		if err != nil {
			res.Error = describe(ctx, t, err)
			if ctx.Err() != nil {
				return res // cancelled by the caller: no point retrying
			}
			continue
		}
		if status < 500 {
			return res // delivered, or refused in a way a retry will not change
		}
	}
	return res
}

// send makes one attempt and returns the response status.
func (c *Client) send(ctx context.Context, hc *http.Client, t Target, event, id string, body []byte) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, t.timeout())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.URL, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("X-Hermes-Event", event)
	req.Header.Set("X-Hermes-Delivery", id)
	if t.Secret != "" {
		req.Header.Set("X-Hermes-Signature-256", Sign(t.Secret, body))
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, err
	}
	// The status is what counts; the body is read only so the connection
	// can be reused, and a slow or huge one is cut by the cap and deadline.
	_, _ = io.CopyN(io.Discard, resp.Body, drainLimit)
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

// describe turns a failed attempt into a message that says what happened
// to which URL (its secrets hidden).
func describe(ctx context.Context, t Target, err error) string {
	shown := t.shown()
	if ctx.Err() != nil {
		return fmt.Sprintf("POST %s cancelled: %v", shown, context.Cause(ctx))
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return fmt.Sprintf("POST %s: no response within %s (timeout); check the endpoint or raise the webhook's timeout", shown, t.timeout())
	}
	return fmt.Sprintf("POST %s: %s", shown, t.hide(unwrapURLError(err).Error()))
}

// shown is how the URL is shown.
func (t Target) shown() string {
	if t.Shown != "" {
		return t.Shown
	}
	return Redact(t.URL)
}

// hide replaces the URL, whole or in the parts an error may quote (its
// path, its host and path), by the shown form: an HTTP client's error can
// repeat the URL, and the URL can hold an expanded secret.
func (t Target) hide(msg string) string {
	if t.URL == "" {
		return msg
	}
	msg = strings.ReplaceAll(msg, t.URL, t.shown())
	if u, err := url.Parse(t.URL); err == nil && len(u.Path) > 1 {
		if s, err := url.Parse(t.shown()); err == nil {
			msg = strings.ReplaceAll(msg, u.Path, s.Path)
		}
	}
	return msg
}

// unwrapURLError drops the `Post "<url>":` prefix net/http adds, since our
// messages already name the URL, and net/http only hides its password: the
// user name and the query (?token=) would be printed.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// wait pauses for d and reports false if ctx ended first.
func wait(ctx context.Context, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// DeliverAll delivers to every target at once, so one slow endpoint does not
// delay the others, and returns the results in target order. Each delivery
// gets its own id.
func DeliverAll(ctx context.Context, c *Client, targets []Target, event string, payload *pyjson.Object) []Result {
	results := make([]Result, len(targets))
	var wg sync.WaitGroup
	for i, t := range targets {
		wg.Go(func() { results[i] = c.Deliver(ctx, t, event, payload) })
	}
	wg.Wait()
	return results
}
