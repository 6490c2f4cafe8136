package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/lint"
	"github.com/okf-tools/okf/okf"
	"github.com/urfave/cli/v2"
)

// defaultBaseline is where --write-baseline writes when no file is named (lint.DefaultBaseline).
const defaultBaseline = lint.DefaultBaseline

// optionalValue is a flag that may be given bare (--write-baseline) or with a value
// (--write-baseline=FILE). The standard flag package treats a Value with IsBoolFlag as a switch, so
// the bare form calls Set("true").
type optionalValue struct {
	set   bool
	value string
}

func (o *optionalValue) String() string { return o.value }
func (o *optionalValue) IsBoolFlag() bool {
	return true
}
func (o *optionalValue) Set(s string) error {
	o.set = true
	if s != "true" {
		o.value = s
	}
	return nil
}

func lintCommand(e *env) *cli.Command {
	writeBaseline := &optionalValue{}
	alsoWrites := &repeatedValue{}
	return &cli.Command{
		Name:      "lint",
		Usage:     "check a bundle for OKF v0.2 conformance (§11) and hygiene",
		ArgsUsage: "[DIR | FILE]... | -",
		Description: "Lints the bundle holding each DIR or FILE (default: the current directory). The root is found\n" +
			"by walking up to the nearest .okf.yaml, else the top of the chain of folders holding index.md\n" +
			"(--root names it); a folder below the root or files report only their own findings. Paths of\n" +
			"several bundles are each linted against their own. Configuration is read from .okf.yaml at the\n" +
			"bundle root, checked whole (--config names another file for lint's own keys).\n\n" +
			"text, pretty and github show errors and warnings (--min-severity info shows infos; what --fail-on\n" +
			"fails is always shown), show a finding alike in " + fmt.Sprint(lint.GroupMinFiles) + " files or more once with its count (--no-group\n" +
			"shows each), and end with a summary; json and sarif keep every finding.\n\n" +
			"Findings cite §4.1, a section of the OKF v0.2 spec (" + lint.SpecURL + "),\n" +
			"and D13, a decision in okf's readings of it (" + lint.DecisionsURL + ").\n\n" +
			"Exit codes: 0 no finding at or above --fail-on, 1 some (or more warnings than --max-warnings),\n" +
			"2 bad usage or configuration (a path in no bundle, a .okf.yaml with problems: --show-config prints\n" +
			"what is in force), 3 the bundle cannot be read or the output cannot be written.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output `FORMAT`: " + strings.Join(lint.Formats, ", ")},
			&cli.StringFlag{Name: "fail-on", Value: "error", Usage: "exit 1 when a finding is at least `SEVERITY`: error, warning or info"},
			&cli.StringFlag{Name: "min-severity", Usage: "show findings at least `SEVERITY` (error, warning or info); default for text, pretty and github warning (info with --fail-on info), the others counted in the summary; json and sarif keep every finding unless it is given"},
			&cli.BoolFlag{Name: "no-group", Usage: "in text, pretty and github, show every finding, not once a finding alike in " + fmt.Sprint(lint.GroupMinFiles) + " files or more"},
			&cli.IntFlag{Name: "max-warnings", Value: -1, Usage: "exit 1 when there are more than `N` warnings (-1: no limit)"},
			&cli.BoolFlag{Name: "list-rules", Usage: "list every rule (code, name, severity, source, title), or the rules named as arguments, and exit (-f json for JSON)"},
			&cli.StringFlag{Name: "explain", Usage: "print the documentation of rule `CODE` (or name, in any case) and exit"},
			&cli.StringFlag{Name: "now", Usage: "judge time as of `TIME` (RFC 3339, or a date for 00:00 UTC); default $OKF_NOW, else the clock"},
			&cli.StringFlag{Name: "expiring-within", Usage: "report concepts going stale within `DURATION` (30d, 720h); default: the configuration's, else 30d"},
			&cli.StringFlag{Name: "config", Usage: "read the configuration from `FILE` instead of <root>/.okf.yaml"},
			&cli.StringFlag{Name: "root", Usage: "the bundle root `DIR` of the paths named (default: found from them)"},
			&cli.StringFlag{Name: "baseline", Usage: "report only findings not recorded in the baseline `FILE`"},
			&cli.GenericFlag{Name: "write-baseline", Value: writeBaseline, Usage: "record the current findings as a baseline in <root>/" + defaultBaseline + ", or with `[=FILE]` in FILE, and exit 0"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the report to `FILE` (replaced atomically) instead of standard output"},
			alsoWriteFlag(alsoWrites),
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print the findings only: no summary line, no notes on standard error"},
			colorFlag(),
			maxFileSizeFlag(),
			&cli.BoolFlag{Name: "skip-unbundled", Usage: "leave out FILEs in no bundle (no .okf.yaml or index.md above them) instead of failing; for pre-commit hooks"},
			&cli.StringFlag{Name: "stdin-filename", Usage: "with - as the path: the concept on standard input is the file `PATH` of its bundle (default: stdin.md in the working directory)"},
			&cli.BoolFlag{Name: "fix", Usage: "apply the safe fixes of the rules that offer one (--list-rules), then report what is left"},
			&cli.BoolFlag{Name: "dry-run", Usage: "with --fix: write nothing; print the fixes as a unified diff"},
			&cli.BoolFlag{Name: "show-config", Usage: "print the configuration in force for each bundle named (every rule's severity, ignore, size limit, window, schemas, overrides) as YAML, and exit"},
		},
		Action: func(c *cli.Context) error {
			started := time.Now()
			if c.Bool("list-rules") {
				return listRules(e, c.Args().Slice(), c.String("format"))
			}
			if code := c.String("explain"); code != "" {
				return explainRule(e, code)
			}
			printer, err := lint.NewPrinter(c.String("format"))
			if err != nil {
				return usageErr("--format: %v", err)
			}
			also, err := parseAlsoWrite(alsoWrites.values, c.String("output"))
			if err != nil {
				return err
			}
			// Before anything is linted or fixed: --fix writes the bundle first.
			if err := notOverBundleFile(c.String("output")); err != nil {
				return err
			}
			failOn, err := okf.ParseSeverity(c.String("fail-on"))
			if err != nil {
				return usageErr("--fail-on: %v", err)
			}
			// The human formats show errors and warnings by default, and whatever fails the run
			// (--fail-on info); json and sarif keep every finding unless --min-severity is given.
			floor, floorSet := okf.Warning, c.IsSet("min-severity")
			if floorSet {
				if floor, err = okf.ParseSeverity(c.String("min-severity")); err != nil {
					return usageErr("--min-severity: %v", err)
				}
			} else if failOn > floor {
				floor = failOn
			}
			human := c.String("format") == "text" || c.String("format") == "pretty" || c.String("format") == "github"
			// What prints no report takes no report flags: they would be dropped without a word (a
			// CI step then fails later on a file that was never written).
			noReport := ""
			switch {
			case c.Bool("show-config"):
				noReport = "--show-config"
			case c.Bool("fix") && c.Bool("dry-run"):
				noReport = "--fix --dry-run"
			case writeBaseline.set:
				noReport = "--write-baseline"
			}
			for _, f := range []string{"format", "output", "also-write"} {
				if noReport != "" && c.IsSet(f) {
					return usageErr("%s prints no report: --%s does not go with it", noReport, f)
				}
			}
			maxWarnings := c.Int("max-warnings")
			if maxWarnings < -1 {
				return usageErr("--max-warnings: want a number of warnings, or -1 for no limit, got %d", maxWarnings)
			}
			var window time.Duration
			if s := c.String("expiring-within"); s != "" {
				if window, err = okf.ParseWindow(s); err != nil {
					return usageErr("--expiring-within: %v", err)
				}
				window = lint.WindowSetting(window)
			}
			now, err := okf.ResolveNow(c.String("now"), e.getenv)
			if err != nil {
				return usageErr("--now: %v", err)
			}
			limit, err := flagMaxFileSize(c)
			if err != nil {
				return err
			}
			req := lint.Request{Paths: c.Args().Slice(), Root: c.String("root"), SkipUnbundled: c.Bool("skip-unbundled"),
				StdinName: c.String("stdin-filename"), ConfigFile: c.String("config"), MaxFileSize: limit,
				Now: now, ExpiringWithin: window, ShowConfig: c.Bool("show-config"), Fix: c.Bool("fix"), DryRun: c.Bool("dry-run"),
				Baseline: c.String("baseline"), WriteBaseline: writeBaseline.set, BaselineFile: writeBaseline.value,
				WithFixes: c.String("format") == "sarif" || wantsSARIF(also)}
			if i := slices.Index(req.Paths, "-"); i >= 0 {
				// An editor's buffer: one concept on standard input, linted as the file
				// --stdin-filename names, in the context of its bundle on disk.
				req.Stdin, req.Paths = e.stdin, slices.Delete(req.Paths, i, i+1)
			}
			res, err := lint.Lint(c.Context, req)
			if len(res.Skipped) > 0 && !c.Bool("quiet") {
				fmt.Fprintf(e.stderr, "okf: skipped %s in no OKF bundle: %s\n", countOf(len(res.Skipped), "file"), escape.Control(strings.Join(res.Skipped, ", ")))
			}
			diffed := false
			for _, b := range res.Bundles {
				if b.Fix != nil {
					diffed = printFixes(e, b, req.DryRun, c.Bool("quiet")) || diffed
				}
			}
			if err != nil {
				return lintErr(err, req.BaselineFile)
			}
			switch {
			case req.ShowConfig:
				return lint.WriteShownConfig(e.stdout, res.Configs)
			case req.DryRun:
				// --fix --dry-run prints the diffs of the bundles it would change and nothing else,
				// so its output is a patch (empty when nothing would change).
				if !diffed && !c.Bool("quiet") {
					fmt.Fprintln(e.stderr, "okf: nothing to fix")
				}
				return nil
			case req.WriteBaseline && res.BaselineWritten != "":
				if !c.Bool("quiet") {
					fmt.Fprintf(e.stderr, "okf: recorded %s in %s\n", countOf(res.Recorded, "finding"), escape.Control(res.BaselineWritten))
				}
				return nil
			}
			report := res.Report
			report.Version = okfVersion()
			// When every FILE was left out (--skip-unbundled), nothing was linted: no summary.
			report.Quiet = c.Bool("quiet") || len(res.Bundles) == 0
			colour, err := useColor(c, e, c.String("output") != "")
			if err != nil {
				return err
			}
			all := report.Diagnostics // the exit code is the whole run's, shown or not
			report.FailOn, report.Group = failOn, !c.Bool("no-group")
			base := *report // before the stdout format's view: each --also-write makes its own
			view(report, human, floor, floorSet, all)
			if human && c.String("format") != "github" && c.String("output") == "" && isTerminal(e.stdout) {
				// Only a person at a terminal sees the time: a file or a pipe gets the same
				// bytes from every run.
				report.Elapsed = time.Since(started)
			}
			report.Color = colour && c.String("format") == "pretty"
			print := func(w io.Writer) error { return printer.Print(w, report) }
			if err := writeReport(e, c.String("output"), print, "cannot write the report"); err != nil {
				return err
			}
			if err := writeAlso(e, also, &base, floor, floorSet, all); err != nil {
				return err
			}
			ds := all
			_, warnings, _ := (&lint.Report{Diagnostics: all}).Counts()
			for _, d := range ds {
				if d.Severity <= failOn {
					return findings
				}
			}
			if maxWarnings >= 0 && warnings > maxWarnings {
				if c.Bool("quiet") {
					return findings
				}
				fmt.Fprintf(e.stderr, "okf: %s, more than --max-warnings %d\n", countOf(warnings, "warning"), maxWarnings)
				return findings
			}
			return nil
		},
	}
}

// pathErr turns an error about the paths named into its exit (openErr): a path in no bundle and
// other bad paths are usage errors (exit 2).
func pathErr(err error) error { return openErr(err, "") }

// lintPathErr is pathErr for okf lint, which can name the bundle of a file in none: --root.
func lintPathErr(err error) error {
	var nb *okf.NotBundleError
	if errors.As(err, &nb) && nb.File {
		return usageErr("%s (name its bundle with --root)", nb.Msg)
	}
	return pathErr(err)
}

// lintErr gives an error of lint.Lint its exit: the paths named and the configuration are usage
// errors (exit 2, lintPathErr); fixes refused were said file by file (exit 3); a baseline not
// written says how to name another file when none was named.
func lintErr(err error, baselineFile string) error {
	var be *lint.BaselineError
	switch {
	case errors.Is(err, lint.ErrFixRefused):
		return &exitError{code: exitFatal}
	case errors.As(err, &be):
		hint := ""
		if baselineFile == "" {
			hint = " (name the file with --write-baseline=FILE)"
		}
		return fatalErr("%v%s", be, hint)
	}
	return lintPathErr(err)
}

// displayPath shows a bundle path as a path from the working directory (lint.PathDisplay).
func displayPath(root, p string) string {
	return lint.PathDisplay(root)(p)
}

// newPathDisplay is displayPath(root, ·) for the many paths of one run (lint.PathDisplay).
func newPathDisplay(root string) func(string) string { return lint.PathDisplay(root) }

// atLeast returns the findings of ds at least as severe as floor (--min-severity with json or
// sarif, which otherwise keep every one).
func atLeast(ds []okf.Diagnostic, floor okf.Severity) []okf.Diagnostic {
	var out []okf.Diagnostic
	for _, d := range ds {
		if d.Severity <= floor {
			out = append(out, d)
		}
	}
	return out
}

func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// listRules lists every rule, or the rules named (codes or names, any case), as text or JSON.
func listRules(e *env, names []string, format string) error {
	rules := lint.All()
	if len(names) > 0 {
		rules = nil
		for _, n := range names {
			r := lint.LookupFold(n)
			if r == nil {
				return usageErr("--list-rules: %v", lint.UnknownRuleError(n))
			}
			rules = append(rules, r)
		}
	}
	if format != "text" && format != "pretty" && format != "json" {
		return usageErr("--list-rules prints text or json, not %q", format)
	}
	return lint.WriteRules(e.stdout, rules, format)
}

func explainRule(e *env, code string) error {
	r := lint.LookupFold(code)
	if r == nil {
		return usageErr("--explain: %v", lint.UnknownRuleError(code))
	}
	src := r.Source()
	if r.Decision != "" {
		src += ", decision " + r.Decision
	}
	if r.Fixable() {
		src += "; fixable with --fix"
	}
	fmt.Fprintf(e.stdout, "%s %s (%s; %s)\n\n%s\n\n%s\n", r.Code, r.Name, r.Severity, src, r.Title, r.Doc)
	if doc := lint.FixDocs[r.Code]; doc != "" {
		fmt.Fprintf(e.stdout, "\nFix (okf lint --fix): %s.\n", doc)
	}
	fmt.Fprintf(e.stdout, "\nDocumentation: %s\n", r.HelpURI())
	if r.Decision != "" {
		fmt.Fprintf(e.stdout, "Decision %s: %s\n", r.Decision, lint.DecisionsURL)
	}
	return nil
}

// view sets what a report shows in its format: human formats (text, pretty, github) apply the
// severity floor when printing, and machine formats (json, sarif) keep every finding unless
// --min-severity was given.
func view(r *lint.Report, human bool, floor okf.Severity, floorSet bool, all []okf.Diagnostic) {
	r.Diagnostics = all
	switch {
	case human:
		r.UseFloor, r.Floor = true, floor
	case floorSet:
		r.Diagnostics = atLeast(all, floor)
	}
}
