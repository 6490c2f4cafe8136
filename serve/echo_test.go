package serve

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestErrorEchoesClipped: an error echoes the client's input (okf's "no concept %q", a min_tier
// that is not a tier; the SDK's unknown tool, a value its schema check refused, a URI not found in
// the error's data, a method it does not know), which may be most of a 1 MiB request: every such
// answer is at most a few KiB, with no bidi control of the client's raw in it.
func TestErrorEchoesClipped(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "c.md"), []byte("---\ntype: Concept\ntitle: T\n---\nbody\n"), 0o644)
	s, _ := newServer(t, dir, 0)
	long := strings.Repeat("\u202eA", 100000)
	reqs := []string{
		fmt.Sprintf(`"method":"tools/call","params":{"name":"search","arguments":{"query":"x","min_tier":%q}}`, long),
		fmt.Sprintf(`"method":"tools/call","params":{"name":"search","arguments":{"query":"x","k":%q}}`, long),
		fmt.Sprintf(`"method":"tools/call","params":{"name":%q,"arguments":{}}`, long),
		fmt.Sprintf(`"method":"tools/call","params":{"name":"read","arguments":{"id":%q}}`, long),
		fmt.Sprintf(`"method":"tools/call","params":{"name":"browse","arguments":{"dir":%q}}`, long),
		fmt.Sprintf(`"method":"resources/read","params":{"uri":%q}`, "okf://"+long),
		fmt.Sprintf(`"method":%q,"params":{}`, long),
	}
	got := wire(t, s, reqs...)
	for i := range reqs {
		a := got[i+1]
		if i == len(reqs)-1 && a == "" {
			continue // refused by okf, with a null id (its id is not read): not in got
		}
		if len(a) > 4<<10 || strings.Contains(a, "\u202e") || !strings.Contains(strings.ToLower(a), "error") {
			t.Errorf("request %d: an answer of %d bytes: %.200q", i+1, len(a), a)
		}
	}
	// The search tool's own min_tier check, as the stdio and HTTP schema checks never reach it.
	if _, _, err := s.search(context.Background(), nil, SearchIn{Query: "x", MinTier: long}); err == nil || len(err.Error()) > 1<<10 {
		t.Errorf("min_tier error %.200q", err)
	}
}

// TestHTTPLongMethodRefused: over HTTP, a method name longer than any of MCP's is refused before
// the SDK, whose "method not found" would echo it whole.
func TestHTTPLongMethodRefused(t *testing.T) {
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { t.Error("the request reached the SDK") })
	srv := httptest.NewServer(guard(next, HTTPOptions{}))
	defer srv.Close()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q}`, strings.Repeat("x", 500000))
	res, err := http.Post(srv.URL+Path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest || len(b) > 1<<10 {
		t.Errorf("%d, %.200q", res.StatusCode, b)
	}
}
