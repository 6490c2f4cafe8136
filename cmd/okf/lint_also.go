package main

import (
	"io"
	"path/filepath"
	"strings"

	"github.com/okf-tools/okf/lint"
	"github.com/okf-tools/okf/okf"
	"github.com/urfave/cli/v2"
)

// alsoWriteFlag is okf lint's --also-write FORMAT:FILE: the same run's report written again, in
// another format, to a file. The GitHub Action needs annotations on standard output and a SARIF
// file for code scanning; two runs would read the bundle twice and could disagree (a file changed
// in between, or the clock's date). The FORMAT:FILE pairs follow golangci-lint's
// --out-format=colored-line-number:stdout,sarif:report.sarif, but one pair per flag: a file name
// may hold a comma, which a cli.StringSliceFlag would split.
func alsoWriteFlag(v *repeatedValue) cli.Flag {
	return &cli.GenericFlag{Name: "also-write", Value: v, Usage: "also write the report in `FORMAT:FILE` (such as sarif:okf.sarif), from the same run; repeatable"}
}

// repeatedValue is a flag value that may be given several times, each value kept whole.
type repeatedValue struct{ values []string }

func (r *repeatedValue) String() string { return strings.Join(r.values, " ") }
func (r *repeatedValue) Set(s string) error {
	r.values = append(r.values, s)
	return nil
}

// alsoWrite is one --also-write pair.
type alsoWrite struct {
	format, path string
	printer      lint.Printer
}

// parseAlsoWrite checks the --also-write pairs before anything is linted: a known format, a file
// name, and no file written twice (-o included, since each write replaces the file).
func parseAlsoWrite(specs []string, output string) ([]alsoWrite, error) {
	var outs []alsoWrite
	seen := map[string]bool{}
	key := func(p string) string { // one file named two ways is one file
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
		return filepath.Clean(p)
	}
	if output != "" {
		seen[key(output)] = true
	}
	for _, s := range specs {
		format, path, ok := strings.Cut(s, ":") // formats have no colon; a Windows path may
		if !ok || format == "" || path == "" {
			return nil, usageErr("--also-write %q: want FORMAT:FILE, such as sarif:okf.sarif", s)
		}
		if path == "-" {
			return nil, usageErr("--also-write %q: FILE must be a file (standard output is -o's)", s)
		}
		p, err := lint.NewPrinter(format)
		if err != nil {
			return nil, usageErr("--also-write: %v", err)
		}
		if seen[key(path)] {
			return nil, usageErr("--also-write: %q is written twice", path)
		}
		if err := notOverBundleFile(path); err != nil {
			return nil, usageErr("--also-write: %v", err)
		}
		seen[key(path)] = true
		outs = append(outs, alsoWrite{format: format, path: path, printer: p})
	}
	return outs, nil
}

// wantsSARIF reports whether one of the pairs is SARIF, whose results carry the fixes left.
func wantsSARIF(outs []alsoWrite) bool {
	for _, o := range outs {
		if o.format == "sarif" {
			return true
		}
	}
	return false
}

// writeAlso writes each pair's report to its file, replaced atomically, without colour, as that
// format shows it on its own (-f FORMAT -o FILE): the floor of a human format, every finding in a
// machine format unless --min-severity was given, and never the time, since a file gets the same
// bytes from every run.
func writeAlso(e *env, outs []alsoWrite, base *lint.Report, floor okf.Severity, floorSet bool, all []okf.Diagnostic) error {
	for _, o := range outs {
		r := *base
		r.Color, r.Elapsed = false, 0
		view(&r, o.format == "text" || o.format == "pretty" || o.format == "github", floor, floorSet, all)
		p := o.printer
		if err := writeReport(e, o.path, func(w io.Writer) error { return p.Print(w, &r) }, "cannot write the report"); err != nil {
			return err
		}
	}
	return nil
}
