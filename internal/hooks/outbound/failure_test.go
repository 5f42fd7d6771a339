package outbound

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// guard fails the test if Deliver has not returned long after it should
// have; it only stops a broken build from hanging, it measures nothing.
const guard = 30 * time.Second

func deliverAsync(c *Client, ctx context.Context, t Target) <-chan Result {
	done := make(chan Result, 1)
	go func() { done <- c.Deliver(ctx, t, "e", nil) }()
	return done
}

func TestDeliverConnectionRefusedIsRetried(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there any more

	res := testClient().Deliver(context.Background(), Target{URL: url}, "e", testPayload(t))

	if res.Attempts != 2 || res.StatusCode != 0 {
		t.Errorf("Result = %+v, want 2 attempts and status 0", res)
	}
	if !strings.Contains(res.Error, "refused") || !strings.Contains(res.Error, url) {
		t.Errorf("Error = %q, want it to say the connection to %s was refused", res.Error, url)
	}
}

func TestDeliverTimeoutCutsSlowServer(t *testing.T) {
	release := make(chan struct{})
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	// Cleanups run last-in first-out: release the handlers, then close.
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })

	res := testClient().Deliver(context.Background(), Target{URL: srv.URL, Timeout: 50 * time.Millisecond}, "e", testPayload(t))

	if res.Attempts != 2 || res.StatusCode != 0 {
		t.Errorf("Result = %+v, want 2 attempts (a timeout is retried) and status 0", res)
	}
	if !strings.Contains(res.Error, "timeout") || !strings.Contains(res.Error, "50ms") {
		t.Errorf("Error = %q, want it to mention the 50ms timeout", res.Error)
	}
	if n := hits.Load(); n != 2 {
		t.Errorf("server was hit %d times, want 2", n)
	}
}

// cancelAfterResponse cancels the delivery's context as soon as the first
// response has arrived, i.e. just before the pause between attempts.
type cancelAfterResponse struct {
	cancel context.CancelFunc
}

func (c cancelAfterResponse) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	c.cancel()
	return resp, err
}

func TestDeliverCancelDuringRetryDelay(t *testing.T) {
	rec := &recorder{statuses: []int{500}}
	srv := serve(t, rec)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := testClient()
	c.RetryDelay = time.Hour // only cancellation can end the pause
	c.HTTP = &http.Client{Transport: cancelAfterResponse{cancel}}

	var res Result
	select {
	case res = <-deliverAsync(c, ctx, Target{URL: srv.URL}):
	case <-time.After(guard):
		t.Fatal("Deliver did not return after its context was cancelled during the retry delay")
	}

	if res.Attempts != 1 || res.StatusCode != 500 {
		t.Errorf("Result = %+v, want 1 attempt with status 500", res)
	}
	if !strings.Contains(res.Error, "cancelled") || !strings.Contains(res.Error, "context canceled") {
		t.Errorf("Error = %q, want it to say the retry was cancelled", res.Error)
	}
	if n := len(rec.requests()); n != 1 {
		t.Errorf("server was hit %d times, want 1", n)
	}
}

func TestDeliverCancelDuringAttempt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	release := make(chan struct{})
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		cancel() // the caller gives up while the endpoint is still working
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })

	var res Result
	select {
	case res = <-deliverAsync(testClient(), ctx, Target{URL: srv.URL}):
	case <-time.After(guard):
		t.Fatal("Deliver did not return after its context was cancelled")
	}

	if res.Attempts != 1 || res.StatusCode != 0 || !strings.Contains(res.Error, "cancelled") {
		t.Errorf("Result = %+v, want 1 attempt, no status, a cancellation error", res)
	}
	if n := hits.Load(); n != 1 {
		t.Errorf("server was hit %d times, want 1 (no retry after cancellation)", n)
	}
}

func TestDeliverAlreadyCancelled(t *testing.T) {
	rec := &recorder{statuses: []int{200}}
	srv := serve(t, rec)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()

	res := testClient().Deliver(ctx, Target{URL: srv.URL}, "e", testPayload(t))

	if res.Attempts != 0 || res.StatusCode != 0 || !strings.Contains(res.Error, "cancelled") {
		t.Errorf("Result = %+v, want no attempt and a cancellation error", res)
	}
	if n := len(rec.requests()); n != 0 {
		t.Errorf("server was hit %d times, want 0", n)
	}
}

func TestDeliverUnusableURL(t *testing.T) {
	res := testClient().Deliver(context.Background(), Target{Name: "bad", URL: "http://exa mple.test/\x7f"}, "e", testPayload(t))
	if res.Attempts != 0 || res.StatusCode != 0 || !strings.Contains(res.Error, `webhook "bad" has an unusable url`) {
		t.Errorf("Result = %+v, want no attempt and an error naming the webhook", res)
	}
}

func TestDeliverDoesNotDownloadHugeResponse(t *testing.T) {
	// The endpoint streams until the client hangs up; Deliver must read
	// only a little of it and return.
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
		chunk := []byte(strings.Repeat("x", 32<<10))
		for {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // lets the server close even when the test fails
	var res Result
	select {
	// No per-attempt timeout to hide behind: only the read cap ends it.
	case res = <-deliverAsync(testClient(), ctx, Target{URL: srv.URL, Timeout: time.Hour}):
	case <-time.After(guard):
		cancel()
		t.Fatal("Deliver kept reading an endless response")
	}
	if res.StatusCode != 200 || res.Attempts != 1 || res.Error != "" {
		t.Errorf("Result = %+v, want status 200 after 1 attempt", res)
	}
}
