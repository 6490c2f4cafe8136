package serve

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`

func post(t *testing.T, url string, header map[string]string) int {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(initBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

func TestHTTPOriginAndToken(t *testing.T) {
	s, _ := newServer(t, "testdata/bundle", 0)
	open := httptest.NewServer(s.Handler(HTTPOptions{Origins: []string{"https://app.example"}}))
	t.Cleanup(open.Close) // after the client sessions' cleanups: a listen stream holds a connection
	locked := httptest.NewServer(s.Handler(HTTPOptions{Token: "s3cret"}))
	t.Cleanup(locked.Close)
	for _, tc := range []struct {
		name   string
		url    string
		header map[string]string
		want   int
	}{
		{"no origin (not a browser)", open.URL + Path, nil, 200},
		{"loopback origin", open.URL + Path, map[string]string{"Origin": "http://localhost:6274"}, 200},
		{"listed origin", open.URL + Path, map[string]string{"Origin": "https://app.example"}, 200},
		{"foreign origin (DNS rebinding)", open.URL + Path, map[string]string{"Origin": "http://evil.example"}, 403},
		{"null origin", open.URL + Path, map[string]string{"Origin": "null"}, 403},
		{"foreign Host on loopback (SDK check)", open.URL + Path, map[string]string{"Host": "evil.example"}, 403},
		{"no token", locked.URL + Path, nil, 401},
		{"wrong token", locked.URL + Path, map[string]string{"Authorization": "Bearer nope"}, 401},
		{"token", locked.URL + Path, map[string]string{"Authorization": "Bearer s3cret"}, 200},
		{"other path", open.URL + "/other", nil, 404},
	} {
		h := tc.header
		req := map[string]string{}
		for k, v := range h {
			req[k] = v
		}
		if host, ok := req["Host"]; ok {
			// net/http takes Host from the request, not the header map.
			r, _ := http.NewRequest("POST", tc.url, strings.NewReader(initBody))
			r.Host = host
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Accept", "application/json, text/event-stream")
			res, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != tc.want {
				t.Errorf("%s: %d, want %d", tc.name, res.StatusCode, tc.want)
			}
			continue
		}
		if got := post(t, tc.url, req); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
	// The SDK client with the token, in both eras.
	for _, era := range eras {
		c := connect(t, &mcp.StreamableClientTransport{Endpoint: locked.URL + Path, DisableStandaloneSSE: true,
			HTTPClient: &http.Client{Transport: bearer{"s3cret"}}}, era)
		var out SearchOut
		call(t, c, "search", map[string]any{"query": "glossary"}, &out)
		if len(out.Hits) == 0 {
			t.Errorf("%s with token: no hits", era)
		}
	}
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func TestListenAddr(t *testing.T) {
	for _, tc := range []struct{ addr, token, want, err string }{
		{"8080", "", "127.0.0.1:8080", ""},
		{":8080", "", "127.0.0.1:8080", ""},
		{"localhost:0", "", "localhost:0", ""},
		{"[::1]:9000", "", "[::1]:9000", ""},
		{"0.0.0.0:8080", "", "", "needs a bearer token"},
		{"0.0.0.0:8080", "t", "0.0.0.0:8080", ""},
		{"example.com", "", "", "want HOST:PORT"},
	} {
		got, err := ListenAddr(tc.addr, tc.token)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %q %v, want error %q", tc.addr, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: %q %v, want %q", tc.addr, got, err, tc.want)
		}
	}
}
