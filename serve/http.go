package serve

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPOptions secures the Streamable HTTP endpoint.
type HTTPOptions struct {
	// Token, when set, is required as "Authorization: Bearer <token>" on every request.
	Token string
	// Origins are browser origins allowed besides the loopback ones (http://localhost:*,
	// http://127.0.0.1:*, http://[::1]:*), written as scheme://host[:port].
	Origins []string
	// limits are the timeouts and limits of ServeHTTP (zero fields: the defaults).
	limits httpLimits
}

// httpLimits bound what clients can hold of the server: time (a request's headers, its body, each
// write of the answer, an idle connection) and number (open connections, requests in progress).
type httpLimits struct {
	firstByte, header, body, write, idle time.Duration
	conns, inflight                      int
}

// The defaults of httpLimits. A request body is at most maxBody bytes, so inflight requests hold
// at most inflight × (2 × maxBody + an answer) of memory.
const (
	firstByteTimeout = 3 * time.Second
	headerTimeout    = 10 * time.Second
	bodyTimeout      = 30 * time.Second
	writeTimeout     = 30 * time.Second
	idleTimeout      = 60 * time.Second
	maxConns         = 256
	maxInflight      = 64
	maxBody          = 1 << 20
)

func (l httpLimits) withDefaults() httpLimits {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&l.firstByte, firstByteTimeout)
	def(&l.header, headerTimeout)
	def(&l.body, bodyTimeout)
	def(&l.write, writeTimeout)
	def(&l.idle, idleTimeout)
	if l.conns <= 0 {
		l.conns = maxConns
	}
	if l.inflight <= 0 {
		l.inflight = maxInflight
	}
	return l
}

// Path is where the MCP endpoint is served.
const Path = "/mcp"

// Handler returns the Streamable HTTP handler: stateless (no Mcp-Session-Id), so one endpoint
// serves both the 2026-07-28 revision (server/discover, per-request _meta) and the older
// initialize handshake. It checks the bearer token and the Origin header (DNS rebinding protection,
// as the MCP transport specification requires) on the request's headers, before its body is read
// and before the SDK sees it; the SDK adds its own Host check for loopback connections. It refuses
// JSON-RPC batches, bounds the requests in progress, and gives each request's body and each write
// of its answer a deadline (see guard).
func (s *Server) Handler(o HTTPOptions) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &mcp.StreamableHTTPOptions{
		Stateless:           true,
		MaxRequestBodyBytes: maxBody,
	})
	mux := http.NewServeMux()
	mux.Handle(Path, h)
	return guard(mux, o)
}

// refuse answers with an error and closes the connection at once: net/http would otherwise read
// (to discard it) up to 256 KiB of a body the request may still be sending, waiting for it.
func refuse(w http.ResponseWriter, msg string, code int) {
	h := w.Header()
	h.Set("Connection", "close")
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", fmt.Sprint(len(msg)+1))
	w.WriteHeader(code)
	io.WriteString(w, msg+"\n")
	rc := http.NewResponseController(w)
	if rc.Flush() == nil {
		if conn, _, err := rc.Hijack(); err == nil {
			conn.Close()
		}
	}
}

// rpcRefuse answers a POST the SDK is not given with a JSON-RPC error under id (null when nil).
func rpcRefuse(w http.ResponseWriter, status int, id json.RawMessage, code int, msg string) {
	b := append(errorLine(id, code, msg), '\n')
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", fmt.Sprint(len(b)))
	w.WriteHeader(status)
	w.Write(b)
}

func guard(next http.Handler, o HTTPOptions) http.Handler {
	lim := o.limits.withDefaults()
	slots := make(chan struct{}, lim.inflight)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		// Deadlines of this request (the server's own ReadTimeout and WriteTimeout would also end
		// the long-lived streams of subscriptions/listen): its answer's first write, then each
		// write again (deadlineWriter); its body, until a POST's has been read (any other body is
		// only read by net/http, to discard it, and must come in time too).
		rc.SetWriteDeadline(time.Now().Add(lim.write))
		rc.SetReadDeadline(time.Now().Add(lim.body))
		if origin := r.Header.Get("Origin"); origin != "" && !originAllowed(origin, o.Origins) {
			refuse(w, "Forbidden: origin not allowed", http.StatusForbidden)
			return
		}
		if o.Token != "" {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if !ok || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(o.Token)) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="okf serve"`)
				refuse(w, "Unauthorized: a bearer token is required", http.StatusUnauthorized)
				return
			}
		}
		// Allowed: the connection leaves the pool of those not yet let in (limitListener).
		if c, ok := r.Context().Value(connKey{}).(*limitConn); ok {
			c.admit()
		}
		select {
		case slots <- struct{}{}:
		default:
			w.Header().Set("Retry-After", "1")
			refuse(w, fmt.Sprintf("Service Unavailable: %d requests in progress, the most this server takes", lim.inflight), http.StatusServiceUnavailable)
			return
		}
		held := true
		release := func() {
			if held {
				held = false
				<-slots
			}
		}
		defer release()
		w = &deadlineWriter{ResponseWriter: w, rc: rc, d: lim.write}
		if r.Method == http.MethodPost {
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
			if err != nil {
				var mbe *http.MaxBytesError
				if errors.As(err, &mbe) {
					refuse(w, fmt.Sprintf("request body exceeds %d bytes", maxBody), http.StatusRequestEntityTooLarge)
					return
				}
				refuse(w, "failed to read body", http.StatusBadRequest)
				return
			}
			// Read: the connection may now wait for the client as long as the answer lasts.
			rc.SetReadDeadline(time.Time{})
			if b := bytes.TrimLeft(body, " \t\r\n"); len(b) > 0 && b[0] == '[' {
				// The SDK serves batches to protocol versions before 2025-06-18, each call answered
				// on its own: a 1 MiB batch could ask for thousands of 256 KiB answers at once.
				refuse(w, "Bad Request: JSON-RPC batches are not accepted over HTTP; send one message a request", http.StatusBadRequest)
				return
			}
			if why := ambiguousKeys(body); why != "" {
				refuse(w, "Bad Request: "+why, http.StatusBadRequest)
				return
			}
			// What the SDK would answer in Go's words, the body echoed (or, for a request with a
			// null id, not at all): answered here in JSON-RPC's.
			if !json.Valid(body) {
				rpcRefuse(w, http.StatusBadRequest, nil, -32700, "parse error: the body is not JSON")
				return
			}
			if why := notMessage(bytes.TrimSpace(body)); why != "" {
				rpcRefuse(w, http.StatusBadRequest, nil, jsonrpc.CodeInvalidRequest, "invalid request: not a JSON-RPC 2.0 message: "+why)
				return
			}
			if code, msg, id := requestProblem(body); code != 0 {
				rpcRefuse(w, http.StatusOK, id, code, msg)
				return
			}
			// The method as the SDK reads it (its own decoder: member names matched exactly), so
			// that no request is a listen stream to the guard and a tool call to the SDK.
			m, err := jsonrpc.DecodeMessage(body)
			if r, ok := m.(*jsonrpc.Request); err == nil && ok && len(r.Method) > maxMethod {
				// The SDK's "method not found" would echo it whole.
				refuse(w, fmt.Sprintf("Bad Request: a method of %d bytes; no MCP method is longer than %d", len(r.Method), maxMethod), http.StatusBadRequest)
				return
			}
			if err == nil && isListen(m) {
				// A listen stream lasts as long as the client keeps it: it holds a connection (of
				// maxConns), not a request slot.
				release()
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		next.ServeHTTP(w, r)
	})
}

// maxMethod is the longest method name taken: MCP's are under 40 bytes, and the SDK's "method
// not found" error echoes the name whole.
const maxMethod = 128

func isListen(m jsonrpc.Message) bool {
	r, ok := m.(*jsonrpc.Request)
	return ok && r.Method == "subscriptions/listen"
}

// ambiguousKeys says why a JSON-RPC message's members could be read two ways, or "" when they
// cannot: a "method", "jsonrpc" or "id" member written twice, or in another case ("Method").
// Decoders differ there (encoding/json matches names case-insensitively and keeps the last of
// several; the SDK's matches them exactly), so a message that depends on it is refused rather
// than read one way by okf and another by the SDK. A body that is not a JSON object is left to the
// SDK, which refuses it.
func ambiguousKeys(body []byte) string {
	dec := json.NewDecoder(bytes.NewReader(body))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return ""
		}
		key, _ := t.(string)
		if lk := strings.ToLower(key); lk == "method" || lk == "jsonrpc" || lk == "id" {
			switch {
			case key != lk:
				return fmt.Sprintf("member %s: JSON-RPC member names are lowercase (%q)", quote(key, 40), lk)
			case seen[lk]:
				return fmt.Sprintf("member %q written twice", lk)
			}
			seen[lk] = true
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return ""
		}
	}
	return ""
}

// deadlineWriter gives each write of an answer its own deadline: an answer may stream for long (a
// subscriptions/listen stream), but a client that stops reading it stalls a write, which then
// fails and ends the connection.
type deadlineWriter struct {
	http.ResponseWriter
	rc *http.ResponseController
	d  time.Duration
}

func (w *deadlineWriter) WriteHeader(code int) {
	w.rc.SetWriteDeadline(time.Now().Add(w.d))
	w.ResponseWriter.WriteHeader(code)
}

func (w *deadlineWriter) Write(p []byte) (int, error) {
	w.rc.SetWriteDeadline(time.Now().Add(w.d))
	return w.ResponseWriter.Write(p)
}

func (w *deadlineWriter) Flush() {
	w.rc.SetWriteDeadline(time.Now().Add(w.d))
	w.rc.Flush()
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// originAllowed accepts loopback origins on any port and the listed ones.
func originAllowed(origin string, allowed []string) bool {
	if slices.Contains(allowed, strings.TrimSuffix(origin, "/")) {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return isLoopback(u.Hostname())
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ListenAddr completes an --http address: a missing host is 127.0.0.1 (never every interface by
// default), and a host that is not loopback needs a token.
func ListenAddr(addr string, token string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		// A bare port.
		if _, perr := fmt.Sscanf(addr, "%d", new(int)); perr == nil && !strings.Contains(addr, ":") {
			host, port = "", addr
		} else {
			return "", fmt.Errorf("--http %q: want HOST:PORT, :PORT or PORT", addr)
		}
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if !isLoopback(host) && token == "" {
		return "", fmt.Errorf("--http %s listens beyond this machine and needs a bearer token: set one with --token or OKF_SERVE_TOKEN", addr)
	}
	return net.JoinHostPort(host, port), nil
}

// ServeHTTP listens on addr (completed by ListenAddr) and serves until ctx is done. ready, if not
// nil, is called with the endpoint URL once the listener is open.
func (s *Server) ServeHTTP(ctx context.Context, addr string, o HTTPOptions, ready func(url string)) error {
	addr, err := ListenAddr(addr, o.Token)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	lim := o.limits.withDefaults()
	ln = newLimitListener(ln, lim)
	srv := &http.Server{
		Handler:           s.Handler(o),
		ConnContext:       func(ctx context.Context, c net.Conn) context.Context { return context.WithValue(ctx, connKey{}, c) },
		ReadHeaderTimeout: lim.header,
		IdleTimeout:       lim.idle,
		MaxHeaderBytes:    64 << 10,
		// No ReadTimeout or WriteTimeout: they would end subscriptions/listen streams; guard sets
		// a deadline on each request's body and on each write instead.
	}
	if ready != nil {
		ready("http://" + ln.Addr().String() + Path)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		return nil
	case err := <-done:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	}
}

// limitListener bounds open connections in two pools of cap(pending) and cap(admitted): a
// connection is pending from its accept until a request of it passes the guard's origin and token
// checks, then admitted (when the admitted pool has room; else it stays pending). A connection past
// the pending pool's limit is closed as soon as it is accepted (a client gets a closed connection
// at once, not a wait in the kernel's queue), and a slot is freed when its connection closes. So
// connections that never present the token cannot push out the ones that did (their keep-alive
// and listen streams), and a pending connection that sends nothing is closed after firstByte,
// well before the header timeout.
type limitListener struct {
	net.Listener
	pending, admitted chan struct{}
	firstByte         time.Duration
}

func newLimitListener(ln net.Listener, lim httpLimits) *limitListener {
	return &limitListener{Listener: ln, pending: make(chan struct{}, lim.conns), admitted: make(chan struct{}, lim.conns), firstByte: lim.firstByte}
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		select {
		case l.pending <- struct{}{}:
			lc := &limitConn{Conn: c, l: l, first: time.Now().Add(l.firstByte)}
			c.SetReadDeadline(lc.first)
			return lc, nil
		default:
			c.Close()
		}
	}
}

// connKey is the context key under which ServeHTTP's connections are found by guard.
type connKey struct{}

type limitConn struct {
	net.Conn
	l     *limitListener
	first time.Time   // the deadline of its first byte
	got   atomic.Bool // a byte was read
	mu    sync.Mutex
	state int // 0 pending, 1 admitted, 2 closed
}

func (c *limitConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.got.Store(true)
	}
	return n, err
}

// SetReadDeadline keeps the first-byte deadline until a byte has come: net/http sets the header
// timeout's on its own when it starts reading a request.
func (c *limitConn) SetReadDeadline(t time.Time) error {
	if !c.got.Load() && (t.IsZero() || t.After(c.first)) {
		t = c.first
	}
	return c.Conn.SetReadDeadline(t)
}

func (c *limitConn) SetDeadline(t time.Time) error {
	if err := c.Conn.SetWriteDeadline(t); err != nil {
		return err
	}
	return c.SetReadDeadline(t)
}

// admit moves a pending connection to the admitted pool, if it has room.
func (c *limitConn) admit() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state != 0 {
		return
	}
	select {
	case c.l.admitted <- struct{}{}:
		<-c.l.pending
		c.state = 1
	default:
	}
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.mu.Lock()
	defer c.mu.Unlock()
	switch c.state {
	case 0:
		<-c.l.pending
	case 1:
		<-c.l.admitted
	}
	c.state = 2
	return err
}
