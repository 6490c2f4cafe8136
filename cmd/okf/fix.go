package main

import (
	"fmt"
	"strings"

	"github.com/okf-tools/okf/lint"
	"github.com/okf-tools/okf/okf"
)

// maxFixRounds bounds okf lint --fix: a fix left out because it overlapped another in the same
// file is applied in the next round, so one --fix does what --fix twice would.
const maxFixRounds = 5

// applyFixes runs okf lint --fix on the bundle at root: load reads it (through its okf.Root, with
// the configuration's ignore list and size limit), the safe fixes of the findings lint reports with
// opts are written, and the bundle is read again, for up to maxFixRounds rounds. With dryRun the
// first round is printed as a diff and done is true: nothing more to report. The caller loads the
// bundle again for its report. Files are written the one way okf edits a bundle (okf.ApplyChanges):
// only when unchanged since read, never through a symbolic link, atomically, under the bundle lock.
func applyFixes(e *env, root string, load func() (*okf.Bundle, error), opts lint.Options, dryRun, quiet bool) (done bool, err error) {
	if !dryRun {
		// The lock okf gen, okf index and okf migrate take: no two writers interleave in one bundle.
		unlock, err := okf.LockBundle(root, "okf lint --fix")
		if err != nil {
			return false, fatalErr("%v", err)
		}
		defer unlock()
	}
	fixed, files, unproven := 0, map[string]bool{}, map[string]bool{}
	for round := 0; round < maxFixRounds; round++ {
		b, err := load()
		if err != nil {
			return false, fatalErr("%v", err)
		}
		ds := lint.Run(b, opts)
		var plan []lint.FileFix
		for _, f := range lint.PlanFixes(b, ds, lint.Fixes(b, ds)) {
			if f.Unproven != nil {
				// Not written: its findings stay in the report.
				if !unproven[f.Path] {
					fmt.Fprintf(e.stderr, "okf: %s: not fixed: %s\n", okf.EscapeLineStart(displayPath(root, f.Path)), okf.EscapeControl(f.Unproven.Error()))
				}
				unproven[f.Path] = true
				continue
			}
			plan = append(plan, f)
		}
		if len(plan) == 0 {
			break
		}
		if dryRun {
			var d strings.Builder
			for _, f := range plan {
				d.WriteString(okf.UnifiedDiff(displayPath(root, f.Path), f.Old, f.Edits))
			}
			fmt.Fprint(e.stdout, escapeDiff(d.String()))
			return true, nil
		}
		var changes []okf.FileChange
		for _, f := range plan {
			changes = append(changes, f.FileChange)
			fixed += len(f.Fixed)
			files[f.Path] = true
		}
		_, refused, err := okf.ApplyChanges(root, changes)
		if err != nil {
			return false, fatalErr("%v", err)
		}
		for _, p := range refused {
			pos := okf.Position{Path: displayPath(root, p.Path), Line: 1, Col: 1}
			fmt.Fprintf(e.stderr, "okf: %s: %s\n", okf.EscapeLineStart(pos.String()), okf.EscapeControl(p.Why))
		}
		if len(refused) > 0 {
			return false, &exitError{code: exitFatal}
		}
	}
	if fixed > 0 && !quiet {
		fmt.Fprintf(e.stderr, "okf: fixed %s in %s\n", countOf(fixed, "finding"), countOf(len(files), "file"))
	}
	return false, nil
}
