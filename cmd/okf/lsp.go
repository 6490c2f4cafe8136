package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/okf-tools/okf/internal/heapfloor"
	"github.com/okf-tools/okf/lsp"
	"github.com/okf-tools/okf/okf"
	"github.com/urfave/cli/v2"
)

func lspCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "lsp",
		Usage: "run the language server an editor starts: findings as you type, hover, definitions, fixes",
		Description: "Speaks the Language Server Protocol over stdin/stdout. Open a concept of a bundle in your editor\n" +
			"and it shows okf lint's findings as you type (each code links to its rule), hover on a link or path\n" +
			"for the concept's title, type, trust tier, status and staleness, go to definition and references of\n" +
			"links and footnotes, completion of link targets, status, types, tags and actors, and the safe fixes of\n" +
			"okf lint --fix as code actions. It reads the bundle as okf lint does and writes nothing: fixes are\n" +
			"edits your editor applies. Editor setup: docs/lsp.md.\n\n" +
			"Exit codes: 0 after the client's shutdown and exit, 1 when the client leaves without them, 2 bad usage.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "now", Usage: "judge staleness at `TIME` (RFC 3339, or a date); default $OKF_NOW, else the clock"},
			&cli.DurationFlag{Name: "debounce", Value: lsp.DefaultDebounce, Usage: "check a file `DURATION` after the last keystroke"},
			maxFileSizeFlag(),
		},
		Action: func(c *cli.Context) error {
			heapfloor.Stop() // a long-running process: the default collector
			if c.NArg() > 0 {
				return usageErr("lsp takes no arguments, got %q", c.Args().First())
			}
			limit, err := flagMaxFileSize(c)
			if err != nil {
				return err
			}
			clock := time.Now
			if c.String("now") != "" || e.getenv("OKF_NOW") != "" {
				now, err := okf.ResolveNow(c.String("now"), e.getenv)
				if err != nil {
					return usageErr("%v", err)
				}
				clock = func() time.Time { return now }
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			err = lsp.Serve(ctx, e.stdin, e.stdout, lsp.Options{Now: clock, Debounce: c.Duration("debounce"), MaxFileSize: limit, Version: okfVersion(), Log: e.stderr})
			if err != nil {
				return &exitError{code: exitFindings}
			}
			return nil
		},
	}
}
