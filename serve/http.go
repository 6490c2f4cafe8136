package serve

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPOptions secures the Streamable HTTP endpoint.
type HTTPOptions struct {
	// Token, when set, is required as "Authorization: Bearer <token>" on every request.
	Token string
	// Origins are browser origins allowed besides the loopback ones (http://localhost:*,
	// http://127.0.0.1:*, http://[::1]:*), written as scheme://host[:port].
	Origins []string
}

// Path is where the MCP endpoint is served.
const Path = "/mcp"

// Handler returns the Streamable HTTP handler: stateless (no Mcp-Session-Id), so one endpoint
// serves both the 2026-07-28 revision (server/discover, per-request _meta) and the older
// initialize handshake. It checks the bearer token and the Origin header (DNS rebinding protection,
// as the MCP transport specification requires) before the SDK sees the request; the SDK adds its
// own Host check for loopback connections.
func (s *Server) Handler(o HTTPOptions) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &mcp.StreamableHTTPOptions{
		Stateless:           true,
		MaxRequestBodyBytes: 1 << 20,
	})
	mux := http.NewServeMux()
	mux.Handle(Path, h)
	return guard(mux, o)
}

func guard(next http.Handler, o HTTPOptions) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !originAllowed(origin, o.Origins) {
			http.Error(w, "Forbidden: origin not allowed", http.StatusForbidden)
			return
		}
		if o.Token != "" {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if !ok || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(o.Token)) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="okf serve"`)
				http.Error(w, "Unauthorized: a bearer token is required", http.StatusUnauthorized)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

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
	srv := &http.Server{Handler: s.Handler(o), ReadHeaderTimeout: 10 * time.Second}
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
