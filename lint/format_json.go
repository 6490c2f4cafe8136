package lint

import (
	"bufio"
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

// Print writes the report as indented JSON, one finding at a time: the document of a large
// bundle is megabytes, and encoding it whole held it in memory twice (issue 11). The bytes are those
// writeJSON writes for the whole JSONReport, made safe for CI logs alike (TestJSONStreamed).
func (JSONPrinter) Print(w io.Writer, r *Report) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("    ", "  ")
	files := map[string]bool{}
	bw.WriteString("{\n  \"findings\": [")
	for i, d := range r.Diagnostics {
		f := JSONFinding{Path: r.path(d.Pos.Path), Line: d.Pos.Line, Column: d.Pos.Col, Code: d.Code, Rule: r.ruleName(d.Code),
			Severity: d.Severity.String(), Message: d.Message}
		if d.End.Line > 0 {
			f.EndLine, f.EndColumn = d.End.Line, d.End.Col
		}
		files[d.Pos.Path] = true
		buf.Reset()
		if err := enc.Encode(f); err != nil {
			return err
		}
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n    ")
		bw.Write(okf.EscapeJSONLog(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))))
	}
	if len(r.Diagnostics) > 0 {
		bw.WriteString("\n  ")
	}
	var sum JSONSummary
	sum.Errors, sum.Warnings, sum.Infos = r.Counts()
	sum.Files = len(files)
	enc.SetIndent("  ", "  ")
	buf.Reset()
	if err := enc.Encode(sum); err != nil {
		return err
	}
	bw.WriteString("],\n  \"summary\": ")
	bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	bw.WriteString("\n}\n")
	return bw.Flush()
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
