package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/internal/heapfloor"
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
	heapfloor.Stop() // a long-running process: the default collector
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
	// An interrupt ends the serving cleanly once it has begun; while the bundle loads it stops okf
	// as it stops any command.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 1)
	defer signal.Stop(sigs)
	onSignal := func() {
		signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
		go func() {
			select {
			case <-sigs:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	err = serve.Run(ctx, serve.Request{
		Options: serve.Options{Dir: dir, Load: okf.LoadOptions{MaxFileSize: limit}, Now: clock, ExpiringWithin: window, Version: okfVersion(), Report: report},
		HTTP:    addr, HTTPOptions: serve.HTTPOptions{Token: token, Origins: c.StringSlice("allow-origin")},
		Stdin: e.stdin, Stdout: e.stdout, Warn: func(msg string) { report(escape.Control(msg)) },
		Watch: !c.Bool("no-watch"),
		Ready: func(s *serve.Server, url string) {
			onSignal()
			if url == "" {
				report(fmt.Sprintf("serving %d concepts of %s over stdio", s.Concepts(), escape.Control(dir)))
				return
			}
			report(fmt.Sprintf("serving %d concepts of %s at %s", s.Concepts(), escape.Control(dir), url))
		},
	})
	if err != nil {
		// Loading: a path in no bundle or a configuration with problems is exit 2; serving fails exit 3.
		return openErr(err, "")
	}
	return nil
}
