package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/lint"
	"github.com/okf-tools/okf/okf"
)

// printFixes prints what okf lint --fix did to one bundle (lint.BundleRun.Fix): files not fixed
// and why, then (unless the fixing failed) rewrites refused, and with dryRun the first round as a
// diff, and diffed is then true.
func printFixes(e *env, b lint.BundleRun, dryRun, quiet bool) (diffed bool) {
	res, show := b.Fix, b.Display
	// A bundle whose fixing failed says only what it did not fix; one whose fixes were all written
	// says what it fixed even when loading it again failed (b.Err without b.FixErr).
	failed := b.FixErr != nil && !errors.Is(b.FixErr, lint.ErrFixRefused)
	for _, f := range res.Unproven {
		// Not written: its findings stay in the report.
		fmt.Fprintf(e.stderr, "okf: %s: not fixed: %s\n", escape.LineStart(show(f.Path)), escape.Control(f.Unproven.Error()))
	}
	if failed {
		return false
	}
	if dryRun && len(res.Preview) > 0 {
		var d strings.Builder
		for _, f := range res.Preview {
			d.WriteString(okf.UnifiedDiff(show(f.Path), f.Old, f.Edits))
		}
		fmt.Fprint(e.stdout, escapeDiff(d.String()))
		return true
	}
	for _, p := range res.Refused {
		pos := okf.Position{Path: show(p.Path), Line: 1, Col: 1}
		fmt.Fprintf(e.stderr, "okf: %s: %s\n", escape.LineStart(pos.String()), escape.Control(p.Why))
	}
	if len(res.Refused) == 0 && res.Fixed > 0 && !quiet {
		fmt.Fprintf(e.stderr, "okf: fixed %s in %s\n", countOf(res.Fixed, "finding"), countOf(len(res.Files), "file"))
	}
	return false
}
