package okf

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestConfigProblemsBounded: a .okf.yaml comes with the pull request, and 100,000 unknown keys
// (1 MB) were 100,000 lines of CI log and a "did you mean" each. At most MaxConfigProblems are
// kept and printed; the rest are counted, so the message still says how many there are.
func TestConfigProblemsBounded(t *testing.T) {
	var b strings.Builder
	const n = 100000
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "key%d: 1\n", i)
	}
	_, err := ParseConfig(".okf.yaml", []byte(b.String()))
	var ce *ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("ParseConfig = %v, want a *ConfigError", err)
	}
	if len(ce.Problems) > MaxConfigProblems || len(ce.Problems)+ce.More != n {
		t.Errorf("%d problems kept and %d more, want at most %d kept of %d", len(ce.Problems), ce.More, MaxConfigProblems, n)
	}
	if got := ce.Problems[0].String(); !strings.HasPrefix(got, ".okf.yaml:1:1: unknown key \"key0\"") {
		t.Errorf("first problem %q, want key0's at 1:1", got)
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) > MaxConfigProblems+1 || !strings.Contains(lines[len(lines)-1], fmt.Sprint(n-MaxConfigProblems)) {
		t.Errorf("the error is %d lines ending %q, want at most %d and the count of the rest", len(lines), lines[len(lines)-1], MaxConfigProblems+1)
	}
}
