package serve

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// startHTTP runs s.ServeHTTP, the way okf serve --http does, on a free loopback port.
func startHTTP(t *testing.T, s *Server, o HTTPOptions) (addr string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- s.ServeHTTP(ctx, "127.0.0.1:0", o, func(u string) { ready <- u }) }()
	select {
	case u := <-ready:
		t.Cleanup(func() { cancel(); <-done })
		return strings.TrimSuffix(strings.TrimPrefix(u, "http://"), Path)
	case err := <-done:
		cancel()
		t.Fatal(err)
	}
	return ""
}

// dial opens a raw connection to addr; every read on it fails after 10s (the test's own guard:
// the server under test must act well before).
func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(10 * time.Second))
	t.Cleanup(func() { c.Close() })
	return c
}

// closedAfter reads what the server sends on c until it closes the connection, and returns it; it
// fails if the server does not close it (the 10s guard of dial).
func closedAfter(t *testing.T, c net.Conn, what string) string {
	t.Helper()
	b, err := io.ReadAll(c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("%s: the server kept the connection open (read %d bytes: %.100q)", what, len(b), b)
	}
	return string(b)
}

const mcpHeaders = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"

// TestHTTPRefusedBeforeBody: a request without the token (or from a foreign origin) is refused on
// its headers: the answer comes before any of its body is sent, and the connection is closed
// without reading it, however long the body says it is.
func TestHTTPRefusedBeforeBody(t *testing.T) {
	s, _ := newServer(t, "testdata/bundle", 0)
	addr := startHTTP(t, s, HTTPOptions{Token: "s3cret"})
	for _, tc := range []struct{ name, headers, want string }{
		{"no token, chunked body", "Transfer-Encoding: chunked\r\n", "401"},
		{"no token, 1 GiB body", "Content-Length: 1073741824\r\n", "401"},
		{"wrong token, chunked body", "Authorization: Bearer nope\r\nTransfer-Encoding: chunked\r\n", "401"},
		{"foreign origin, chunked body", "Authorization: Bearer s3cret\r\nOrigin: http://evil.example\r\nTransfer-Encoding: chunked\r\n", "403"},
		{"100 KiB of headers", "X-Pad: " + strings.Repeat("a", 100<<10) + "\r\nTransfer-Encoding: chunked\r\n", "431"},
	} {
		c := dial(t, addr)
		fmt.Fprint(c, mcpHeaders+tc.headers+"\r\n")
		got := closedAfter(t, c, tc.name)
		if !strings.HasPrefix(got, "HTTP/1.1 "+tc.want+" ") {
			t.Errorf("%s: answered %.100q, want %s", tc.name, got, tc.want)
		}
	}
}

// TestHTTPBatchRefused: a JSON-RPC batch is refused over HTTP whatever protocol version it claims
// (the SDK serves batches to versions before 2025-06-18): one request of 1 MiB could otherwise ask
// for thousands of answers of 256 KiB at once.
func TestHTTPBatchRefused(t *testing.T) {
	s, _ := newServer(t, "testdata/bundle", 0)
	addr := startHTTP(t, s, HTTPOptions{})
	call := `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"read","arguments":{"id":"glossary"}}}`
	batch := "[" + fmt.Sprintf(call, 1) + "," + fmt.Sprintf(call, 2) + "]"
	for _, version := range []string{"", "2025-03-26", "2024-11-05"} {
		req, _ := http.NewRequest("POST", "http://"+addr+Path, strings.NewReader(" \n"+batch))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if version != "" {
			req.Header.Set("Mcp-Protocol-Version", version)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 400 || !strings.Contains(string(body), "batch") {
			t.Errorf("batch (version %q): %d %.200q, want 400 refusing batches", version, res.StatusCode, body)
		}
	}
	// One message a request is served.
	if got := post(t, "http://"+addr+Path, nil); got != 200 {
		t.Errorf("initialize: %d", got)
	}
}

// TestHTTPTimeouts: a client that sends its headers or its body too slowly, or leaves a connection
// idle, or does not read what it asked for, has its connection closed.
func TestHTTPTimeouts(t *testing.T) {
	dir := copyBundle(t)
	os.WriteFile(filepath.Join(dir, "big.md"), []byte("---\ntype: Concept\ntitle: Big\n---\n"+strings.Repeat("word ", 600<<10)), 0o644)
	s, _ := newServer(t, dir, 0)
	short := 300 * time.Millisecond
	addr := startHTTP(t, s, HTTPOptions{limits: httpLimits{header: short, body: short, write: short, idle: short}})

	c := dial(t, addr)
	fmt.Fprint(c, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n") // and no more headers
	closedAfter(t, c, "slow headers")

	c = dial(t, addr)
	fmt.Fprint(c, mcpHeaders+"Content-Length: 1000\r\n\r\n{\"jsonrpc\":") // and no more body
	closedAfter(t, c, "slow body")

	// A method the endpoint refuses, with a body that never comes: net/http would wait to discard it.
	c = dial(t, addr)
	fmt.Fprint(c, strings.Replace(mcpHeaders, "POST", "PUT", 1)+"Transfer-Encoding: chunked\r\n\r\n")
	closedAfter(t, c, "slow body of a refused method")

	c = dial(t, addr)
	fmt.Fprint(c, mcpHeaders+fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(initBody), initBody))
	r := bufio.NewReader(c)
	res, err := http.ReadResponse(r, nil)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("request before idling: %v %v", res, err)
	}
	io.Copy(io.Discard, res.Body)
	closedAfter(t, c, "idle connection")

	// Eight reads of a 3 MiB resource, pipelined, never read: the server's writes stall once the
	// buffers are full, and the write timeout ends the connection well before 24 MiB are sent.
	c = dial(t, addr)
	read := `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"okf://big"}}`
	for range 8 {
		fmt.Fprint(c, mcpHeaders+fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(read), read))
	}
	time.Sleep(2 * time.Second) // longer than the write timeout: not a timing assertion, a wait
	got := closedAfter(t, c, "client that does not read")
	if n := strings.Count(got, "HTTP/1.1 200"); n >= 8 {
		t.Errorf("all %d answers were sent to a client that did not read them (%d bytes)", n, len(got))
	}
}

// TestHTTPConnectionLimit: past the limit of open connections, a new one is closed at once; when
// one closes, a new one is served again.
func TestHTTPConnectionLimit(t *testing.T) {
	s, _ := newServer(t, "testdata/bundle", 0)
	addr := startHTTP(t, s, HTTPOptions{limits: httpLimits{conns: 2}})
	a, b := dial(t, addr), dial(t, addr)
	fmt.Fprint(a, "POST /mcp HTTP/1.1\r\n")
	fmt.Fprint(b, "POST /mcp HTTP/1.1\r\n")
	// The two are accepted once each has been answered past its first line; wait until the server
	// has both: a third is then refused.
	var refused bool
	for range 100 {
		c := dial(t, addr)
		fmt.Fprint(c, mcpHeaders+fmt.Sprintf("Connection: close\r\nContent-Length: %d\r\n\r\n%s", len(initBody), initBody))
		got := closedAfter(t, c, "third connection")
		if got == "" {
			refused = true
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !refused {
		t.Fatal("a third connection was served with a limit of 2")
	}
	a.Close()
	for i := range 100 {
		req, _ := http.NewRequest("POST", "http://"+addr+Path, strings.NewReader(initBody))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Close = true
		res, err := http.DefaultClient.Do(req)
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				break
			}
		}
		if i == 99 {
			t.Fatalf("no connection served after one of two closed: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestHTTPRequestLimit: past the limit of requests in progress, a request is refused with 503 on
// its headers.
func TestHTTPRequestLimit(t *testing.T) {
	s, _ := newServer(t, "testdata/bundle", 0)
	addr := startHTTP(t, s, HTTPOptions{limits: httpLimits{inflight: 1}})
	// A request in progress: its body is not all sent yet. The server may see it after the first
	// post below has taken the one slot; then it is the held request that is refused, and it is
	// sent again on a new connection.
	hold := func() (net.Conn, *bufio.Reader) {
		c := dial(t, addr)
		fmt.Fprint(c, mcpHeaders+fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(initBody), initBody[:10]))
		return c, bufio.NewReader(c)
	}
	held, heldr := hold()
	refusedHeld := func() bool {
		held.SetReadDeadline(time.Now().Add(time.Millisecond))
		_, err := heldr.Peek(1)
		held.SetReadDeadline(time.Now().Add(10 * time.Second))
		return err == nil
	}
	var got int
	for range 100 {
		if got = post(t, "http://"+addr+Path, nil); got == 503 {
			break
		}
		if refusedHeld() {
			held.Close()
			held, heldr = hold()
		}
		time.Sleep(20 * time.Millisecond)
	}
	if got != 503 {
		t.Fatalf("a second request in progress with a limit of 1: %d, want 503", got)
	}
	fmt.Fprint(held, initBody[10:])
	res, err := http.ReadResponse(heldr, nil)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("the held request: %v %v", res, err)
	}
	res.Body.Close()
	for range 100 {
		if got = post(t, "http://"+addr+Path, nil); got == 200 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if got != 200 {
		t.Errorf("after the held request: %d, want 200", got)
	}
}

// TestHTTPListenHoldsNoSlot: a 2026-07-28 client's subscriptions/listen stream, open as long as the
// client is, does not take one of the request slots: with one slot, the client's calls are served.
func TestHTTPListenHoldsNoSlot(t *testing.T) {
	s, _ := newServer(t, "testdata/bundle", 0)
	addr := startHTTP(t, s, HTTPOptions{limits: httpLimits{inflight: 1}})
	listening := make(chan struct{}, 1)
	hc := &http.Client{Transport: listenSeen{listening}}
	c := connect(t, &mcp.StreamableClientTransport{Endpoint: "http://" + addr + Path, DisableStandaloneSSE: true, HTTPClient: hc}, eras[0])
	select {
	case <-listening:
	case <-time.After(10 * time.Second):
		t.Fatal("the client opened no subscriptions/listen stream")
	}
	// A call may meet the slot of the one before it not yet given back (the answer is read before
	// the handler returns): it is tried again. A stream holding the slot would refuse them all.
	for range 3 {
		var err error
		for range 100 {
			if _, err = c.CallTool(context.Background(), &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "glossary"}}); err == nil {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if err != nil {
			t.Fatalf("search with a listen stream open and one request slot: %v", err)
		}
	}
}

// listenSeen signals once the server has answered a subscriptions/listen request's headers: its
// stream is then open.
type listenSeen struct{ ch chan struct{} }

func (l listenSeen) RoundTrip(r *http.Request) (*http.Response, error) {
	var body []byte
	if r.Body != nil {
		body, _ = io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	res, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && bytes.Contains(body, []byte(`"method":"subscriptions/listen"`)) {
		select {
		case l.ch <- struct{}{}:
		default:
		}
	}
	return res, err
}
