package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/okf-tools/okf/lint"
	"github.com/okf-tools/okf/okf"
	"github.com/urfave/cli/v2"
)

// defaultBaseline is where --write-baseline writes when no file is named: a hidden file at the
// bundle root, so it is never taken for a concept (D5).
const defaultBaseline = ".okf-baseline.json"

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
	return &cli.Command{
		Name:      "lint",
		Usage:     "check a bundle for OKF v0.2 conformance (§11) and hygiene",
		ArgsUsage: "[PATH | FILE...]",
		Description: "Lints the bundle at PATH (default: the current directory), or just the FILEs named, in the\n" +
			"context of their bundle (found by walking up to .okf.yaml or the topmost index.md; --root names it).\n" +
			"Configuration is read from .okf.yaml at the bundle root (--config names another file).\n\n" +
			"Exit codes: 0 no finding at or above --fail-on, 1 some (or more warnings than --max-warnings),\n" +
			"2 bad usage, 3 the bundle cannot be read or the output cannot be written.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output `FORMAT`: " + strings.Join(lint.Formats, ", ")},
			&cli.StringFlag{Name: "fail-on", Value: "error", Usage: "exit 1 when a finding is at least `SEVERITY`: error, warning or info"},
			&cli.IntFlag{Name: "max-warnings", Value: -1, Usage: "exit 1 when there are more than `N` warnings (-1: no limit)"},
			&cli.BoolFlag{Name: "list-rules", Usage: "list every rule (code, name, severity, source, title) and exit"},
			&cli.StringFlag{Name: "explain", Usage: "print the documentation of rule `CODE` (or name) and exit"},
			&cli.StringFlag{Name: "now", Usage: "judge time as of `TIME` (RFC 3339, or a date for 00:00 UTC); default $OKF_NOW, else the clock"},
			&cli.StringFlag{Name: "expiring-within", Usage: "report concepts going stale within `DURATION` (30d, 720h); default: the configuration's, else 30d"},
			&cli.StringFlag{Name: "config", Usage: "read the configuration from `FILE` instead of <root>/.okf.yaml"},
			&cli.StringFlag{Name: "root", Usage: "the bundle root `DIR` of the FILEs named (default: found from the files)"},
			&cli.StringFlag{Name: "baseline", Usage: "report only findings not recorded in the baseline `FILE`"},
			&cli.GenericFlag{Name: "write-baseline", Value: writeBaseline, Usage: "record the current findings as a baseline in <root>/" + defaultBaseline + ", or with `[=FILE]` in FILE, and exit 0"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the report to `FILE` (replaced atomically) instead of standard output"},
		},
		Action: func(c *cli.Context) error {
			if c.Bool("list-rules") {
				return listRules(e)
			}
			if code := c.String("explain"); code != "" {
				return explainRule(e, code)
			}
			printer, err := lint.NewPrinter(c.String("format"))
			if err != nil {
				return usageErr("--format: %v", err)
			}
			failOn, err := okf.ParseSeverity(c.String("fail-on"))
			if err != nil {
				return usageErr("--fail-on: %v", err)
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
			t, err := resolveTarget(c.Args().Slice(), c.String("root"))
			if err != nil {
				return err
			}
			cfg, cfgDisplay, err := loadConfig(t.root, c.String("config"))
			if err != nil {
				return err
			}
			var ignore []string
			if cfg != nil {
				ignore = cfg.Ignore
			}
			b, err := okf.LoadDir(t.root, okf.LoadOptions{Ignore: ignore})
			if err != nil {
				return fatalErr("%v", err)
			}
			opts := lint.Options{Now: now, ExpiringWithin: window, Config: cfg, Files: t.files}
			if writeBaseline.set {
				return writeBaselineFile(e, b, opts, t.root, writeBaseline.value)
			}
			if p := c.String("baseline"); p != "" {
				data, err := os.ReadFile(p)
				if err != nil {
					return usageErr("--baseline: cannot read %q: %v", p, unwrapPathErr(err))
				}
				if opts.Baseline, err = lint.ParseBaseline(data); err != nil {
					return usageErr("--baseline %q: %v", p, err)
				}
			}
			ds := lint.Run(b, opts)
			display := func(p string) string {
				if cfg != nil && cfgDisplay != "" && p == cfg.Path {
					return cfgDisplay
				}
				return displayPath(t.display, p)
			}
			readFile := func(p string) ([]byte, error) {
				if cfg != nil && cfgDisplay != "" && p == cfg.Path {
					return os.ReadFile(cfgDisplay) // a --config file outside the bundle
				}
				return b.ReadFile(p)
			}
			report := &lint.Report{Diagnostics: ds, DisplayPath: display, ReadFile: readFile, Version: okfVersion()}
			var buf bytes.Buffer
			if err := printer.Print(&buf, report); err != nil {
				return fatalErr("%v", err)
			}
			if out := c.String("output"); out != "" {
				if err := okf.WriteFileAtomic(out, buf.Bytes(), 0o644); err != nil {
					return fatalErr("cannot write %q: %v", out, unwrapPathErr(err))
				}
			} else if _, err := e.stdout.Write(buf.Bytes()); err != nil {
				return fatalErr("cannot write the report: %v", err)
			}
			_, warnings, _ := report.Counts()
			for _, d := range ds {
				if d.Severity <= failOn {
					return findings
				}
			}
			if maxWarnings >= 0 && warnings > maxWarnings {
				fmt.Fprintf(e.stderr, "okf: %s, more than --max-warnings %d\n", countOf(warnings, "warning"), maxWarnings)
				return findings
			}
			return nil
		},
	}
}

// target is what okf lint was asked to check: a bundle root, how to show paths under it, and
// optionally the files (slash paths from the root) whose findings to report.
type target struct {
	root, display string
	files         []string
}

// resolveTarget reads the positional arguments: none (the current directory, or --root), one
// directory (the bundle root), or files, whose bundle root is --root or found from the first file.
func resolveTarget(args []string, rootFlag string) (target, error) {
	if len(args) == 0 {
		root := rootFlag
		if root == "" {
			root = "."
		}
		return target{root: root, display: root}, nil
	}
	if len(args) == 1 {
		st, err := os.Stat(args[0])
		if err != nil || st.IsDir() {
			// A directory is the bundle root; a path that cannot be read is taken for one too, so
			// that loading it says why it is unusable (exit 3).
			if rootFlag != "" {
				return target{}, usageErr("--root names the bundle of FILE arguments; %q is a directory: lint it as the bundle, without --root", args[0])
			}
			return target{root: args[0], display: args[0]}, nil
		}
	}
	for _, a := range args {
		if st, err := os.Stat(a); err == nil && st.IsDir() {
			return target{}, usageErr("%q is a directory: lint takes one bundle path, or files of one bundle", a)
		}
	}
	root := rootFlag
	if root == "" {
		first, err := filepath.Abs(args[0])
		if err != nil {
			return target{}, usageErr("%v", err)
		}
		found, ok := findRoot(filepath.Dir(first))
		if !ok {
			return target{}, usageErr("cannot find the bundle of %q: no .okf.yaml or index.md above it (name the bundle with --root)", args[0])
		}
		root = found
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return target{}, usageErr("%v", err)
	}
	t := target{root: root, display: relToCwd(absRoot)}
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return target{}, usageErr("cannot lint %q: %v", a, unwrapPathErr(err))
		}
		if st.IsDir() {
			return target{}, usageErr("%q is a directory: lint takes one bundle path, or files of one bundle", a)
		}
		abs, _ := filepath.Abs(a)
		rel, err := filepath.Rel(absRoot, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return target{}, usageErr("%q is outside the bundle %q", a, t.display)
		}
		t.files = append(t.files, filepath.ToSlash(rel))
	}
	return t, nil
}

// findRoot walks up from dir to the bundle root: the nearest folder holding .okf.yaml, else the
// topmost folder of the unbroken chain of folders holding an index.md (every folder of a bundle may
// have its own index.md, §8, so the nearest one is usually not the root).
func findRoot(dir string) (string, bool) {
	has := func(d, name string) bool {
		_, err := os.Stat(filepath.Join(d, name))
		return err == nil
	}
	candidate := ""
	for d := dir; ; d = filepath.Dir(d) {
		if has(d, lint.ConfigName) {
			return d, true
		}
		if has(d, "index.md") {
			candidate = d
		} else if candidate != "" {
			return candidate, true
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return candidate, candidate != ""
}

// relToCwd shows an absolute path relative to the working directory ("..", "../.." included), as
// every path okf prints is.
func relToCwd(abs string) string {
	wd, err := os.Getwd()
	if err != nil {
		return abs
	}
	rel, err := filepath.Rel(wd, abs)
	if err != nil {
		return abs
	}
	return rel
}

// loadConfig reads --config, or <root>/.okf.yaml when it exists. The Config's Path is the slash path
// from the root when the file is inside the bundle; otherwise display is how to show it.
func loadConfig(root, flag string) (cfg *lint.Config, display string, err error) {
	path := flag
	if path == "" {
		path = filepath.Join(root, lint.ConfigName)
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, "", nil
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		if flag != "" {
			return nil, "", usageErr("--config: cannot read %q: %v", flag, unwrapPathErr(err))
		}
		return nil, "", fatalErr("cannot read %q: %v", path, unwrapPathErr(err))
	}
	name := filepath.ToSlash(path)
	absRoot, err1 := filepath.Abs(root)
	absCfg, err2 := filepath.Abs(path)
	if err1 == nil && err2 == nil {
		if rel, err := filepath.Rel(absRoot, absCfg); err == nil && !strings.HasPrefix(rel, "..") {
			return lint.ParseConfig(filepath.ToSlash(rel), data), "", nil
		}
	}
	return lint.ParseConfig(name, data), name, nil
}

func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func writeBaselineFile(e *env, b *okf.Bundle, opts lint.Options, root, path string) error {
	if path == "" {
		path = filepath.Join(root, defaultBaseline)
		// The default file is in the bundle, which may come from a stranger: a symbolic link there
		// must not make okf write outside the bundle. A file the user names is written through.
		if !resolvesInside(root, path) {
			return fatalErr("cannot write %q: it is a symbolic link that leaves the bundle (name the file with --write-baseline=FILE)", filepath.ToSlash(path))
		}
	}
	ds := lint.Run(b, opts)
	if err := okf.WriteFileAtomic(path, lint.NewBaseline(ds).Marshal(), 0o644); err != nil {
		return fatalErr("cannot write %q: %v", path, unwrapPathErr(err))
	}
	fmt.Fprintf(e.stderr, "okf: recorded %s in %s\n", countOf(len(ds), "finding"), okf.EscapeControl(filepath.ToSlash(path)))
	return nil
}

// resolvesInside reports whether p, with every symbolic link followed, is inside root (true when p
// does not exist yet or is not a link).
func resolvesInside(root, p string) bool {
	if fi, err := os.Lstat(p); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return true
	}
	realRoot, err1 := filepath.EvalSymlinks(root)
	dir, err2 := filepath.EvalSymlinks(filepath.Dir(p))
	if err1 != nil || err2 != nil {
		return false
	}
	cur := filepath.Join(dir, filepath.Base(p))
	for range 40 {
		fi, err := os.Lstat(cur)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			break
		}
		link, err := os.Readlink(cur)
		if err != nil {
			return false
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(cur), link)
		}
		if d, err := filepath.EvalSymlinks(filepath.Dir(link)); err == nil {
			link = filepath.Join(d, filepath.Base(link))
		}
		cur = link
	}
	rel, err := filepath.Rel(realRoot, cur)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// displayPath shows a bundle path as a path from the working directory, so editors and CI can open it.
func displayPath(root, p string) string {
	if root == "." || root == "" {
		return p
	}
	return filepath.ToSlash(filepath.Join(root, filepath.FromSlash(p)))
}

func listRules(e *env) error {
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CODE\tNAME\tSEVERITY\tSOURCE\tTITLE")
	for _, r := range lint.All() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Code, r.Name, r.Severity, r.Source(), r.Title)
	}
	return tw.Flush()
}

func explainRule(e *env, code string) error {
	r := lint.Lookup(code)
	if r == nil {
		return usageErr("--explain: unknown rule %q (okf lint --list-rules lists them)", code)
	}
	src := r.Source()
	if r.Decision != "" {
		src += ", decision " + r.Decision
	}
	fmt.Fprintf(e.stdout, "%s %s (%s; %s)\n\n%s\n\n%s\n", r.Code, r.Name, r.Severity, src, r.Title, r.Doc)
	return nil
}
