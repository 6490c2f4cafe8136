package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/okf-tools/okf/lint"
)

// TestPrintFixesAfterReloadError: when every fix was written and only loading the fixed bundle
// again failed (lint.BundleRun.Err set, FixErr not), okf lint --fix still says what it fixed before
// it exits 3; when the fixing itself failed, it says only what it did not fix.
func TestPrintFixesAfterReloadError(t *testing.T) {
	fixed := &lint.FixResult{Fixed: 2, Files: []string{"a.md", "b.md"}}
	show := func(p string) string { return "kb/" + p }
	for _, tc := range []struct {
		what string
		b    lint.BundleRun
		want string
	}{
		{"reload failed", lint.BundleRun{Display: show, Fix: fixed, Err: errors.New("not a readable bundle directory")}, "okf: fixed 2 findings in 2 files\n"},
		{"fixing failed", lint.BundleRun{Display: show, Fix: fixed, Err: errors.New("locked"), FixErr: errors.New("locked")}, ""},
		{"no error", lint.BundleRun{Display: show, Fix: fixed}, "okf: fixed 2 findings in 2 files\n"},
	} {
		var stdout, stderr strings.Builder
		printFixes(&env{stdout: &stdout, stderr: &stderr}, tc.b, false, false)
		if stderr.String() != tc.want || stdout.Len() != 0 {
			t.Errorf("%s: printed %q (stdout %q), want %q", tc.what, stderr.String(), stdout.String(), tc.want)
		}
	}
}
