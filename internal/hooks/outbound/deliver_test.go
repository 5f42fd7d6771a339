package outbound

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// received is one request as the server saw it.
type received struct {
	method string
	header http.Header
	body   []byte
}

// recorder answers with statuses in turn (the last one repeats) and keeps
// every request it got.
type recorder struct {
	statuses []int

	mu   sync.Mutex
	reqs []received
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	n := len(r.reqs)
	r.reqs = append(r.reqs, received{req.Method, req.Header.Clone(), body})
	status := r.statuses[min(n, len(r.statuses)-1)]
	r.mu.Unlock()
	w.WriteHeader(status)
	_, _ = io.WriteString(w, "ok")
}

func (r *recorder) requests() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.reqs...)
}

func serve(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

var testTime = time.Date(2024, 5, 1, 12, 0, 0, 500000000, time.UTC)

// testClient has a fixed id and clock and a short retry delay.
func testClient() *Client {
	return &Client{
		RetryDelay: 10 * time.Millisecond,
		NewID:      func() string { return "d3adb33fd3adb33fd3adb33fd3adb33f" },
		Now:        func() time.Time { return testTime },
	}
}

func testPayload(t *testing.T) *pyjson.Object {
	return mustObject(t, `{"hook_event_name": "post_tool_call", "tool_name": "terminal", "tool_input": {"command": "ls"},
		"session_id": "s1", "cwd": "/w", "profile": "default", "extra": {}}`)
}

func TestDeliverSignedRequest(t *testing.T) {
	rec := &recorder{statuses: []int{200}}
	srv := serve(t, rec)
	payload := testPayload(t)

	res := testClient().Deliver(context.Background(), Target{Name: "audit", URL: srv.URL, Secret: "s3cret"}, "post_tool_call", payload)

	want := Result{Name: "audit", URL: srv.URL, StatusCode: 200, Attempts: 1, DeliveryID: "d3adb33fd3adb33fd3adb33fd3adb33f"}
	if res != want {
		t.Errorf("Result = %+v, want %+v", res, want)
	}
	reqs := rec.requests()
	if len(reqs) != 1 {
		t.Fatalf("server got %d requests, want 1", len(reqs))
	}
	got := reqs[0]
	if got.method != http.MethodPost {
		t.Errorf("method = %s, want POST", got.method)
	}
	for name, value := range map[string]string{
		"Content-Type":      "application/json",
		"User-Agent":        "Hermes-Agent-Outbound-Webhook",
		"X-Hermes-Event":    "post_tool_call",
		"X-Hermes-Delivery": "d3adb33fd3adb33fd3adb33fd3adb33f",
	} {
		if v := got.header.Get(name); v != value {
			t.Errorf("header %s = %q, want %q", name, v, value)
		}
	}
	if sig := got.header.Get("X-Hermes-Signature-256"); !verifySignature("s3cret", got.body, sig) {
		t.Errorf("signature %q does not verify against the received body %s", sig, got.body)
	}
	wantBody := `{"hook_event_name": "post_tool_call", "tool_name": "terminal", "tool_input": {"command": "ls"}, ` +
		`"session_id": "s1", "cwd": "/w", "profile": "default", "extra": {}, ` +
		`"delivery_id": "d3adb33fd3adb33fd3adb33fd3adb33f", "timestamp": "2024-05-01T12:00:00.500000Z"}`
	if string(got.body) != wantBody {
		t.Errorf("body =\n%s\nwant\n%s", got.body, wantBody)
	}
}

func TestDeliverUnsignedHasNoSignatureHeader(t *testing.T) {
	rec := &recorder{statuses: []int{204}}
	srv := serve(t, rec)

	res := testClient().Deliver(context.Background(), Target{URL: srv.URL}, "on_session_end", testPayload(t))

	if res.StatusCode != 204 || res.Error != "" {
		t.Fatalf("Result = %+v, want status 204 and no error", res)
	}
	if res.Name != srv.URL {
		t.Errorf("Name = %q, want the URL when no name is given", res.Name)
	}
	h := rec.requests()[0].header
	if _, ok := h["X-Hermes-Signature-256"]; ok {
		t.Errorf("unsigned delivery sent X-Hermes-Signature-256: %q", h.Get("X-Hermes-Signature-256"))
	}
	if v := h.Get("X-Hermes-Event"); v != "on_session_end" {
		t.Errorf("X-Hermes-Event = %q, want on_session_end", v)
	}
}

func TestDeliverRetryPolicy(t *testing.T) {
	tests := []struct {
		name         string
		statuses     []int
		wantAttempts int
		wantStatus   int
	}{
		{"success first time", []int{200}, 1, 200},
		{"5xx then success is retried once", []int{500, 200}, 2, 200},
		{"5xx twice gives up after two attempts", []int{500, 500, 200}, 2, 500},
		{"503 then 404: last status counts", []int{503, 404}, 2, 404},
		{"4xx is not retried", []int{404, 200}, 1, 404},
		{"429 is a 4xx, not retried", []int{429, 200}, 1, 429},
		{"3xx is final", []int{304, 200}, 1, 304},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{statuses: tt.statuses}
			srv := serve(t, rec)

			res := testClient().Deliver(context.Background(), Target{URL: srv.URL, Secret: "k"}, "pre_llm_call", testPayload(t))

			if res.Attempts != tt.wantAttempts || res.StatusCode != tt.wantStatus || res.Error != "" {
				t.Errorf("Result = %+v, want %d attempts, status %d, no error", res, tt.wantAttempts, tt.wantStatus)
			}
			reqs := rec.requests()
			if len(reqs) != tt.wantAttempts {
				t.Fatalf("server got %d requests, want %d", len(reqs), tt.wantAttempts)
			}
			// A retry is the same delivery: same id, same bytes, same signature.
			for i, r := range reqs[1:] {
				if string(r.body) != string(reqs[0].body) {
					t.Errorf("attempt %d body differs:\n%s\nfirst:\n%s", i+2, r.body, reqs[0].body)
				}
				for _, h := range []string{"X-Hermes-Delivery", "X-Hermes-Signature-256"} {
					if r.header.Get(h) != reqs[0].header.Get(h) {
						t.Errorf("attempt %d %s = %q, first was %q", i+2, h, r.header.Get(h), reqs[0].header.Get(h))
					}
				}
			}
		})
	}
}

func TestDeliverRedirectNotFollowed(t *testing.T) {
	tests := []struct {
		name string
		http *http.Client
	}{
		{"default client", nil},
		// A caller's client that would follow redirects is overridden.
		{"caller's client", &http.Client{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			target := &recorder{statuses: []int{200}}
			mux := http.NewServeMux()
			mux.Handle("/target", target)
			mux.Handle("/start", http.RedirectHandler("/target", http.StatusFound))
			srv := serve(t, mux)
			c := testClient()
			c.HTTP = tt.http

			res := c.Deliver(context.Background(), Target{URL: srv.URL + "/start"}, "on_session_end", testPayload(t))

			if res.StatusCode != http.StatusFound || res.Attempts != 1 || res.Error != "" {
				t.Errorf("Result = %+v, want status 302 after 1 attempt, no error", res)
			}
			if n := len(target.requests()); n != 0 {
				t.Errorf("redirect target was hit %d times, want 0", n)
			}
			if tt.http != nil && tt.http.CheckRedirect != nil {
				t.Errorf("the caller's client was modified")
			}
		})
	}
}

func TestDeliverDefaults(t *testing.T) {
	var c Client
	if got := c.retryDelay(); got != time.Second {
		t.Errorf("default RetryDelay = %v, want 1s", got)
	}
	if got := (Target{}).timeout(); got != 10*time.Second {
		t.Errorf("default Timeout = %v, want 10s", got)
	}
	if got := (Target{Timeout: 3 * time.Second}).timeout(); got != 3*time.Second {
		t.Errorf("Timeout 3s gave %v", got)
	}
	hex32 := regexp.MustCompile(`^[0-9a-f]{32}$`)
	a, b := c.newID(), c.newID()
	for _, id := range []string{a, b} {
		if !hex32.MatchString(id) {
			t.Errorf("default id %q is not 32 lowercase hex digits", id)
		}
		// uuid4: version nibble 4, variant bits 10xx.
		if id[12] != '4' || !strings.ContainsRune("89ab", rune(id[16])) {
			t.Errorf("default id %q is not a uuid4", id)
		}
	}
	if a == b {
		t.Errorf("two default ids are equal: %s", a)
	}
}

func TestDeliverNilClientAndElapsed(t *testing.T) {
	rec := &recorder{statuses: []int{200}}
	srv := serve(t, rec)
	var nilClient *Client
	res := nilClient.Deliver(context.Background(), Target{URL: srv.URL}, "e", testPayload(t))
	if res.StatusCode != 200 || len(res.DeliveryID) != 32 {
		t.Errorf("nil client Result = %+v, want status 200 and a generated id", res)
	}

	// Elapsed comes from the injected clock: start, then end.
	tick := testTime
	c := testClient()
	c.Now = func() time.Time { tick = tick.Add(1500 * time.Millisecond); return tick }
	res = c.Deliver(context.Background(), Target{URL: srv.URL}, "e", testPayload(t))
	if res.ElapsedSeconds != 1.5 {
		t.Errorf("ElapsedSeconds = %v, want 1.5", res.ElapsedSeconds)
	}
	body := string(rec.requests()[1].body)
	if !strings.Contains(body, `"timestamp": "2024-05-01T12:00:02Z"`) {
		t.Errorf("timestamp is not the start time: %s", body)
	}
}

func TestDeliverAllKeepsOrderAndRunsConcurrently(t *testing.T) {
	// The first endpoint answers only once the second has been hit: a
	// sequential DeliverAll would time it out.
	secondHit := make(chan struct{})
	var once sync.Once
	first := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-secondHit:
			w.WriteHeader(201)
		case <-r.Context().Done():
		}
	}))
	second := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() { close(secondHit) })
		w.WriteHeader(404)
	}))
	third := serve(t, &recorder{statuses: []int{500, 202}})
	targets := []Target{
		{Name: "first", URL: first.URL, Timeout: 5 * time.Second},
		{Name: "second", URL: second.URL},
		{Name: "third", URL: third.URL},
	}
	c := testClient()
	c.NewID = nil // real ids: each delivery gets its own

	results := DeliverAll(context.Background(), c, targets, "e", testPayload(t))

	want := []struct {
		name     string
		status   int
		attempts int
	}{{"first", 201, 1}, {"second", 404, 1}, {"third", 202, 2}}
	if len(results) != len(want) {
		t.Fatalf("got %d results, want %d", len(results), len(want))
	}
	ids := map[string]bool{}
	for i, w := range want {
		r := results[i]
		if r.Name != w.name || r.StatusCode != w.status || r.Attempts != w.attempts || r.Error != "" {
			t.Errorf("results[%d] = %+v, want %s status %d after %d attempts", i, r, w.name, w.status, w.attempts)
		}
		ids[r.DeliveryID] = true
	}
	if len(ids) != len(want) {
		t.Errorf("delivery ids are not distinct: %v", ids)
	}
	if got := DeliverAll(context.Background(), c, nil, "e", nil); len(got) != 0 {
		t.Errorf("DeliverAll with no targets = %v", got)
	}
}
