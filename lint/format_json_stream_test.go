package lint

import (
	"bytes"
	"testing"

	"github.com/okf-tools/okf/okf"
)

// The streamed json document is byte for byte the JSONReport encoded whole, with and without
// findings, end positions, characters HTML escaping would change, and a CI log command.
func TestJSONStreamed(t *testing.T) {
	for _, ds := range [][]okf.Diagnostic{
		nil,
		{{Pos: okf.Position{Path: "a.md", Line: 3, Col: 2}, Code: "OKF101", Severity: okf.Warning, Message: "x <b> & \"q\" é\n ##[error]"}},
		{{Pos: okf.Position{Path: "a.md"}, Code: "OKF001", Severity: okf.Error, Message: "m"},
			{Pos: okf.Position{Path: "b/c.md", Line: 1, Col: 1}, End: okf.Position{Path: "b/c.md", Line: 2, Col: 5}, Code: "OKF905", Severity: okf.Info, Message: "n"}},
	} {
		r := &Report{Diagnostics: ds}
		var got bytes.Buffer
		if err := (JSONPrinter{}).Print(&got, r); err != nil {
			t.Fatal(err)
		}
		whole := JSONReport{Findings: []JSONFinding{}}
		files := map[string]bool{}
		for _, d := range ds {
			f := JSONFinding{Path: r.path(d.Pos.Path), Line: d.Pos.Line, Column: d.Pos.Col, Code: d.Code, Rule: ruleName(d.Code),
				Severity: d.Severity.String(), Message: d.Message, EndLine: d.End.Line, EndColumn: d.End.Col}
			whole.Findings = append(whole.Findings, f)
			files[d.Pos.Path] = true
		}
		whole.Summary.Errors, whole.Summary.Warnings, whole.Summary.Infos = r.Counts()
		whole.Summary.Files = len(files)
		var want bytes.Buffer
		if err := writeJSON(&want, whole); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("streamed:\n%s\nwhole:\n%s", got.String(), want.String())
		}
	}
}
