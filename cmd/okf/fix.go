package main

import (
	"fmt"
	"strings"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/lint"
	"github.com/okf-tools/okf/okf"
)

// applyFixes runs okf lint --fix on the bundle at root (lint.FixBundle) and prints what it did:
// files not fixed and why, rewrites refused (exit 3), and with dryRun the first round as a diff, and
// done is then true: nothing more to report. The caller loads the bundle again for its report.
func applyFixes(e *env, root string, load func() (*okf.Bundle, error), opts lint.Options, dryRun, quiet bool) (done bool, err error) {
	res, err := lint.FixBundle(root, load, opts, dryRun)
	for _, f := range res.Unproven {
		// Not written: its findings stay in the report.
		fmt.Fprintf(e.stderr, "okf: %s: not fixed: %s\n", escape.LineStart(displayPath(root, f.Path)), escape.Control(f.Unproven.Error()))
	}
	if err != nil {
		return false, fatalErr("%v", err)
	}
	if dryRun && len(res.Preview) > 0 {
		var d strings.Builder
		for _, f := range res.Preview {
			d.WriteString(okf.UnifiedDiff(displayPath(root, f.Path), f.Old, f.Edits))
		}
		fmt.Fprint(e.stdout, escapeDiff(d.String()))
		return true, nil
	}
	for _, p := range res.Refused {
		pos := okf.Position{Path: displayPath(root, p.Path), Line: 1, Col: 1}
		fmt.Fprintf(e.stderr, "okf: %s: %s\n", escape.LineStart(pos.String()), escape.Control(p.Why))
	}
	if len(res.Refused) > 0 {
		return false, &exitError{code: exitFatal}
	}
	if res.Fixed > 0 && !quiet {
		fmt.Fprintf(e.stderr, "okf: fixed %s in %s\n", countOf(res.Fixed, "finding"), countOf(len(res.Files), "file"))
	}
	return false, nil
}
