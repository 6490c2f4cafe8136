package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/okf"
	"github.com/okf-tools/okf/serve"
	"github.com/okf-tools/okf/skill"
	"github.com/urfave/cli/v2"
)

func skillCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "skill",
		Usage:     "write the bundle as an Agent Skill folder (SKILL.md, catalog.md, the bundle's files)",
		ArgsUsage: "[BUNDLE]",
		Description: "Writes DIR/NAME/SKILL.md, whose name and description come from the bundle (its folder's name,\n" +
			"its types and its root index's titles) and whose body tells an agent how to walk the bundle and\n" +
			"read each concept's trust; DIR/NAME/catalog.md, every file with its tier and status; and the\n" +
			"bundle's files, copied as written, under DIR/NAME/bundle/. The same bundle gives the same bytes\n" +
			"every time, so a rebuild changes no file. BUNDLE defaults to the current folder.\n\n" +
			"Exit codes: 0 written, 1 a file in the skill folder this build does not make (listed; not removed),\n" +
			"2 bad usage, 3 the bundle cannot be read or a file of the skill cannot be written.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "write the skill folder into `DIR` (as DIR/NAME; made when missing)"},
			&cli.StringFlag{Name: "name", Usage: "the skill's `NAME` (lowercase letters, digits, hyphens; default: from the bundle's folder name)"},
			&cli.StringFlag{Name: "now", Usage: "judge each concept's staleness in catalog.md at `TIME` (RFC 3339, or a date); default: write stale_after as written"},
			maxFileSizeFlag(),
		},
		Action: func(c *cli.Context) error { return runSkill(e, c) },
	}
}

// skillBundle reads the one BUNDLE argument and builds its skill with --name and --now.
func skillBundle(e *env, c *cli.Context, cmd string, useNow bool) (*okf.Bundle, *skill.Skill, error) {
	if c.NArg() > 1 {
		return nil, nil, usageErr("%s takes one bundle folder, got %d arguments", cmd, c.NArg())
	}
	dir := "."
	if c.NArg() == 1 {
		dir = c.Args().First()
	}
	opts := skill.Options{Name: c.String("name")}
	if opts.Name != "" {
		if why := skill.CheckName(opts.Name); why != "" {
			return nil, nil, usageErr("invalid --name %q: %s", opts.Name, why)
		}
	}
	if useNow && c.String("now") != "" {
		now, err := okf.ResolveNow(c.String("now"), e.getenv)
		if err != nil {
			return nil, nil, usageErr("%v", err)
		}
		opts.Now = now
	}
	limit, err := flagMaxFileSize(c)
	if err != nil {
		return nil, nil, err
	}
	l, err := skill.Load(c.Context, skill.Request{Path: dir, MaxFileSize: limit, Options: opts})
	var le *skill.LoadError
	var be *skill.BuildError
	switch {
	case errors.As(err, &le):
		return nil, nil, fatalErr("%v", err)
	case errors.As(err, &be):
		return nil, nil, usageErr("%v (give one with --name)", err)
	case err != nil:
		return nil, nil, openErr(err, "")
	}
	return l.Bundle, l.Skill, nil
}

func runSkill(e *env, c *cli.Context) error {
	out := c.String("out")
	if out == "" {
		return usageErr("skill needs --out DIR: the folder to write the skill folder into")
	}
	_, s, err := skillBundle(e, c, "skill", true)
	if err != nil {
		return err
	}
	w, err := skill.Write(out, s)
	if errors.Is(err, skill.ErrOutInBundle) {
		return usageErr("invalid --out: %v", err)
	}
	if err != nil {
		return fatalErr("%v", err)
	}
	printFindings(e.stderr, "okf skill", append(append([]skill.Finding(nil), s.Findings...), w.Findings...))
	fmt.Fprintf(e.stdout, "%s: %s written, %d unchanged\n", escape.Control(w.Dir), countOf(len(w.Written), "file"), w.Unchanged)
	code := exitOK
	for _, f := range w.Findings {
		switch {
		case f.Code == skill.CodeRefused:
			code = exitFatal
		case code == exitOK:
			code = exitFindings
		}
	}
	if code != exitOK {
		return &exitError{code: code}
	}
	return nil
}

func printFindings(w io.Writer, cmd string, fs []skill.Finding) {
	for _, f := range fs {
		fmt.Fprintf(w, "%s: %s: %s: %s [%s]\n", cmd, escape.Control(f.Path), f.Severity, escape.Control(f.Message), f.Code)
	}
}

func budgetCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "budget",
		Usage:     "count what reading the bundle as a skill costs a model, level by level, in o200k tokens",
		ArgsUsage: "[BUNDLE]",
		Description: "Counts, in " + skill.Tokenizer + " tokens, what progressive disclosure costs: the skill's metadata\n" +
			"(level 1, always in context), the SKILL.md body okf skill writes (level 2), the root index, each\n" +
			"folder index and the concepts (level 3: median, p95, max, the largest ten), and okf serve's\n" +
			"tools/list. Findings: " + skill.CodeBodyOver + " body over the " + fmt.Sprint(skill.BodyGuideline) + "-token guideline, " +
			skill.CodeIndexOver + " an index over --max-index,\n" + skill.CodeConceptOver + " a concept over --max-concept. " +
			"BUNDLE defaults to the current folder.\n\n" +
			"Exit codes: 0 within budget, 1 a finding, 2 bad usage, 3 the bundle or the output cannot be read or written.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output `FORMAT`: " + strings.Join(skill.BudgetFormats, ", ")},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the report to `FILE` instead of stdout"},
			&cli.StringFlag{Name: "name", Usage: "the skill's `NAME`, as okf skill --name"},
			&cli.IntFlag{Name: "max-index", Value: skill.DefaultMaxIndex, Usage: "flag an index.md over `N` tokens (0: no limit)"},
			&cli.IntFlag{Name: "max-concept", Usage: "flag a concept over `N` tokens (0: no limit)"},
			&cli.BoolFlag{Name: "no-tools", Usage: "do not count okf serve's tools/list"},
			maxFileSizeFlag(),
		},
		Action: func(c *cli.Context) error { return runBudget(e, c) },
	}
}

func runBudget(e *env, c *cli.Context) error {
	format := c.String("format")
	if !slices.Contains(skill.BudgetFormats, format) {
		return usageErr("invalid --format %q: want one of %s", format, strings.Join(skill.BudgetFormats, ", "))
	}
	maxIndex, maxConcept := c.Int("max-index"), c.Int("max-concept")
	if maxIndex < 0 || maxConcept < 0 {
		return usageErr("invalid --max-index %d or --max-concept %d: want 0 (no limit) or more", maxIndex, maxConcept)
	}
	if maxIndex == 0 {
		maxIndex = -1
	}
	b, s, err := skillBundle(e, c, "budget", false)
	if err != nil {
		return err
	}
	opts := skill.BudgetOptions{MaxIndex: maxIndex, MaxConcept: maxConcept}
	if !c.Bool("no-tools") {
		limit, _ := flagMaxFileSize(c)
		fixed := time.Unix(0, 0).UTC()
		srv, err := serve.New(serve.Options{Dir: b.Root, Load: okf.LoadOptions{MaxFileSize: limit}, Now: func() time.Time { return fixed }, Version: okfVersion()})
		if err != nil {
			return fatalErr("%v", err)
		}
		if opts.ToolsList, err = srv.ToolsList(context.Background()); err != nil {
			return fatalErr("tools/list: %v", err)
		}
	}
	r := skill.Measure(b, s, opts)
	if r.MaxIndex < 0 {
		r.MaxIndex = 0
	}
	print := func(w io.Writer) error { return skill.WriteBudget(w, r, format) }
	if err := writeReport(e, c.String("output"), print, "writing the report"); err != nil {
		return err
	}
	if r.Failing() {
		return findings
	}
	return nil
}
