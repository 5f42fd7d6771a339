// Package outbound owns the delivery of outbound webhooks (SPEC §11): the
// body sent (the wire payload plus delivery_id and timestamp), its
// HMAC-SHA256 signature, the headers, and the retry policy (two attempts,
// connection errors and 5xx retried, redirects never followed).
//
// Parsing the hooks.outbound config list is not done here: internal/hooks
// turns it into Targets and calls Deliver or DeliverAll. This package does
// not import internal/hooks, so it can be tested against real HTTP servers
// on its own. A webhook only notifies: nothing returned here changes a
// hook's outcome, so failures are reported in Result, never as errors.
package outbound
