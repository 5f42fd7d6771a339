package outbound

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

func mustObject(t *testing.T, text string) *pyjson.Object {
	t.Helper()
	obj, err := pyjson.DecodeObject([]byte(text))
	if err != nil {
		t.Fatalf("decode %s: %v", text, err)
	}
	return obj
}

func TestBody(t *testing.T) {
	ts := time.Date(2024, 5, 1, 12, 30, 45, 123456789, time.UTC)
	tests := []struct {
		name    string
		payload string
		want    string
	}{
		{
			name: "wire payload keeps its key order, our keys go last",
			payload: `{"hook_event_name": "post_tool_call", "tool_name": "terminal", "tool_input": {"z": 1, "a": [true, null]},
				"session_id": "s1", "cwd": "/tmp", "profile": "default", "extra": {"task_id": "t"}}`,
			want: `{"hook_event_name": "post_tool_call", "tool_name": "terminal", "tool_input": {"z": 1, "a": [true, null]}, ` +
				`"session_id": "s1", "cwd": "/tmp", "profile": "default", "extra": {"task_id": "t"}, ` +
				`"delivery_id": "0123abcd", "timestamp": "2024-05-01T12:30:45.123456Z"}`,
		},
		{
			name:    "non-ASCII is written as UTF-8, not escaped",
			payload: `{"cwd": "/home/zoé/日本", "note": "tab\there"}`,
			want:    `{"cwd": "/home/zoé/日本", "note": "tab\there", "delivery_id": "0123abcd", "timestamp": "2024-05-01T12:30:45.123456Z"}`,
		},
		{
			name:    "stale delivery_id and timestamp of a replayed payload are replaced and moved last",
			payload: `{"delivery_id": "old", "timestamp": "then", "session_id": "s"}`,
			want:    `{"session_id": "s", "delivery_id": "0123abcd", "timestamp": "2024-05-01T12:30:45.123456Z"}`,
		},
		{
			name:    "empty payload",
			payload: `{}`,
			want:    `{"delivery_id": "0123abcd", "timestamp": "2024-05-01T12:30:45.123456Z"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			payload := mustObject(t, tt.payload)
			before := payload.String()
			got := string(Body(payload, "0123abcd", ts))
			if got != tt.want {
				t.Errorf("Body =\n%s\nwant\n%s", got, tt.want)
			}
			if payload.String() != before {
				t.Errorf("Body modified the payload: %s, was %s", payload, before)
			}
		})
	}
}

func TestBodyNilPayload(t *testing.T) {
	got := string(Body(nil, "id", time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)))
	want := `{"delivery_id": "id", "timestamp": "2024-01-02T03:04:05Z"}`
	if got != want {
		t.Errorf("Body(nil) = %s, want %s", got, want)
	}
}

func TestTimestamp(t *testing.T) {
	paris := time.FixedZone("CEST", 2*60*60)
	tests := []struct {
		name string
		in   time.Time
		want string
	}{
		{"microseconds kept", time.Date(2024, 5, 1, 12, 0, 0, 123456000, time.UTC), "2024-05-01T12:00:00.123456Z"},
		{"nanoseconds truncated, not rounded", time.Date(2024, 5, 1, 12, 0, 0, 999999999, time.UTC), "2024-05-01T12:00:00.999999Z"},
		{"leading zeros of the fraction kept", time.Date(2024, 5, 1, 12, 0, 0, 1000, time.UTC), "2024-05-01T12:00:00.000001Z"},
		{"no fraction when below a microsecond", time.Date(2024, 5, 1, 12, 0, 0, 999, time.UTC), "2024-05-01T12:00:00Z"},
		{"other zones converted to UTC", time.Date(2024, 5, 1, 14, 0, 0, 0, paris), "2024-05-01T12:00:00Z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Timestamp(tt.in); got != tt.want {
				t.Errorf("Timestamp = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestSign(t *testing.T) {
	tests := []struct {
		name, secret, body, want string
	}{
		// The well-known HMAC-SHA256 example (Wikipedia, "HMAC").
		{"known vector", "key", "The quick brown fox jumps over the lazy dog",
			"sha256=f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8"},
		// RFC 4231 test case 2.
		{"RFC 4231 case 2", "Jefe", "what do ya want for nothing?",
			"sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Sign(tt.secret, []byte(tt.body)); got != tt.want {
				t.Errorf("Sign = %s, want %s", got, tt.want)
			}
		})
	}
}

// verifySignature checks a header value the way a receiver would.
func verifySignature(secret string, body []byte, header string) bool {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	want := "sha256=" + hex.EncodeToString(mac.Sum(nil))
	return hmac.Equal([]byte(header), []byte(want))
}
