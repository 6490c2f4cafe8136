package main

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/migrate"
	"github.com/okf-tools/okf/okf"
	"github.com/urfave/cli/v2"
)

func migrateCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "migrate",
		Usage:     "upgrade an OKF v0.1 bundle to v0.2 in place (§13), losing nothing",
		UsageText: "okf migrate [--dry-run | --check] [--now TIME] [BUNDLE]",
		Description: "Rewrites the bundle at BUNDLE (default: the current directory): timestamp becomes\n" +
			"generated: { by, at } (by is " + migrate.Actor + " unless the file names a producer that follows §7),\n" +
			"a # Citations list moves into sources, date-only and offset-less timestamps become datetimes (D10),\n" +
			"a tags string becomes a list, and the root index.md declares okf_version \"0.2\". Only the text\n" +
			"at those places changes: key order, comments, quoting and other keys stay. A file that cannot be\n" +
			"migrated safely is left untouched and listed. A log.md entry records the migration; a second\n" +
			"run changes nothing.\n\n" +
			"Exit codes: 0 done, 1 --check found files to migrate, 2 bad usage, 3 unreadable bundle or a\n" +
			"file that could not be written.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "dry-run", Usage: "write nothing; print the changes as a unified diff"},
			&cli.BoolFlag{Name: "check", Usage: "write nothing; exit 1 listing the files that would change"},
			&cli.StringFlag{Name: "now", Usage: "date the log.md entry as of `TIME` (RFC 3339, or a date); default $OKF_NOW, else the clock"},
			maxFileSizeFlag(),
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usageErr("migrate takes one bundle path, got %d arguments", c.NArg())
			}
			now, err := okf.ResolveNow(c.String("now"), e.getenv)
			if err != nil {
				return usageErr("--now: %v", err)
			}
			root := "."
			if c.NArg() == 1 {
				root = c.Args().First()
			}
			limit, err := flagMaxFileSize(c)
			if err != nil {
				return err
			}
			res, err := migrate.Migrate(c.Context, migrate.Request{Path: root, MaxFileSize: limit, Now: now, Write: !c.Bool("check") && !c.Bool("dry-run")})
			if res == nil {
				return openErr(err, "")
			}
			plan := res.Plan // with an error of writing it: its problems are still said
			show := func(p string) string { return escape.Control(displayPath(root, p)) }
			for _, p := range plan.Left {
				pos := p.Pos
				pos.Path = displayPath(root, pos.Path)
				if p.Pos.Path == "" {
					pos.Path = root // about the bundle as a whole
				}
				fmt.Fprintf(e.stderr, "okf: %s: %s\n", escape.LineStart(pos.String()), escape.Control(p.Message))
			}
			switch {
			case c.Bool("dry-run"):
				fmt.Fprint(e.stdout, escapeDiff(plan.DiffAs(func(p string) string { return displayPath(root, p) })))
				return nil
			case c.Bool("check"):
				for _, ch := range plan.Changes {
					fmt.Fprintf(e.stdout, "would migrate %s\n", show(ch.Path))
				}
				if plan.Changed() {
					return findings
				}
				return nil
			}
			if err != nil {
				return fatalErr("%v", err)
			}
			written, refused := res.Written, res.Refused
			for _, p := range written {
				fmt.Fprintf(e.stdout, "migrated %s\n", show(p))
			}
			for _, p := range refused {
				pos := p.Pos
				pos.Path = displayPath(root, pos.Path)
				fmt.Fprintf(e.stderr, "okf: %s: %s\n", escape.LineStart(pos.String()), escape.Control(p.Message))
			}
			fmt.Fprintf(e.stderr, "okf: %s migrated, %s left untouched\n", countOf(len(written), "file"), countOf(untouched(plan.Left)+len(refused), "file"))
			if len(refused) > 0 {
				return &exitError{code: exitFatal}
			}
			return nil
		},
	}
}

// untouched counts the files the plan left as they were.
func untouched(ps []migrate.Problem) int {
	seen := map[string]bool{}
	for _, p := range ps {
		if p.Untouched {
			seen[p.Pos.Path] = true
		}
	}
	return len(seen)
}

// escapeDiff makes a diff of bundle text safe to print: each line's control characters (but tabs,
// and the CR of a CRLF line end) are escaped, so no file content can move the cursor or forge a CI log command; the diff of a
// file without such characters is printed byte for byte.
func escapeDiff(d string) string {
	lines := strings.SplitAfter(d, "\n")
	for i, l := range lines {
		body := strings.TrimSuffix(l, "\n")
		if len(body) < len(l) {
			// A CRLF line end stays: it moves no cursor, and git apply needs it in a CRLF file.
			body = strings.TrimSuffix(body, "\r")
		}
		parts := strings.Split(body, "\t")
		for j, p := range parts {
			parts[j] = escape.Control(p)
		}
		esc := strings.Join(parts, "\t")
		// A line that starts with :: after white space (a context line " ::error …", or after a
		// tab or a no-break space, which the Actions runner trims too) would be a workflow
		// command: its first colon is written \x3a, as escape.LineStart writes it.
		if t := strings.TrimLeftFunc(esc, unicode.IsSpace); strings.HasPrefix(t, ":") {
			esc = esc[:len(esc)-len(t)] + `\x3a` + t[1:]
		}
		if esc != body {
			lines[i] = esc + l[len(body):]
		}
	}
	return strings.Join(lines, "")
}
