package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/okf-tools/okf/attest"
)

// TestPrintResultEscapes: an attester controls its reason, details and stderr. Each stays on its
// own line, with control characters escaped, and no line can be read as a workflow command: the
// expected text is worked out by hand from escape.Control and escape.LineStart.
func TestPrintResultEscapes(t *testing.T) {
	reason := "bad\n::error file=a.md::forged \x1b[31mred"
	r := &attest.Result{
		Concept:    "::error::c",
		Attester:   "attesters/x.py",
		Kind:       "python",
		Outcome:    attest.Fail,
		Reason:     &reason,
		Details:    json.RawMessage("{\n  \"note\": \"##[error]x\\u001b\"\n}"),
		StderrTail: "  ::warning::forged\n\x1b]0;title\x07done",
	}
	var buf bytes.Buffer
	printResult(&buf, r, false)
	want := `\x3a:error::c: fail` + "\n" +
		"  attester: attesters/x.py (python)\n" +
		`  reason:   bad\n::error file=a.md::forged \x1b[31mred` + "\n" +
		`  details:  {"note":"##\x5berror]x\u001b"}` + "\n" +
		"  stderr:\n" +
		`      \x3a:warning::forged` + "\n" +
		`    \x1b]0;title\x07done` + "\n"
	if got := buf.String(); got != want {
		t.Errorf("printResult:\n--- got\n%s--- want\n%s", got, want)
	}
}
