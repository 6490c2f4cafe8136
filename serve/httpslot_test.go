package serve

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestHTTPSlotNotFooledByKeyCase: a request the SDK serves as a tools/call holds a request slot
// while it is served, whatever other members it carries. The guard reads "method" with
// encoding/json, which matches member names case-insensitively (and keeps the last of several),
// while the SDK's decoder is case-sensitive: a body with "method":"tools/call" and a later
// "Method":"subscriptions/listen" is a listen stream to the guard (its slot given back) and a tool
// call to the SDK. Such a body (a case variant or a second "method", "jsonrpc" or "id") is refused
// with 400; any other holds its slot.
func TestHTTPSlotNotFooledByKeyCase(t *testing.T) {
	for _, suffix := range []string{"", `,"Method":"subscriptions/listen"`, `,"METHOD":"subscriptions/listen"`,
		`,"method":"subscriptions/listen"`, `,"mEthod":"subscriptions/listen","method":"tools/call"`, `,"Jsonrpc":"2.0"`, `,"ID":2`} {
		t.Run(suffix, func(t *testing.T) { slotCase(t, suffix) })
	}
}

func slotCase(t *testing.T, suffix string) {
	entered := make(chan struct{}, 4)
	unblock := make(chan struct{})
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if strings.Contains(string(b), `"method":"tools/call"`) {
			entered <- struct{}{}
			<-unblock // a tool call still being answered
		}
		w.WriteHeader(200)
	})
	srv := httptest.NewServer(guard(next, HTTPOptions{limits: httpLimits{inflight: 1}}))
	defer srv.Close()
	defer close(unblock)
	disguised := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":"x"}}` + suffix + `}`
	status := make(chan int, 1)
	go func() {
		res, err := http.Post(srv.URL+Path, "application/json", strings.NewReader(disguised))
		if err != nil {
			status <- 0
			return
		}
		res.Body.Close()
		status <- res.StatusCode
	}()
	select {
	case <-entered:
	case code := <-status:
		if suffix == "" || code != http.StatusBadRequest {
			t.Fatalf("the tool call answered %d without reaching the handler", code)
		}
		return // refused: read two ways, it is served neither
	case <-time.After(10 * time.Second):
		t.Fatal("the disguised tool call never reached the handler")
	}
	if suffix != "" {
		t.Errorf("a body whose members can be read two ways was served")
	}
	res, err := http.Post(srv.URL+Path, "application/json", strings.NewReader(initBody))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a second request while a tool call is in progress, with one slot: %d, want 503 (the tool call holds no slot)", res.StatusCode)
	}
}

// TestStdioAmbiguousKeysRefused: over stdio too, a message whose JSON-RPC members can be read two
// ways (a case variant, a repeat) is answered with an invalid-request error, not served.
func TestStdioAmbiguousKeysRefused(t *testing.T) {
	s, _ := newServer(t, "testdata/bundle", 0)
	for _, extra := range []string{`,"Method":"subscriptions/listen"`, `,"id":3`, `,"JSONRPC":"2.0"`} {
		in := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":"x"}}` + extra + "}\n"
		var out strings.Builder
		if err := s.ServeStdio(context.Background(), strings.NewReader(in), &out, nil); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), `"code":-32600`) || strings.Contains(out.String(), `"id":1`) {
			t.Errorf("%s: %.500s", extra, out.String())
		}
	}
}
