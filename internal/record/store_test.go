package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

func TestRedact(t *testing.T) {
	secrets := EnvSecrets([]string{"API_TOKEN=tok-123456", "DB_PASSWORD=hunter2hunter2", "SHORT_KEY=abc", "HOME=/home/u", "GH_TOKEN=tok-123"})
	for _, tc := range []struct{ in, want string }{
		{`{"tool_input": {"command": "curl -H tok-123456 x"}}`, `{"tool_input": {"command": "curl -H *** x"}}`},
		// The longer value is masked whole before the shorter one inside it.
		{`{"a": "tok-1234567"}`, `{"a": "***7"}`},
		{`{"a": "tok-123"}`, `{"a": "***"}`},
		// Short values are not secrets worth masking; ordinary variables are not secrets.
		{`{"a": "abc /home/u"}`, `{"a": "abc /home/u"}`},
		// Secret-named keys at any depth, whatever they hold.
		{`{"x": [{"headers": {"Authorization": "Bearer q", "X-Api-Key": {"v": 1}}}], "n": 1.50}`,
			`{"x": [{"headers": {"Authorization": "***", "X-Api-Key": "***"}}], "n": 1.50}`},
		{`{"tok-123456": 1}`, `{"***": 1}`},
		{`{"a": 9tok}`, `{"a": 9tok}`}, // not JSON: masked as bytes, nothing to mask
		{`not json tok-123456 "hunter2hunter2"`, `not json *** "***"`},
	} {
		if got := string(Redact([]byte(tc.in), secrets)); got != tc.want {
			t.Errorf("Redact(%s)\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
	// A value that JSON escapes is found in its decoded form.
	quoted := EnvSecrets([]string{"MY_SECRET=a\"b\\c"})
	if got := string(Redact([]byte(`{"c": "x a\"b\\c y"}`), quoted)); got != `{"c": "x *** y"}` {
		t.Errorf("escaped secret: got %s", got)
	}
	if got := string(Redact([]byte(`garbage a\"b\\c`), quoted)); strings.Contains(got, `a\"b\\c`) {
		t.Errorf("escaped secret in a payload that is not JSON: got %s", got)
	}
}

// The attacker's test: secrets planted in the environment and in nested
// secret-named keys never reach any file of the store.
func TestNoSecretInAnyStoredFile(t *testing.T) {
	planted := map[string]string{
		"ANTHROPIC_API_KEY":  "sk-ant-planted-0001",
		"GITHUB_TOKEN":       "ghp_planted_0002",
		"PGPASSWORD":         "planted-pg-0003",
		"MY_CLIENT_SECRET":   "planted-secret-0004",
		"SOME_PASSPHRASE":    "planted pass phrase 0005",
		"DEPLOY_KEY_CONTENT": "-----BEGIN planted 0006",
	}
	for k, v := range planted {
		t.Setenv(k, v)
	}
	keyed := []string{"planted-key-value-0007", "planted-cookie-0008", "planted-cred-0009", "planted-bearer-0010"}
	secrets := EnvSecrets(os.Environ())
	home := t.TempDir()
	st := Open(home, DefaultMax)
	payloads := []string{
		fmt.Sprintf(`{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "curl -H 'Authorization: Bearer %s' https://api.github.com"}, "session_id": "", "cwd": "/w", "profile": "", "extra": {}}`, planted["GITHUB_TOKEN"]),
		fmt.Sprintf(`{"hook_event_name": "pre_tool_call", "tool_name": "write_file", "tool_input": {"path": ".env", "content": "ANTHROPIC_API_KEY=%s\nPG=%s\n"}, "extra": {"task_id": "t"}}`, planted["ANTHROPIC_API_KEY"], planted["PGPASSWORD"]),
		fmt.Sprintf(`{"tool_name": "browser_cdp", "tool_input": {"params": {"headers": {"Cookie": %q, "x": [{"deep": {"aws_credentials": {"id": %q}}}]}, "api_key": %q}, "Authorization": %q}}`, keyed[1], keyed[2], keyed[0], keyed[3]),
		fmt.Sprintf(`{"tool_input": {"command": "echo %s; echo %s; echo '%s'"}}`, planted["MY_CLIENT_SECRET"], planted["SOME_PASSPHRASE"], planted["DEPLOY_KEY_CONTENT"]),
		// Over 1 MiB: kept cut, and redacted before the cut.
		fmt.Sprintf(`{"tool_input": {"content": "%s %s"}, "extra": {"token": %q}}`, strings.Repeat("x", MaxPayload), planted["GITHUB_TOKEN"], keyed[0]),
		// Not JSON at all.
		"garbage " + planted["PGPASSWORD"] + " " + strings.ReplaceAll(planted["SOME_PASSPHRASE"], " ", "\\u0020"),
	}
	for _, p := range payloads {
		if err := st.Save(NewID(), []byte(p), secrets); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	filepath.WalkDir(filepath.Join(home, "logs"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		data, _ := os.ReadFile(path)
		for name, v := range planted {
			if bytes.Contains(data, []byte(v)) {
				t.Errorf("%s holds the value of %s", path, name)
			}
		}
		for _, v := range keyed {
			if bytes.Contains(data, []byte(v)) {
				t.Errorf("%s holds the value of a secret-named key: %s", path, v)
			}
		}
		return nil
	})
	if n < len(payloads) {
		t.Fatalf("found %d files, want at least %d", n, len(payloads))
	}
	// The escaped spelling of a passphrase was not JSON-decoded, so only
	// its raw form counts there: the raw passphrase was checked above.
}

func TestStoredFile(t *testing.T) {
	home := t.TempDir()
	st := Open(home, DefaultMax)
	id := NewID()
	wire := `{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "ls — ünïcode"}, "n": 1.0}`
	if err := st.Save(id, []byte(wire), Secrets{}); err != nil {
		t.Fatal(err)
	}
	got, err := st.Read(id)
	if err != nil || string(got) != wire {
		t.Fatalf("Read = %s, %v; want the wire bytes %s", got, err, wire)
	}
	for _, p := range []string{st.Path(id), st.Dir} {
		fi, _ := os.Stat(p)
		if want := map[bool]os.FileMode{false: 0o600, true: 0o700}[fi.IsDir()]; fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", p, fi.Mode().Perm(), want)
		}
	}
	if _, err := st.Read("../config"); err == nil {
		t.Error("Read of a name that is not an id succeeded")
	}
	if err := st.Put("../../x", []byte("{}")); err == nil {
		t.Error("Put of a name that is not an id succeeded")
	}

	// Over 1 MiB: the marker, with the first 1 MiB on a character boundary.
	big := `{"c": "` + strings.Repeat("é", MaxPayload) + `"}`
	id2 := NewID()
	if err := st.Save(id2, []byte(big), Secrets{}); err != nil {
		t.Fatal(err)
	}
	data, _ := st.Read(id2)
	var cut struct {
		Truncated bool   `json:"truncated"`
		Bytes     int    `json:"bytes"`
		Head      string `json:"head"`
	}
	if err := json.Unmarshal(data, &cut); err != nil {
		t.Fatal(err)
	}
	if !cut.Truncated || cut.Bytes != len(big) || len(cut.Head) > MaxPayload || len(cut.Head) < MaxPayload-3 || !strings.HasPrefix(big, cut.Head) {
		t.Errorf("cut payload: truncated %t, bytes %d (want %d), head %d bytes", cut.Truncated, cut.Bytes, len(big), len(cut.Head))
	}
}

// The bound holds with 16 writers at once, the oldest payloads go first,
// and no write is lost to another's eviction.
func TestBoundUnderParallelWriters(t *testing.T) {
	home := t.TempDir()
	const max = 64 << 10
	st := Open(home, max)
	payload := func(i int) []byte {
		return pyjson.Marshal(pyjson.NewObject().Set("i", i).Set("pad", strings.Repeat("p", 900)), pyjson.Options{})
	}
	// The first, oldest payloads, written before the rush.
	var first []string
	for i := 0; i < 4; i++ {
		id := NewID()
		first = append(first, id)
		if err := st.Put(id, payload(i)); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16*50)
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if err := st.Put(NewID(), payload(i)); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	files, total, err := st.Usage()
	if err != nil {
		t.Fatal(err)
	}
	if total > max {
		t.Errorf("the store holds %d bytes, over its bound %d", total, max)
	}
	if total < max/2 || files == 0 {
		t.Errorf("the store holds %d bytes in %d files: eviction removed far too much", total, files)
	}
	for _, id := range first {
		if _, err := os.Stat(st.Path(id)); err == nil {
			t.Errorf("the oldest payload %s was kept while newer ones were removed", id)
		}
	}
	if n, ok := st.readSize(); !ok || n != total {
		t.Errorf("the kept count says %d (%t), the folder holds %d", n, ok, total)
	}
	left, _ := filepath.Glob(filepath.Join(st.Dir, ".tmp-*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// A count that is lost or wrong (a crash, a user deleting files) is
// recounted, never trusted past the bound.
func TestLostCountIsRecounted(t *testing.T) {
	home := t.TempDir()
	st := Open(home, 10<<10)
	for i := 0; i < 5; i++ {
		st.Put(NewID(), bytes.Repeat([]byte("a"), 1000))
	}
	os.WriteFile(filepath.Join(st.Dir, sizeName), []byte("garbage"), 0o600)
	for i := 0; i < 10; i++ {
		st.Put(NewID(), bytes.Repeat([]byte("b"), 1000))
	}
	if _, total, _ := st.Usage(); total > 10<<10 {
		t.Errorf("store holds %d bytes, bound %d", total, 10<<10)
	}
}
