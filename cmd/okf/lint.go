package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing/fstest"
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
			var targets []lint.Target
			var stdin *stdinFile
			if args := c.Args().Slice(); slices.Contains(args, "-") {
				// An editor's buffer: one concept on standard input, linted as the file
				// --stdin-filename names, in the context of its bundle on disk.
				if len(args) != 1 {
					return usageErr("- (standard input) cannot be mixed with other paths")
				}
				name := c.String("stdin-filename")
				if name == "" {
					name = "stdin.md"
				}
				t, err := lint.ResolveStdin(name, c.String("root"))
				if err != nil {
					return lintPathErr(err)
				}
				max := limit
				if max == 0 {
					max = okf.DefaultMaxFileSize
				}
				data, err := okf.ReadLimit(e.stdin, "<stdin>", max)
				if err != nil {
					return fatalErr("cannot read standard input: %v", unwrapPathErr(err))
				}
				targets, stdin = []lint.Target{t}, &stdinFile{path: t.Files[0], data: data}
			} else {
				if c.String("stdin-filename") != "" {
					return usageErr("--stdin-filename names the file read from standard input: give - as the path")
				}
				var skipped []string
				targets, skipped, err = lint.ResolveTargets(args, c.String("root"), c.Bool("skip-unbundled"))
				if err != nil {
					return lintPathErr(err)
				}
				if len(skipped) > 0 && !c.Bool("quiet") {
					fmt.Fprintf(e.stderr, "okf: skipped %s in no OKF bundle: %s\n", countOf(len(skipped), "file"), escape.Control(strings.Join(skipped, ", ")))
				}
			}
			if c.Bool("show-config") {
				return showConfig(e, targets, c.String("config"), limit, window)
			}
			if c.Bool("dry-run") && !c.Bool("fix") {
				return usageErr("--dry-run goes with --fix")
			}
			if c.Bool("fix") && stdin != nil {
				return usageErr("--fix writes files: it cannot fix standard input")
			}
			if len(targets) > 1 && (writeBaseline.set || c.String("baseline") != "") {
				return usageErr("--baseline and --write-baseline take one bundle; the paths named are in %d (%s)", len(targets), bundleList(targets))
			}
			opts := lint.Options{Now: now, ExpiringWithin: window}
			if p := c.String("baseline"); p != "" && len(targets) > 0 {
				rb, err := okf.OpenBundle(targets[0].Root, limit)
				if err != nil {
					return fatalErr("%v", err)
				}
				data, err := rb.ReadPath(p) // confined when inside the bundle
				if err != nil {
					return usageErr("--baseline: cannot read %q: %v", p, unwrapPathErr(err))
				}
				if opts.Baseline, err = lint.ParseBaseline(data); err != nil {
					return usageErr("--baseline %q: %v", p, err)
				}
			}
			fix := fixMode{enabled: c.Bool("fix"), dryRun: c.Bool("dry-run"), sarif: c.String("format") == "sarif" || wantsSARIF(also), quiet: c.Bool("quiet")}
			var runs []lintRun
			diffed := false
			for _, t := range targets {
				r, err := lintTarget(e, t, c.String("config"), limit, opts, stdin, fix)
				if err != nil {
					return err
				}
				if fix.dryRun {
					diffed = diffed || r.diffed
					continue
				}
				if writeBaseline.set {
					return writeBaselineFile(e, r.ds, t.Root, writeBaseline.value, c.Bool("quiet"))
				}
				runs = append(runs, r)
			}
			if fix.dryRun {
				// --fix --dry-run prints the diffs of the bundles it would change and nothing else,
				// so its output is a patch (empty when nothing would change).
				if !diffed && !c.Bool("quiet") {
					fmt.Fprintln(e.stderr, "okf: nothing to fix")
				}
				return nil
			}
			report := combine(runs)
			report.Version = okfVersion()
			// When every FILE was left out (--skip-unbundled), nothing was linted: no summary.
			report.Quiet = c.Bool("quiet") || len(runs) == 0
			colour, err := useColor(c, e, c.String("output") != "")
			if err != nil {
				return err
			}
			all := report.Diagnostics // the exit code is the whole run's, shown or not
			report.FailOn, report.Group = failOn, !c.Bool("no-group")
			for _, r := range runs {
				report.Files += r.files
			}
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

func bundleList(ts []lint.Target) string {
	var roots []string
	for _, t := range ts {
		roots = append(roots, filepath.ToSlash(t.Root))
	}
	return strings.Join(roots, ", ")
}

// showConfig prints the configuration in force for each bundle (okf lint --show-config), read as a
// run reads it: a configuration with problems is the same exit 2.
func showConfig(e *env, targets []lint.Target, configFlag string, limit int64, window time.Duration) error {
	var shown []lint.ShownConfig
	for _, t := range targets {
		o, err := okf.Open(t.Root, limit)
		if err != nil {
			return openErr(err, "")
		}
		cfg, display, err := lint.LoadConfig(o, configFlag)
		o.Root.Close()
		if err != nil {
			return openErr(err, "")
		}
		src := display
		switch {
		case src == "" && cfg != nil:
			src = filepath.ToSlash(filepath.Join(t.Root, cfg.Path))
		}
		shown = append(shown, lint.ShownConfig{Bundle: filepath.ToSlash(t.Root), Source: src, Config: cfg, MaxFileSize: o.Root.MaxFileSize(), ExpiringWithin: window})
	}
	return lint.WriteShownConfig(e.stdout, shown)
}

// stdinFile is the concept read from standard input and its slash path in the bundle.
type stdinFile struct {
	path string
	data []byte
}

// lintRun is the result of linting one bundle: its findings and how to show and read them.
type lintRun struct {
	ds       []okf.Diagnostic
	fixes    map[okf.Diagnostic]lint.Fix // for SARIF's fixes[] (nil unless -f sarif)
	display  func(string) string
	readFile func(string) ([]byte, error)
	diffed   bool // --fix --dry-run printed this bundle's diff (with --dry-run nothing else is reported)
	files    int  // the Markdown files checked (those reported on: under a folder or named)
}

// fixMode is what --fix and --dry-run ask of each bundle linted, and whether the report is SARIF
// (which carries the fixes left).
type fixMode struct{ enabled, dryRun, sarif, quiet bool }

// lintTarget loads one bundle with its configuration and lints it. Every file of the bundle is
// read through its Root: confined to it, regular files only, at most the size limit each (--max-file-size,
// else the configuration's max_file_size, else the default).
func lintTarget(e *env, t lint.Target, configFlag string, limit int64, opts lint.Options, stdin *stdinFile, fix fixMode) (lintRun, error) {
	o, err := okf.Open(t.Root, limit)
	if err != nil {
		return lintRun{}, openErr(err, "")
	}
	r := o.Root
	cfg, cfgDisplay, err := lint.LoadConfig(o, configFlag)
	if err != nil {
		return lintRun{}, openErr(err, "")
	}
	ignore := o.Settings.Ignore
	// The schema check runs as each frontmatter is parsed, not on a second parse (not with --fix,
	// which lints bundles loaded again).
	var fsys fs.FS = r
	switch {
	case stdin != nil && t.Alone:
		// No bundle above: the concept alone, not the folder around it.
		fsys, ignore = okf.Overlay(fstest.MapFS{}, stdin.path, stdin.data), nil
	case stdin != nil:
		fsys = okf.Overlay(r, stdin.path, stdin.data)
	}
	lo := okf.LoadOptions{Ignore: ignore}
	if !fix.enabled {
		if opts.Schemas = lint.NewSchemaCheck(fsys, cfg); opts.Schemas != nil {
			lo.OnFrontmatter = opts.Schemas.OnFrontmatter
		}
	}
	opts.Config = cfg
	opts.Filter = t.Filter()
	// The per-concept rules run as each concept loads, and the bundle is not held whole (see
	// lint.Stream; SARIF's fixes read the few files they fix again); not with --fix, which loads
	// the bundle again for each round.
	var stream *lint.Stream
	if !fix.enabled {
		stream = lint.NewStream(opts)
		lo.OnConcept = stream.OnConcept
	}
	var b *okf.Bundle
	if !fix.enabled { // --fix loads the bundle itself, once per round
		if stdin != nil {
			b, err = okf.Load(fsys, lo)
		} else {
			b, err = okf.LoadRoot(r, lo)
		}
		if err != nil {
			return lintRun{}, fatalErr("%v", err)
		}
	} else {
		load := func() (*okf.Bundle, error) { return okf.LoadRoot(r, okf.LoadOptions{Ignore: ignore}) }
		done, err := applyFixes(e, t.Root, load, opts, fix.dryRun, fix.quiet)
		if err != nil {
			return lintRun{}, err
		}
		if fix.dryRun {
			return lintRun{diffed: done}, nil
		}
		if b, err = load(); err != nil {
			return lintRun{}, fatalErr("%v", err)
		}
	}
	var ds []okf.Diagnostic
	if stream != nil {
		ds = stream.Finish(b)
	} else {
		ds = lint.Run(b, opts)
	}
	var fixes map[okf.Diagnostic]lint.Fix
	if fix.sarif {
		fixes = lint.Fixes(b, ds)
	}
	isCfg := func(p string) bool { return cfg != nil && cfgDisplay != "" && p == cfg.Path }
	show := newPathDisplay(t.Root)
	return lintRun{
		ds:    ds,
		fixes: fixes,
		files: checkedFiles(b, opts.Filter),
		display: func(p string) string {
			if isCfg(p) {
				return cfgDisplay
			}
			return show(p)
		},
		readFile: func(p string) ([]byte, error) {
			if isCfg(p) {
				return okf.ReadFileLimit(cfgDisplay, r.MaxFileSize()) // a --config file outside the bundle
			}
			return b.ReadFile(p)
		},
	}, nil
}

// checkedFiles counts the Markdown files of b that the run reports on: its concepts, indexes and
// logs, those keep accepts (nil: all).
func checkedFiles(b *okf.Bundle, keep func(string) bool) int {
	n := 0
	count := func(p string) {
		if keep == nil || keep(p) {
			n++
		}
	}
	for _, c := range b.Concepts {
		count(c.Path)
	}
	for _, x := range b.Indexes {
		count(x.Path)
	}
	for _, l := range b.Logs {
		count(l.Path)
	}
	return n
}

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

// combine makes one report of the runs over one or more bundles. With several, each finding's path
// becomes the path shown (bundles share paths such as index.md), and the findings are sorted again;
// the report keeps each one's bundle path for SARIF's fingerprints, which do not change when other
// bundles join the run.
func combine(runs []lintRun) *lint.Report {
	if len(runs) == 1 {
		r := runs[0]
		return &lint.Report{Diagnostics: r.ds, DisplayPath: r.display, ReadFile: r.readFile, Fixes: r.fixes}
	}
	var ds []okf.Diagnostic
	var fixes map[okf.Diagnostic]lint.Fix
	reader := map[string]func() ([]byte, error){}
	bundlePath := map[string]string{}
	for _, r := range runs {
		for _, d := range r.ds {
			orig := d
			p := d.Pos.Path
			d.Pos.Path = r.display(p)
			bundlePath[d.Pos.Path] = p
			read := r.readFile
			reader[d.Pos.Path] = func() ([]byte, error) { return read(p) }
			if f, ok := r.fixes[orig]; ok {
				if fixes == nil {
					fixes = map[okf.Diagnostic]lint.Fix{}
				}
				f.Path = r.display(f.Path)
				fixes[d] = f
			}
			ds = append(ds, d)
		}
	}
	return &lint.Report{Diagnostics: okf.SortDiagnostics(ds), Fixes: fixes, BundlePath: func(p string) string {
		if bp, ok := bundlePath[p]; ok {
			return bp
		}
		return p
	}, ReadFile: func(p string) ([]byte, error) {
		if f := reader[p]; f != nil {
			return f()
		}
		return nil, fs.ErrNotExist
	}}
}

func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func writeBaselineFile(e *env, ds []okf.Diagnostic, root, file string, quiet bool) error {
	written, err := lint.WriteBaseline(root, file, ds)
	if err != nil {
		if errors.Is(err, okf.ErrLocked) {
			return fatalErr("%v", err)
		}
		hint := ""
		if file == "" {
			hint = " (name the file with --write-baseline=FILE)"
		}
		return fatalErr("cannot write %q: %v%s", filepath.ToSlash(written), unwrapPathErr(err), hint)
	}
	if quiet {
		return nil
	}
	fmt.Fprintf(e.stderr, "okf: recorded %s in %s\n", countOf(len(ds), "finding"), escape.Control(filepath.ToSlash(written)))
	return nil
}

// displayPath shows a bundle path as a path from the working directory, so editors and CI can open
// it (a bundle found above the working directory shows as "a.md", not "../sub/a.md"); under a root
// written as an absolute path, as an absolute path.
func displayPath(root, p string) string {
	return newPathDisplay(root)(p)
}

// newPathDisplay returns displayPath(root, ·) for the many findings of one run: the working
// directory is read once, not per finding (os.Getwd costs stat calls), and each path's answer is
// remembered, since a report names the same files over and over.
func newPathDisplay(root string) func(string) string {
	wd, wdErr := "", error(nil)
	if !filepath.IsAbs(root) {
		wd, wdErr = os.Getwd()
	}
	var mu sync.Mutex
	shown := map[string]string{}
	return func(p string) string {
		if p == "" {
			return p
		}
		mu.Lock()
		s, ok := shown[p]
		mu.Unlock()
		if ok {
			return s
		}
		full := filepath.Join(root, filepath.FromSlash(p))
		if !filepath.IsAbs(root) && wdErr == nil {
			abs := full // as filepath.Abs does: an absolute path is cleaned, another joined to wd
			if !filepath.IsAbs(full) {
				abs = filepath.Join(wd, full)
			}
			if rel, err := filepath.Rel(wd, abs); err == nil {
				full = rel
			}
		}
		s = filepath.ToSlash(full)
		mu.Lock()
		shown[p] = s
		mu.Unlock()
		return s
	}
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
