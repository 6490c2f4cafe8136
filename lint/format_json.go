package lint

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/okf-tools/okf/okf"
)

// JSONPrinter writes one JSON document: the findings and a summary. Its fields are stable (see the
// README): tools may parse them.
type JSONPrinter struct{}

// JSONFinding is one finding in the json format. EndLine and EndColumn are omitted when unknown;
// Line and Column are 0 for a finding about a whole file.
type JSONFinding struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line,omitempty"`
	EndColumn int    `json:"end_column,omitempty"`
	Code      string `json:"code"`
	Rule      string `json:"rule"`
	Severity  string `json:"severity"`
	Message   string `json:"message"`
}

// JSONSummary counts the findings by severity, and the files they are in.
type JSONSummary struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
	Files    int `json:"files"`
}

// JSONReport is the whole json document.
type JSONReport struct {
	Findings []JSONFinding `json:"findings"`
	Summary  JSONSummary   `json:"summary"`
}

// Print writes the report as indented JSON.
func (JSONPrinter) Print(w io.Writer, r *Report) error {
	out := JSONReport{Findings: make([]JSONFinding, 0, len(r.Diagnostics))}
	files := map[string]bool{}
	for _, d := range r.Diagnostics {
		f := JSONFinding{Path: r.path(d.Pos.Path), Line: d.Pos.Line, Column: d.Pos.Col, Code: d.Code, Rule: r.ruleName(d.Code),
			Severity: d.Severity.String(), Message: d.Message}
		if d.End.Line > 0 {
			f.EndLine, f.EndColumn = d.End.Line, d.End.Col
		}
		out.Findings = append(out.Findings, f)
		files[d.Pos.Path] = true
	}
	out.Summary.Errors, out.Summary.Warnings, out.Summary.Infos = r.Counts()
	out.Summary.Files = len(files)
	return writeJSON(w, out)
}

// writeJSON writes v as indented JSON, safe to print to a CI log (okf.EscapeJSONLog): the same
// values, with no `##[` the Actions runner would read as a command.
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(okf.EscapeJSONLog(buf.Bytes()))
	return err
}
