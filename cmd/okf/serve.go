package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/okf"
	"github.com/okf-tools/okf/serve"
	"github.com/urfave/cli/v2"
)

func serveCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "serve",
		Usage:     "serve a bundle to MCP hosts (agents, IDEs) over stdio or Streamable HTTP",
		ArgsUsage: "[BUNDLE]",
		Description: "Gives the bundle to any Model Context Protocol host: every concept and index as a resource\n" +
			"(okf://{+id}), and the read-only tools search, read, browse and trust, whose answers state each\n" +
			"concept's trust tier, status and staleness. Speaks MCP over stdin/stdout by default, or Streamable\n" +
			"HTTP (stateless) with --http. The bundle is watched and reloaded on change. BUNDLE defaults to the\n" +
			"current folder; it must be a bundle's root (a folder below one is refused, naming the root).\n\n" +
			"Exit codes: 0 done, 2 bad usage or configuration (a path in no bundle or below its root, a\n" +
			".okf.yaml with problems), 3 the bundle cannot be read or the address cannot be bound.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "http", Usage: "serve Streamable HTTP on `ADDR` (PORT, :PORT or HOST:PORT; host defaults to 127.0.0.1) at /mcp"},
			&cli.StringFlag{Name: "token", Usage: "require `TOKEN` as an HTTP bearer token (default $OKF_SERVE_TOKEN); needed to listen beyond 127.0.0.1"},
			&cli.StringSliceFlag{Name: "allow-origin", Usage: "also accept browser `ORIGIN` (scheme://host:port) besides loopback ones; repeatable"},
			&cli.StringFlag{Name: "now", Usage: "judge staleness at `TIME` (RFC 3339, or a date); default $OKF_NOW, else the clock at each request"},
			&cli.StringFlag{Name: "expiring-within", Value: "30d", Usage: "\"expiring\" `WINDOW` after now: whole days (30d) or a duration (36h); 0 turns it off"},
			&cli.BoolFlag{Name: "no-watch", Usage: "do not reload the bundle when its files change"},
			maxFileSizeFlag(),
		},
		Action: func(c *cli.Context) error { return runServe(e, c) },
	}
}

func runServe(e *env, c *cli.Context) error {
	if c.NArg() > 1 {
		return usageErr("serve takes one bundle folder, got %d arguments", c.NArg())
	}
	dir := "."
	if c.NArg() == 1 {
		dir = c.Args().First()
	}
	window, err := okf.ParseWindow(c.String("expiring-within"))
	if err != nil {
		return usageErr("--expiring-within: %v", err)
	}
	var clock func() time.Time
	if c.String("now") != "" || e.getenv("OKF_NOW") != "" {
		now, err := okf.ResolveNow(c.String("now"), e.getenv)
		if err != nil {
			return usageErr("%v", err)
		}
		clock = func() time.Time { return now }
	}
	token := c.String("token")
	if token == "" {
		token = e.getenv("OKF_SERVE_TOKEN")
	}
	addr := c.String("http")
	if addr != "" {
		if _, err := serve.ListenAddr(addr, token); err != nil {
			return usageErr("%v", err)
		}
	}
	var mu sync.Mutex
	report := func(line string) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(e.stderr, "okf serve: %s\n", line)
	}
	limit, err := flagMaxFileSize(c)
	if err != nil {
		return err
	}
	s, err := serve.New(serve.Options{Dir: dir, Load: okf.LoadOptions{MaxFileSize: limit}, Now: clock, ExpiringWithin: window, Version: okfVersion(), Report: report})
	if err != nil {
		return openErr(err, "")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if !c.Bool("no-watch") {
		go func() {
			if err := s.Watch(ctx); err != nil {
				report(err.Error())
			}
		}()
	}
	if addr == "" {
		report(fmt.Sprintf("serving %d concepts of %s over stdio", s.Concepts(), escape.Control(dir)))
		warn := func(msg string) { report(escape.Control(msg)) }
		if err := s.ServeStdio(ctx, e.stdin, e.stdout, warn); err != nil && !errors.Is(err, context.Canceled) {
			return fatalErr("%v", err)
		}
		return nil
	}
	err = s.ServeHTTP(ctx, addr, serve.HTTPOptions{Token: token, Origins: c.StringSlice("allow-origin")}, func(url string) {
		report(fmt.Sprintf("serving %d concepts of %s at %s", s.Concepts(), escape.Control(dir), url))
	})
	if err != nil {
		return fatalErr("%v", err)
	}
	return nil
}
