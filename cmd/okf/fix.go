package main

import (
	"fmt"
	"strings"

	"github.com/okf-tools/okf/generate"
	"github.com/okf-tools/okf/lint"
	"github.com/okf-tools/okf/migrate"
	"github.com/okf-tools/okf/okf"
)

// maxFixRounds bounds okf lint --fix: a fix left out because it overlapped another in the same
// file is applied in the next round, so one --fix does what --fix twice would.
const maxFixRounds = 5

// applyFixes runs okf lint --fix: the safe fixes of the findings are written (or, with dryRun,
// printed as a diff and nil returned: nothing more to report), and the bundle is loaded again for
// the report of what is left. Files are written as okf migrate writes them (migrate.Apply): only
// when unchanged since read, never through a symbolic link, atomically.
func applyFixes(e *env, b *okf.Bundle, opts lint.Options, root string, r *okf.Root, ignore []string, dryRun bool) (*okf.Bundle, error) {
	if !dryRun {
		// The lock okf gen, okf index and okf migrate take: no two writers interleave in one bundle.
		unlock, err := generate.Lock(root)
		if err != nil {
			return nil, fatalErr("%v", err)
		}
		defer unlock()
	}
	fixed, files := 0, map[string]bool{}
	for round := 0; round < maxFixRounds; round++ {
		ds := lint.Run(b, opts)
		plan := lint.PlanFixes(b, ds, lint.Fixes(b, ds))
		if len(plan) == 0 {
			break
		}
		if dryRun {
			var d strings.Builder
			for _, f := range plan {
				d.WriteString(okf.UnifiedDiff(displayPath(root, f.Path), f.Old, f.Edits))
			}
			fmt.Fprint(e.stdout, escapeDiff(d.String()))
			return nil, nil
		}
		mp := &migrate.Plan{}
		for _, f := range plan {
			mp.Changes = append(mp.Changes, migrate.Change{Path: f.Path, Old: f.Old, New: f.New, Edits: f.Edits})
			fixed += len(f.Fixed)
			files[f.Path] = true
		}
		_, refused, err := migrate.Apply(root, mp)
		if err != nil {
			return nil, fatalErr("%v", err)
		}
		for _, p := range refused {
			pos := p.Pos
			pos.Path = displayPath(root, pos.Path)
			fmt.Fprintf(e.stderr, "okf: %s: %s\n", okf.EscapeLineStart(pos.String()), okf.EscapeControl(p.Message))
		}
		if b, err = okf.LoadRoot(r, okf.LoadOptions{Ignore: ignore}); err != nil {
			return nil, fatalErr("%v", err)
		}
		if len(refused) > 0 {
			return nil, &exitError{code: exitFatal}
		}
	}
	if fixed > 0 {
		fmt.Fprintf(e.stderr, "okf: fixed %s in %s\n", countOf(fixed, "finding"), countOf(len(files), "file"))
	}
	return b, nil
}
