package outbound

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// Body is what a webhook receives: the wire payload (SPEC §6), keys in their
// order, followed by "delivery_id" and "timestamp", written the way Python's
// json.dumps does so receivers see the same bytes the agent would send. The
// payload is not modified.
func Body(payload *pyjson.Object, deliveryID string, ts time.Time) []byte {
	obj := payload.Clone()
	// Deleting first keeps our two keys last even if a replayed payload
	// already carried them; the values are always this delivery's.
	obj.Delete("delivery_id")
	obj.Delete("timestamp")
	obj.Set("delivery_id", deliveryID)
	obj.Set("timestamp", Timestamp(ts))
	return pyjson.Marshal(obj, pyjson.Options{})
}

// Timestamp writes t as the agent stamps its webhook bodies (SPEC §14):
// UTC ISO-8601 with a Z suffix, microseconds (truncated, as datetime.now()
// gives them) only when not zero: "2024-05-01T12:00:00.123456Z".
func Timestamp(t time.Time) string {
	t = t.UTC()
	if t.Nanosecond()/1000 == 0 {
		return t.Format("2006-01-02T15:04:05Z")
	}
	return t.Format("2006-01-02T15:04:05.000000Z")
}

// Sign returns the X-Hermes-Signature-256 header value for body:
// "sha256=" and the hex HMAC-SHA256 of the exact bytes, keyed by secret.
func Sign(secret string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}
