package serve

import (
	"context"
	"errors"
	"io"
)

// Request is one `okf serve` run: the bundle served and how (its flags are the fields).
type Request struct {
	// Options are New's: the bundle, its clock and window, and Report, which is also told when
	// watching fails.
	Options Options
	// HTTP is the address to serve Streamable HTTP on (ListenAddr), with HTTPOptions; "" serves
	// MCP over Stdin and Stdout, with Warn told of what the stdio transport drops.
	HTTP        string
	HTTPOptions HTTPOptions
	Stdin       io.Reader
	Stdout      io.Writer
	Warn        func(string)
	// Watch reloads the bundle when its files change (Server.Watch).
	Watch bool
	// Ready, when set, is called once the server is serving: url is the HTTP endpoint, or "" for
	// stdio.
	Ready func(s *Server, url string)
}

// Run serves one bundle until ctx is done (`okf serve`): it loads the bundle (New: a path in no
// bundle or below its root, a configuration with problems are errors before anything is served),
// watches it when asked, and serves it over stdio or HTTP. The end of ctx ends a stdio run
// without an error.
func Run(ctx context.Context, req Request) error {
	s, err := New(req.Options)
	if err != nil {
		return err
	}
	if req.Watch {
		go func() {
			if err := s.Watch(ctx); err != nil && req.Options.Report != nil {
				req.Options.Report(err.Error())
			}
		}()
	}
	if req.HTTP == "" {
		if req.Ready != nil {
			req.Ready(s, "")
		}
		if err := s.ServeStdio(ctx, req.Stdin, req.Stdout, req.Warn); err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
		return nil
	}
	return s.ServeHTTP(ctx, req.HTTP, req.HTTPOptions, func(url string) {
		if req.Ready != nil {
			req.Ready(s, url)
		}
	})
}
