package lint

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/okf-tools/okf/internal/escape"
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
// writeJSON writes for the whole JSONReport, made safe for CI logs alike (TestJSONStreamed). Each
// finding is written by hand (appendFinding), not through reflection: it is most of the time of
// printing a report of thousands of findings.
func (JSONPrinter) Print(w io.Writer, r *Report) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	js := &jsonStrings{}
	files := map[string]bool{}
	var buf []byte
	lastPath := "" // the findings of one file follow each other
	shown := ""    // lastPath as shown: DisplayPath is asked once per file
	bw.WriteString("{\n  \"findings\": [")
	for i, d := range r.Diagnostics {
		if i == 0 || d.Pos.Path != lastPath {
			shown = r.path(d.Pos.Path)
		}
		f := JSONFinding{Path: shown, Line: int(d.Pos.Line), Column: int(d.Pos.Col), Code: d.Code, Rule: r.ruleName(d.Code),
			Severity: d.Severity.String(), Message: d.Message}
		if d.End.Line > 0 {
			f.EndLine, f.EndColumn = int(d.End.Line), int(d.End.Col)
		}
		if i == 0 || d.Pos.Path != lastPath {
			files[d.Pos.Path] = true
			lastPath = d.Pos.Path
		}
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n    ")
		js.logUnsafe = false
		buf = js.appendFinding(buf[:0], &f)
		// A finding whose strings JSONLog leaves as they are is written as it was built: JSONLog
		// changes nothing outside strings (most of a report's bytes).
		if js.logUnsafe {
			bw.Write(escape.JSONLog(buf))
		} else {
			bw.Write(buf)
		}
	}
	if len(r.Diagnostics) > 0 {
		bw.WriteString("\n  ")
	}
	var sum JSONSummary
	sum.Errors, sum.Warnings, sum.Infos = r.Counts()
	sum.Files = len(files)
	var sb bytes.Buffer
	enc := json.NewEncoder(&sb)
	enc.SetIndent("  ", "  ")
	if err := enc.Encode(sum); err != nil {
		return err
	}
	bw.WriteString("],\n  \"summary\": ")
	bw.Write(bytes.TrimSuffix(sb.Bytes(), []byte("\n")))
	bw.WriteString("\n}\n")
	return bw.Flush()
}

// appendFinding appends f as a json.Encoder with SetIndent("    ", "  ") and SetEscapeHTML(false)
// writes it, without the final line break.
func (js *jsonStrings) appendFinding(b []byte, f *JSONFinding) []byte {
	const field = "\n      \""
	b = append(b, '{')
	b = js.appendField(b, field+"path\": ", f.Path)
	b = append(b, ","+field+"line\": "...)
	b = strconv.AppendInt(b, int64(f.Line), 10)
	b = append(b, ","+field+"column\": "...)
	b = strconv.AppendInt(b, int64(f.Column), 10)
	if f.EndLine != 0 {
		b = append(b, ","+field+"end_line\": "...)
		b = strconv.AppendInt(b, int64(f.EndLine), 10)
	}
	if f.EndColumn != 0 {
		b = append(b, ","+field+"end_column\": "...)
		b = strconv.AppendInt(b, int64(f.EndColumn), 10)
	}
	b = js.appendField(b, ","+field+"code\": ", f.Code)
	b = js.appendField(b, ","+field+"rule\": ", f.Rule)
	b = js.appendField(b, ","+field+"severity\": ", f.Severity)
	b = js.appendField(b, ","+field+"message\": ", f.Message)
	return append(b, "\n    }"...)
}

// jsonStrings quotes strings as encoding/json does with SetEscapeHTML(false).
type jsonStrings struct {
	buf bytes.Buffer
	enc *json.Encoder
	// logUnsafe is set when a string appended may need JSONLog (escape.AppendJSONString did not
	// append it).
	logUnsafe bool
}

func (js *jsonStrings) appendField(b []byte, name, s string) []byte {
	b = append(b, name...)
	if out, ok := escape.AppendJSONString(b, s); ok {
		return out
	}
	js.logUnsafe = true
	if plainJSON(s) {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	if js.enc == nil {
		js.enc = json.NewEncoder(&js.buf)
		js.enc.SetEscapeHTML(false)
	}
	js.buf.Reset()
	js.enc.Encode(s) // a string always encodes
	return append(b, bytes.TrimSuffix(js.buf.Bytes(), []byte("\n"))...)
}

// plainJSON reports whether encoding/json (without HTML escaping) writes s unchanged between
// quotes: valid UTF-8 with no control character, quote, backslash, U+2028 or U+2029.
func plainJSON(s string) bool {
	ascii := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == '"' || c == '\\' {
			return false
		}
		if c >= 0x80 {
			ascii = false
		}
	}
	return ascii || (utf8.ValidString(s) && !strings.Contains(s, "\u2028") && !strings.Contains(s, "\u2029"))
}
