package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// modernMeta is the _meta a 2026-07-28 request carries in place of a handshake.
const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}`

// answers runs a stdio session over lines, all written before the server reads any (as when the
// bundle takes longer to load than the client's probe waits), and returns each response by id.
func answers(t *testing.T, lines ...string) map[string]map[string]json.RawMessage {
	t.Helper()
	_, out := serveLines(t, strings.NewReader(strings.Join(lines, "\n")+"\n"))
	got := map[string]map[string]json.RawMessage{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(line), &m) != nil {
			t.Fatalf("not JSON: %s", line)
		}
		if id, ok := m["id"]; ok {
			got[string(id)] = m
		}
	}
	return got
}

func wantResult(t *testing.T, got map[string]map[string]json.RawMessage, id, contains string) {
	t.Helper()
	m, ok := got[id]
	if !ok {
		t.Fatalf("no answer to id %s (answers: %v)", id, got)
	}
	if _, isErr := m["error"]; isErr {
		t.Fatalf("id %s: error %s, want a result", id, m["error"])
	}
	if !strings.Contains(string(m["result"]), contains) {
		t.Fatalf("id %s: result %.400s, want it to hold %s", id, m["result"], contains)
	}
}

func wantError(t *testing.T, got map[string]map[string]json.RawMessage, id string, code int) string {
	t.Helper()
	m, ok := got[id]
	if !ok {
		t.Fatalf("no answer to id %s (answers: %v)", id, got)
	}
	var e struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal(m["error"], &e); err != nil || e.Code != code {
		t.Fatalf("id %s: %s, want error %d", id, m["error"], code)
	}
	return e.Message
}

// TestStdioDiscoverThenInitialize: a client that probes with server/discover and, having had no
// answer in time (the bundle still loading), falls back to initialize on the same pipe gets both
// answered, and the session then speaks the era of its handshake; the SDK alone refused the
// initialize with code 0, `duplicate "initialize" received`.
func TestStdioDiscoverThenInitialize(t *testing.T) {
	got := answers(t,
		`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{`+modernMeta+`}}`,
		`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search","arguments":{"query":"cache"},`+modernMeta+`}}`,
		`{"jsonrpc":"2.0","id":5,"method":"ping"}`,
	)
	wantResult(t, got, "1", `"supportedVersions"`)
	wantResult(t, got, "2", `"protocolVersion":"2025-11-25"`)
	wantResult(t, got, "3", `"name":"search"`)
	wantResult(t, got, "4", `"hits"`)
	wantResult(t, got, "5", `{}`)
}

// TestStdioInitializeThenDiscover: the other order on one pipe.
func TestStdioInitializeThenDiscover(t *testing.T) {
	got := answers(t,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{`+modernMeta+`}}`,
		`{"jsonrpc":"2.0","id":3,"method":"resources/list"}`,
		`{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
	)
	wantResult(t, got, "1", `"protocolVersion":"2025-06-18"`)
	wantResult(t, got, "2", `"supportedVersions"`)
	wantResult(t, got, "3", `"resources"`)
	// A second initialize of the same era is still refused, in the protocol's words.
	if msg := wantError(t, got, "4", -32600); strings.Contains(msg, `"initialize" received`) {
		t.Errorf("message %q", msg)
	}
}

// TestUndeclaredMethodsNotFound: a method of a capability the server does not declare is
// method-not-found, in both eras and over both transports; the SDK answered prompts/list with an
// empty list and logging/setLevel with {}.
func TestUndeclaredMethodsNotFound(t *testing.T) {
	got := answers(t,
		initLine,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"prompts/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"info"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"prompts/get","params":{"name":"x"}}`,
		`{"jsonrpc":"2.0","id":5,"method":"prompts/list","params":{`+modernMeta+`}}`,
		`{"jsonrpc":"2.0","id":6,"method":"resources/subscribe","params":{"uri":"okf://index"}}`,
	)
	// Subscriptions are declared over stdio (a session stream carries the updates).
	wantResult(t, got, "6", "{}")
	for _, id := range []string{"2", "3", "4", "5"} {
		wantError(t, got, id, -32601)
	}
	s, _ := newServer(t, "testdata/bundle", 0)
	hs := httptest.NewServer(s.Handler(HTTPOptions{}))
	defer hs.Close()
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"prompts/list","params":{` + modernMeta + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"info","_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}}`,
		// Stateless HTTP has no session stream to send resource updates on: not declared there.
		`{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"okf://index"}}`,
	} {
		_, out := postJSON(t, hs.URL+Path, body)
		if !strings.Contains(out, `"code":-32601`) {
			t.Errorf("%s over HTTP: %s, want method not found", body, out)
		}
	}
}

// postJSON posts one JSON-RPC message as a legacy client does (no session) and returns the status
// and body.
func postJSON(t *testing.T, url, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	v := "2025-11-25"
	if strings.Contains(body, "2026-07-28") {
		v = "2026-07-28"
	}
	req.Header.Set("MCP-Protocol-Version", v)
	var m struct{ Method string }
	if json.Unmarshal([]byte(body), &m) == nil && v == "2026-07-28" {
		req.Header.Set("Mcp-Method", m.Method)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestNullIDRefused: a request with "id": null is invalid-request (-32600, null id) on every
// transport; the SDK took it for a notification and answered nothing (stdio) or named it a
// missing id in plain text (HTTP).
func TestNullIDRefused(t *testing.T) {
	got := answers(t, initLine, `{"jsonrpc":"2.0","id":null,"method":"tools/list"}`)
	wantError(t, got, "null", -32600)
	s, _ := newServer(t, "testdata/bundle", 0)
	hs := httptest.NewServer(s.Handler(HTTPOptions{}))
	defer hs.Close()
	code, out := postJSON(t, hs.URL+Path, `{"jsonrpc":"2.0","id":null,"method":"tools/list"}`)
	var m struct {
		ID    json.RawMessage    `json:"id"`
		Error struct{ Code int } `json:"error"`
	}
	if code != 400 || json.Unmarshal([]byte(out), &m) != nil || string(m.ID) != "null" || m.Error.Code != -32600 {
		t.Errorf("over HTTP: %d %s, want 400 and a JSON-RPC error -32600 with a null id", code, out)
	}
}

// goWords are what an error in Go's words shows: a Go type, the decoder's phrasing.
var goWords = regexp.MustCompile(`mcp\.|serve\.|Go struct|Go value|unmarshal|interface \{\}|\*mcp|map\[`)

// TestErrorsInProtocolWords: params or arguments of the wrong shape are answered in JSON's terms
// (the member, the type it must have), never Go's, and the request is not echoed; an argument out of
// range is refused with the range, not clamped.
func TestErrorsInProtocolWords(t *testing.T) {
	got := answers(t,
		initLine,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":5,"SECRET":1}}`,
		`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":["SECRET"]}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/list","params":"SECRET"}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search","arguments":{"query":"x","k":1e20}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"search","arguments":{"query":"x","k":1000}}}`,
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search","arguments":["SECRET"]}}`,
		`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"read","arguments":{"id":"x","max_words":"SECRET"}}}`,
		`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"search","arguments":{"query":"x","min_tier":"gold"}}}`,
		`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"read","arguments":{"id":"x","offset":-1}}}`,
	)
	for id, want := range map[string]string{"2": "params.name must be a string", "3": "params.uri must be a string", "4": "params must be an object"} {
		msg := wantError(t, got, id, -32602)
		if !strings.Contains(msg, want) || goWords.MatchString(msg) || strings.Contains(msg, "SECRET") {
			t.Errorf("id %s: %q, want %q in JSON's words, nothing echoed", id, msg, want)
		}
	}
	for id, want := range map[string]string{
		"5": "k must be from 1 to 50", "6": "k must be from 1 to 50, got 1000", "7": "arguments must be a JSON object",
		"8": "max_words must be an integer, got a string", "9": "min_tier must be one of unverified, machine-confirmed, human-reviewed",
		"10": "offset must be 0 or more, got -1",
	} {
		var r struct {
			Result struct {
				IsError bool
				Content []struct{ Text string }
			}
		}
		raw, _ := json.Marshal(got[id])
		json.Unmarshal(raw, &r)
		if !r.Result.IsError || len(r.Result.Content) == 0 || !strings.Contains(r.Result.Content[0].Text, want) || goWords.MatchString(r.Result.Content[0].Text) {
			t.Errorf("id %s: %s, want a tool error saying %q", id, raw, want)
		}
	}
	// A refused argument in the 2026-07-28 era is a complete result, as every result of that era.
	modernGot := answers(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"k":0},`+modernMeta+`}}`)
	wantResult(t, modernGot, "1", `"resultType":"complete"`)
	s, _ := newServer(t, "testdata/bundle", 0)
	hs := httptest.NewServer(s.Handler(HTTPOptions{}))
	defer hs.Close()
	for _, body := range []string{`not json SECRET`, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":7,"SECRET":1}}`, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":"SECRET"}`} {
		_, out := postJSON(t, hs.URL+Path, body)
		if strings.Contains(out, "SECRET") || goWords.MatchString(out) {
			t.Errorf("over HTTP, %s: answered %s", body, out)
		}
	}
}

// TestStdioPipeNotifies: over a real stdio pipe (the era router), a client of either era gets
// notifications/resources/list_changed after a reload (2026-07-28 on its subscriptions/listen
// stream), and the Go SDK's client negotiates the era it asked for.
func TestStdioPipeNotifies(t *testing.T) {
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			dir := copyBundle(t)
			s, _ := newServer(t, dir, 0)
			cr, sw := io.Pipe()
			sr, cw := io.Pipe()
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- s.ServeStdio(ctx, sr, sw, nil) }()
			defer func() { cancel(); cw.Close(); <-done }()
			c := connect(t, &mcp.IOTransport{Reader: cr, Writer: cw}, era)
			var out SearchOut
			call(t, c, "search", map[string]any{"query": "cache"}, &out)
			if len(out.Hits) == 0 {
				t.Fatal("no hits")
			}
			// The 2026-07-28 client's listen stream may open after connect returns: reload until
			// the notification comes (at most 10 s).
			deadline := time.Now().Add(10 * time.Second)
			for n := 0; ; n++ {
				if err := os.WriteFile(filepath.Join(dir, "caching", fmt.Sprintf("more%d.md", n)), []byte("---\ntype: Concept\ntitle: More\n---\nmore\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := s.Reload(); err != nil {
					t.Fatal(err)
				}
				select {
				case <-c.listChanged:
					return
				case <-time.After(100 * time.Millisecond):
				}
				if time.Now().After(deadline) {
					t.Fatal("no notifications/resources/list_changed over the pipe")
				}
			}
		})
	}
}

// TestStdioRequestBeforeInitialize: a request of the handshake era before initialize is
// invalid-request (-32600), saying how a session starts; the SDK refused it with code 0.
func TestStdioRequestBeforeInitialize(t *testing.T) {
	got := answers(t,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"ping"}`,
		initLine[:len(`{"jsonrpc":"2.0","id":`)]+`3`+initLine[len(`{"jsonrpc":"2.0","id":1`):],
		`{"jsonrpc":"2.0","id":4,"method":"tools/list"}`,
	)
	if msg := wantError(t, got, "1", -32600); !strings.Contains(msg, "before initialize") {
		t.Errorf("message %q", msg)
	}
	wantResult(t, got, "2", "{}")
	wantResult(t, got, "3", `"protocolVersion"`)
	wantResult(t, got, "4", `"tools"`)
}
