package main

import (
	"strings"
	"testing"

	"github.com/okf-tools/okf/attest"
	"github.com/okf-tools/okf/lint"
	"github.com/okf-tools/okf/okf"
)

// TestAttestSharesLintCodes checks okf attest check and okf lint speak of one problem with one
// code and one default severity: every check attest shares with lint uses a code lint knows, at
// lint's severity; attest's own codes are ATT codes lint does not use.
func TestAttestSharesLintCodes(t *testing.T) {
	// The severities attest.Check gives each (attest/check.go), all warnings.
	shared := []string{attest.CodeNoRuntime, attest.CodeNoComputation, attest.CodeBothComputations, attest.CodeManyBlocks,
		attest.CodeComputationFile, attest.CodeParamIncomplete, attest.CodeUndeclared, attest.CodeUnused, attest.CodeAttesterMissing}
	for _, code := range shared {
		sev := okf.Warning
		r := lint.Lookup(code)
		if r == nil {
			t.Errorf("attest reports %s, which okf lint does not know", code)
			continue
		}
		if r.Severity != sev {
			t.Errorf("%s: attest reports a %s, okf lint's default is %s", code, sev, r.Severity)
		}
	}
	if lint.Lookup("OKF707").Name != "attester-unresolved" {
		t.Error("OKF707 is not lint's attester-unresolved")
	}
	for _, c := range attest.OwnCodes {
		if !strings.HasPrefix(c.Code, "ATT") || lint.Lookup(c.Code) != nil || lint.Lookup(c.Name) != nil {
			t.Errorf("attest's own code %s (%s) clashes with lint's", c.Code, c.Name)
		}
	}
}
