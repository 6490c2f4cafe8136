package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/okf-tools/okf/attest"
	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/internal/suggest"
	"github.com/okf-tools/okf/okf"
	"github.com/okf-tools/okf/trust"
	"github.com/urfave/cli/v2"
)

func trustCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "trust",
		Usage:     "report trust tiers, staleness and provenance for reviewers",
		ArgsUsage: "[PATH]",
		Description: "Lists every concept with its status (D13), trust tier and last verification (§5.3, D12),\n" +
			"who generated it, staleness (§5.5, D11), sources, and concepts it derives from that are\n" +
			"unverified, stale or deprecated (§5.1 lineage). Adds totals, a review queue and, with --base,\n" +
			"what moved since a git revision. PATH defaults to the current folder; its bundle is found as\n" +
			"okf lint finds it, and a folder below the root, or one file, limits the report to the concepts in it.\n\n" +
			"Exit codes: 0 done, 1 a --fail-on condition met (the concepts are listed on stderr),\n" +
			"2 bad usage, 3 the bundle or the output cannot be read or written.",
		Flags: []cli.Flag{
			colorFlag(),
			maxFileSizeFlag(),
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output `FORMAT`: " + strings.Join(trust.Formats, ", ")},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the report to `FILE` instead of stdout"},
			&cli.StringFlag{Name: "now", Usage: "judge staleness at `TIME` (RFC 3339, or a date meaning 00:00 UTC); default $OKF_NOW, else the clock"},
			&cli.StringFlag{Name: "expiring-within", Value: "30d", Usage: "\"expiring soon\" `WINDOW` after now: whole days (30d) or a duration (36h); 0 turns it off"},
			&cli.StringSliceFlag{Name: "tier", Usage: "list only concepts of `TIER` (human-reviewed, machine-confirmed, unverified); repeatable"},
			&cli.StringSliceFlag{Name: "status", Usage: "list only concepts of `STATUS` (stable, draft, deprecated); repeatable"},
			&cli.StringSliceFlag{Name: "type", Usage: "list only concepts whose type is `TYPE`; repeatable"},
			&cli.BoolFlag{Name: "stale", Usage: "list only stale concepts"},
			&cli.StringSliceFlag{Name: "path", Usage: "list only concepts whose path matches `GLOB` (.okfignore syntax: *, **, dir/); repeatable"},
			&cli.StringFlag{Name: "base", Usage: "compare with the bundle at git revision `REF` (read through git, no checkout)"},
			&cli.StringSliceFlag{Name: "fail-on", Usage: "exit 1 when a listed concept is `COND`: " + strings.Join(trust.FailOn, ", ") + "; repeatable"},
			&cli.IntFlag{Name: "width", Usage: "fit the text report into `N` columns, wrapping lines and printing a table too wide as records (default: the terminal's width on a terminal, else no limit; 0: no limit)"},
			&cli.IntFlag{Name: "top", Value: trust.DefaultTop, Usage: "show the first `N` items of the review queue in text, markdown and html (0: all; json has all)"},
			&cli.IntFlag{Name: "max-bytes", Value: trust.DefaultMaxChars, Usage: "cap the markdown report at `N` characters, as a GitHub comment counts them (UTF-16 units: an emoji counts 2); 0: no cap"},
		},
		Action: func(c *cli.Context) error { return runTrust(e, c) },
	}
}

func runTrust(e *env, c *cli.Context) error {
	if c.NArg() > 1 {
		return usageErr("trust takes one bundle folder, got %d arguments", c.NArg())
	}
	dir := "."
	if c.NArg() == 1 {
		dir = c.Args().First()
	}
	format := c.String("format")
	if !slices.Contains(trust.Formats, format) {
		return usageErr("--format: %v", suggest.UnknownValue("format", format, trust.Formats))
	}
	now, err := okf.ResolveNow(c.String("now"), e.getenv)
	if err != nil {
		return usageErr("%v", err)
	}
	window, err := okf.ParseWindow(c.String("expiring-within"))
	if err != nil {
		return usageErr("--expiring-within: %v", err)
	}
	opts := trust.Options{Now: now, ExpiringWithin: window, Types: c.StringSlice("type"), StaleOnly: c.Bool("stale"), Paths: c.StringSlice("path")}
	for _, s := range c.StringSlice("tier") {
		t, ok := okf.ParseTier(strings.TrimSpace(s))
		if !ok {
			return usageErr("--tier: %v", suggest.UnknownValue("tier", s, []string{"human-reviewed", "machine-confirmed", "unverified"}))
		}
		opts.Tiers = append(opts.Tiers, t)
	}
	for _, s := range c.StringSlice("status") {
		st, ok := okf.ParseStatus(strings.TrimSpace(s))
		if !ok {
			return usageErr("--status: %v", suggest.UnknownValue("status", s, []string{"stable", "draft", "deprecated"}))
		}
		opts.Statuses = append(opts.Statuses, st)
	}
	failOn, err := trust.ParseFailOn(c.StringSlice("fail-on"))
	if err != nil {
		return usageErr("--fail-on: %v", err)
	}
	top, maxChars := c.Int("top"), c.Int("max-bytes")
	if c.Int("width") < 0 {
		return usageErr("invalid --width %d: want 0 (no limit) or a number of columns", c.Int("width"))
	}
	if top < 0 {
		return usageErr("invalid --top %d: want 0 (all) or more", top)
	}
	if maxChars != 0 && maxChars < trust.MinMaxChars {
		return usageErr("invalid --max-bytes %d: want 0 (no cap) or at least %d", maxChars, trust.MinMaxChars)
	}
	opts.Builtins = attest.BuiltinNames()

	limit, err := flagMaxFileSize(c)
	if err != nil {
		return err
	}
	report, err := trust.Run(c.Context, trust.Request{Path: dir, MaxFileSize: limit, Options: opts, Base: c.String("base"), Revision: format != "text"})
	var be *trust.BaseError
	switch {
	case errors.As(err, &be) && errors.Is(be, trust.ErrRevision):
		return usageErr("%v", be)
	case errors.As(err, &be):
		return fatalErr("%v", be)
	case err != nil:
		return openErr(err, "")
	}
	full := "okf trust --top 0"
	if ref := c.String("base"); ref != "" {
		full += " --base " + shellQuote(ref)
	}
	full += " " + shellQuote(dir)

	out := c.String("output")
	terminal := out == "" && format == "text" && trustIsTerminal(e.stdout)
	colour, err := useColor(c, e, out != "")
	if err != nil {
		return err
	}
	wo := trust.WriteOptions{Color: format == "text" && colour, Top: top, MaxChars: maxChars, FullCommand: full}
	switch {
	case c.IsSet("width"):
		wo.Width = c.Int("width")
	case terminal:
		wo.Width = terminalWidth(e.stdout, e.getenv)
	}
	if wo.Width > 0 {
		wo.Width = max(wo.Width, 20) // narrower, no line could hold a key and its value
	}
	print := func(w io.Writer) error { return trust.Write(w, report, format, wo) }
	if err := writeReport(e, out, print, "writing the report"); err != nil {
		return err
	}

	if fails := report.Failing(failOn); len(fails) > 0 {
		for _, f := range fails {
			fmt.Fprintf(e.stderr, "okf trust: --fail-on %s: %s (%s)\n", f.Condition, escape.Control(f.ID), escape.Control(f.Detail))
		}
		return findings
	}
	return nil
}

// trustIsTerminal reports whether w is a character device (a terminal), the only place colour belongs.
func trustIsTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// terminalWidth is the width of the terminal w writes to: $COLUMNS when set to a number, else what
// the terminal reports, else 80.
func terminalWidth(w io.Writer, getenv func(string) string) int {
	if n, err := strconv.Atoi(strings.TrimSpace(getenv("COLUMNS"))); err == nil && n > 0 {
		return n
	}
	if f, ok := w.(*os.File); ok {
		if n := ttyWidth(f); n > 0 {
			return n
		}
	}
	return 80
}

// shellQuote quotes s for a POSIX shell when it holds anything but plain path characters.
func shellQuote(s string) string {
	plain := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./~@:^=+,", r)) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
