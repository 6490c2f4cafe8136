package serve

import (
	"bufio"
	"fmt"
	"net/http"
	"testing"
	"time"
)

// TestHTTPSilentConnectionClosed: a connection that sends nothing is closed after the first-byte
// timeout, not held for the header timeout (here a minute): a client cannot keep the connection
// slots by opening sockets and staying silent.
func TestHTTPSilentConnectionClosed(t *testing.T) {
	s, _ := newServer(t, "testdata/bundle", 0)
	addr := startHTTP(t, s, HTTPOptions{limits: httpLimits{firstByte: 200 * time.Millisecond, header: time.Minute}})
	c := dial(t, addr) // its own guard: 10 s
	closedAfter(t, c, "a silent connection")
}

// TestHTTPAdmittedNotPushedOut: connections that have passed the token check are counted apart
// from those that have not: with a limit of one, a client whose keep-alive connection was let in
// does not stop a second client from being served, and silent connections without the token do
// not close or block the admitted one.
func TestHTTPAdmittedNotPushedOut(t *testing.T) {
	s, _ := newServer(t, "testdata/bundle", 0)
	addr := startHTTP(t, s, HTTPOptions{Token: "s3cret", limits: httpLimits{conns: 1, header: time.Minute}})
	request := func(c interface {
		Write([]byte) (int, error)
	}, r *bufio.Reader, what string) {
		t.Helper()
		fmt.Fprintf(c, mcpHeaders+"Authorization: Bearer s3cret\r\nContent-Length: %d\r\n\r\n%s", len(initBody), initBody)
		res, err := http.ReadResponse(r, nil)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d", what, res.StatusCode)
		}
	}
	a := dial(t, addr)
	ar := bufio.NewReader(a)
	request(a, ar, "first client")
	// a is admitted and kept alive. A second client, then silent ones without the token.
	b := dial(t, addr)
	request(b, bufio.NewReader(b), "second client, while the first is kept alive")
	b.Close()
	for range 3 {
		dial(t, addr)
	}
	request(a, ar, "the first client again, after silent connections")
}
