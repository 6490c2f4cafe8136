package lint

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/okf-tools/okf/internal/escape"
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
			f := JSONFinding{Path: r.path(d.Pos.Path), Line: int(d.Pos.Line), Column: int(d.Pos.Col), Code: d.Code, Rule: ruleName(d.Code),
				Severity: d.Severity.String(), Message: d.Message, EndLine: int(d.End.Line), EndColumn: int(d.End.Col)}
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

// TestJSONFindingsByHand: the findings written by hand are what encoding/json writes, on random
// paths, codes and messages made of the characters JSON escapes (quotes, backslashes, control
// characters, U+2028, U+2029, invalid UTF-8), HTML escaping would touch, and CI commands.
func TestJSONFindingsByHand(t *testing.T) {
	pieces := []string{"a", "Z 9", "é", "—", "§11", "\"", "\\", "\n", "\t", "\x00", "\x1f", "\x7f", "\u2028", "\u2029",
		"\xff", "\xe2\x80", "<b>", "&", "##[error]", "::warning::", "\U0001F600", "\r"}
	r := rand.New(rand.NewPCG(5, 6))
	str := func() string {
		var b strings.Builder
		for range r.IntN(6) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	var ds []okf.Diagnostic
	for range 3000 {
		d := okf.Diagnostic{Pos: okf.Position{Path: str(), Line: int32(r.IntN(3)), Col: int32(r.IntN(3))}, Code: str(), Severity: okf.Severity(r.IntN(3)), Message: str()}
		if r.IntN(2) == 0 {
			d.End = okf.Position{Path: d.Pos.Path, Line: int32(r.IntN(3)), Col: int32(r.IntN(3))}
		}
		ds = append(ds, d)
	}
	ds = append(ds, okf.Diagnostic{Pos: okf.Position{Path: "a.md", Line: 1, Col: 1}, Code: "OKF101", Severity: okf.Warning, Message: "m"})
	rep := &Report{Diagnostics: ds}
	var got bytes.Buffer
	if err := (JSONPrinter{}).Print(&got, rep); err != nil {
		t.Fatal(err)
	}
	whole := JSONReport{}
	files := map[string]bool{}
	for _, d := range ds {
		f := JSONFinding{Path: d.Pos.Path, Line: int(d.Pos.Line), Column: int(d.Pos.Col), Code: d.Code, Rule: ruleName(d.Code),
			Severity: d.Severity.String(), Message: d.Message}
		if d.End.Line > 0 {
			f.EndLine, f.EndColumn = int(d.End.Line), int(d.End.Col)
		}
		whole.Findings = append(whole.Findings, f)
		files[d.Pos.Path] = true
	}
	whole.Summary.Errors, whole.Summary.Warnings, whole.Summary.Infos = rep.Counts()
	whole.Summary.Files = len(files)
	var want bytes.Buffer
	if err := writeJSON(&want, whole); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		g, w := strings.Split(got.String(), "\n"), strings.Split(want.String(), "\n")
		for i := range min(len(g), len(w)) {
			if g[i] != w[i] {
				t.Fatalf("line %d by hand:\n%q\nencoding/json:\n%q", i+1, g[i], w[i])
			}
		}
		t.Fatalf("by hand %d lines, encoding/json %d", len(g), len(w))
	}
	// By hand: a plain finding, as the README documents the format.
	if !strings.Contains(got.String(), "{\n      \"path\": \"a.md\",\n      \"line\": 1,\n      \"column\": 1,\n      \"code\": \"OKF101\",\n      \"rule\": \"title-missing\",\n      \"severity\": \"warning\",\n      \"message\": \"m\"\n    }") {
		t.Errorf("the plain finding is not written as documented:\n%s", got.String()[len(got.String())-400:])
	}
}

// writeJSON writes v as indented JSON, safe to print to a CI log (escape.JSONLog), all at once:
// the reference the streamed formats are compared with.
func writeJSON(w io.Writer, v any) error {
	return escape.EncodeJSONLog(w, v, "  ", false)
}

// TestSARIFStreamed: the SARIF log written result by result is byte for byte the log encoded
// whole, on no finding, one, and 2,000 random ones (strings JSON and HTML escaping touch, CI log
// commands, registered and unknown codes, end positions, fixes).
func TestSARIFStreamed(t *testing.T) {
	pieces := []string{"a", "Z 9", "é", "\"", "\\", "\n", "\x00", "\u2028", "\xff", "<b>", "&", "##[error]", "::warning::", "\U0001F600", `"results": []`}
	r := rand.New(rand.NewPCG(7, 8))
	str := func() string {
		var b strings.Builder
		for range r.IntN(5) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	codes := []string{"OKF101", "OKF201", "OKF601", "OKF905", "X1"}
	var many []okf.Diagnostic
	fixes := map[okf.Diagnostic]Fix{}
	for range 2000 {
		p := str() + ".md"
		d := okf.Diagnostic{Pos: okf.Position{Path: p, Line: int32(r.IntN(4)), Col: int32(r.IntN(4))}, Code: codes[r.IntN(len(codes))], Severity: okf.Severity(r.IntN(3)), Message: str()}
		if r.IntN(2) == 0 {
			d.End = okf.Position{Path: p, Line: int32(r.IntN(4) + 1), Col: int32(r.IntN(4))}
		}
		if r.IntN(3) == 0 {
			fixes[d] = Fix{Description: str(), Path: p, Edits: []okf.Edit{{Start: 0, End: 1, New: str()}}}
		}
		many = append(many, d)
	}
	read := func(string) ([]byte, error) { return []byte("0123456789\nabc\n"), nil }
	for _, ds := range [][]okf.Diagnostic{nil, many[:1], many} {
		rep := &Report{Diagnostics: ds, Fixes: fixes, ReadFile: read, Version: "test"}
		var got bytes.Buffer
		if err := (SARIFPrinter{}).Print(&got, rep); err != nil {
			t.Fatal(err)
		}
		log, result := rep.sarif()
		for i := range ds {
			log.Runs[0].Results = append(log.Runs[0].Results, result(i))
		}
		var want bytes.Buffer
		if err := writeJSON(&want, log); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			g, w := strings.Split(got.String(), "\n"), strings.Split(want.String(), "\n")
			for i := range min(len(g), len(w)) {
				if g[i] != w[i] {
					t.Fatalf("%d findings: line %d streamed:\n%q\nwhole:\n%q", len(ds), i+1, g[i], w[i])
				}
			}
			t.Fatalf("%d findings: streamed %d lines, whole %d", len(ds), len(g), len(w))
		}
	}
}

// TestJSONShowsEachPathOnce: a file's findings, which follow each other, have their path shown by
// one call of DisplayPath (it cleaned and joined the path again for each finding), and the output
// is the whole encoding's, with messages sharing their bytes and collections in between.
func TestJSONShowsEachPathOnce(t *testing.T) {
	backing := `tags: expected a list "quoted" é \ end` + "\x01 ##[x]"
	var ds []okf.Diagnostic
	for i := range 3000 {
		path := fmt.Sprintf("s%03d/p%05d.md", i/500, i/5)
		ds = append(ds, okf.Diagnostic{Pos: okf.Position{Path: path, Line: int32(i%5 + 1), Col: 1},
			Code: []string{"OKF104", "OKF905", "OKF304"}[i%3], Severity: okf.Severity(i % 3), Message: backing[:(i*7)%len(backing)]})
	}
	calls := 0
	r := &Report{Diagnostics: ds, DisplayPath: func(p string) string {
		calls++
		if calls%50 == 0 {
			runtime.GC()
		}
		return strings.Clone("./" + p)
	}}
	var got bytes.Buffer
	if err := (JSONPrinter{}).Print(&got, r); err != nil {
		t.Fatal(err)
	}
	if calls != 600 {
		t.Errorf("DisplayPath called %d times for 600 files' findings", calls)
	}
	whole := JSONReport{Findings: []JSONFinding{}}
	for _, d := range ds {
		whole.Findings = append(whole.Findings, JSONFinding{Path: "./" + d.Pos.Path, Line: int(d.Pos.Line), Column: int(d.Pos.Col), Code: d.Code,
			Rule: ruleName(d.Code), Severity: d.Severity.String(), Message: d.Message})
	}
	whole.Summary.Errors, whole.Summary.Warnings, whole.Summary.Infos = r.Counts()
	whole.Summary.Files = 600
	var want bytes.Buffer
	if err := writeJSON(&want, whole); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		g, w := got.String(), want.String()
		i := 0
		for i < min(len(g), len(w)) && g[i] == w[i] {
			i++
		}
		t.Fatalf("first difference at byte %d:\ngot:  %q\nwant: %q", i, g[max(0, i-80):min(len(g), i+80)], w[max(0, i-80):min(len(w), i+80)])
	}
}
