package lint

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/okf-tools/okf/okf"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

var update = flag.Bool("update", false, "rewrite the golden files of the output formats")

// goldenReport is a fixed report exercising what each format must get right: a finding with an
// end, a whole-file finding, a multi-byte path and line, a tab before the column, every severity,
// and a message with characters that need escaping (%, :, ",", newline).
func goldenReport(t *testing.T) *Report {
	t.Helper()
	fsys := fstest.MapFS{
		"index.md":         {Data: []byte("# Bundle\n")},
		"README.md":        {Data: []byte("# Read me\n")},
		"tables/orders.md": {Data: []byte("---\ntype: BigQuery Table\ntags: finance\n---\n\t<!-- okf-lint-disable OKF001 -->\n")},
		"tables/café.md":   {Data: []byte("---\ntitle: Café crème\ntype: 42\n---\n")},
	}
	b, err := okf.Load(fsys, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ds := []okf.Diagnostic{
		{Pos: okf.Position{Path: "README.md"}, Code: FrontmatterMissing.Code, Severity: okf.Error, Message: "no frontmatter"},
		{Pos: okf.Position{Path: "tables/café.md", Line: 3, Col: 7}, Code: TypeInvalid.Code, Severity: okf.Error, Message: "type must be a non-empty string, found an integer"},
		{Pos: okf.Position{Path: "tables/orders.md", Line: 3, Col: 7}, End: okf.Position{Path: "tables/orders.md", Line: 3, Col: 14}, Code: SchemaMismatch.Code, Severity: okf.Warning, Message: "tags: expected a list, found a string"},
		{Pos: okf.Position{Path: "tables/orders.md", Line: 5, Col: 2}, Code: UnusedSuppression.Code, Severity: okf.Info, Message: "100% unused: a, b\nsecond line"},
	}
	return &Report{
		Diagnostics: ds,
		DisplayPath: func(p string) string { return "bundle/" + p },
		ReadFile:    b.ReadFile,
		Rules:       []*Rule{FrontmatterMissing, TypeInvalid, SchemaMismatch, UnusedSuppression},
		Version:     "1.2.3",
	}
}

func TestFormatGolden(t *testing.T) {
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			p, err := NewPrinter(format)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := p.Print(&buf, goldenReport(t)); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "format", format+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got := buf.String(); got != string(want) {
				t.Errorf("%s output differs from %s:\n--- got\n%s\n--- want\n%s", format, golden, got, want)
			}
		})
	}
	if _, err := NewPrinter("xml"); err == nil || !strings.Contains(err.Error(), `unknown format "xml"`) {
		t.Errorf("NewPrinter(xml) error = %v", err)
	}
}

func TestEmptyReports(t *testing.T) {
	for _, format := range Formats {
		p, _ := NewPrinter(format)
		var buf bytes.Buffer
		if err := p.Print(&buf, &Report{Rules: []*Rule{}}); err != nil {
			t.Fatal(err)
		}
		switch format {
		case "text", "pretty", "github":
			// A clean run says so: the summary, with no finding before it.
			if got, want := buf.String(), "0 errors, 0 warnings, 0 infos\n"; got != want {
				t.Errorf("%s: clean report printed %q, want %q", format, got, want)
			}
		case "json":
			var r JSONReport
			if err := json.Unmarshal(buf.Bytes(), &r); err != nil || r.Findings == nil || len(r.Findings) != 0 {
				t.Errorf("json: clean report = %s (%v); want an empty findings list", buf.String(), err)
			}
		case "sarif":
			if !strings.Contains(buf.String(), `"results": []`) {
				t.Errorf("sarif: clean report must carry an empty results list:\n%s", buf.String())
			}
		}
	}
}

// TestSARIFValidatesAgainstSchema checks the SARIF output, with every rule of the registry in
// tool.driver.rules, against the OASIS SARIF 2.1.0 schema (testdata/README.md says where it is from).
func TestSARIFValidatesAgainstSchema(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	r := goldenReport(t)
	for name, rules := range map[string][]*Rule{"golden": r.Rules, "all rules": nil} {
		r.Rules = rules
		var buf bytes.Buffer
		if err := (SARIFPrinter{}).Print(&buf, r); err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(inst); err != nil {
			t.Errorf("%s: SARIF output does not validate: %v", name, err)
		}
	}
	// Real findings too: every rule over real bundles of the corpus (corpusDir), with their fixes
	// (fixes[]): the fixture bundles of fixing rules always have some.
	corpus := corpusDir
	withFixes := 0
	for _, dir := range []string{filepath.Join(corpus, "acme_retail"), filepath.Join(corpus, "cricket"), filepath.Join(corpus, "stackoverflow"),
		filepath.Join("testdata", "rules", "OKF201", "bad"), filepath.Join("testdata", "rules", "OKF802", "bad"), filepath.Join("testdata", "rules", "OKF602", "bad")} {
		name := filepath.Base(dir)
		b, err := okf.LoadDir(dir, okf.LoadOptions{})
		if err != nil {
			continue
		}
		var buf bytes.Buffer
		ds := Run(b, Options{Now: time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC)})
		rep := &Report{Diagnostics: ds, DisplayPath: func(p string) string { return name + "/" + p }, ReadFile: b.ReadFile, Fixes: Fixes(b, ds)}
		if err := (SARIFPrinter{}).Print(&buf, rep); err != nil {
			t.Fatal(err)
		}
		withFixes += strings.Count(buf.String(), `"artifactChanges"`)
		inst, err := jsonschema.UnmarshalJSON(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(inst); err != nil {
			t.Errorf("%s: SARIF output does not validate: %v", name, err)
		}
	}
	if withFixes == 0 {
		t.Error("no SARIF result carried a fix")
	}
	// The check can fail: a result without a message is refused.
	bad := map[string]any{"version": "2.1.0", "runs": []any{map[string]any{"tool": map[string]any{"driver": map[string]any{"name": "okf"}}, "results": []any{map[string]any{"ruleId": "X"}}}}}
	if schema.Validate(bad) == nil {
		t.Error("the SARIF schema accepted a result without a message")
	}
}

func TestUnderline(t *testing.T) {
	for _, c := range []struct {
		text            string
		col, endL, endC int
		want            string
	}{
		{"tags: finance", 7, 1, 14, "      ^~~~~~~"},
		{"title: Café crème", 8, 0, 0, "       ^~~~"},
		{"\tx: y", 2, 0, 0, "\t^~"},
		{"a: b", 4, 2, 1, "   ^"},
		{"short", 9, 0, 0, "     ^"},
	} {
		if got := underline(c.text, c.col, c.endL, c.endC, 1); got != c.want {
			t.Errorf("underline(%q, %d) = %q, want %q", c.text, c.col, got, c.want)
		}
	}
}

// hostileReport holds bundle text written to attack the output: a path with a line break followed
// by a workflow command, a path that starts with "::", a message with an OSC title sequence, BEL,
// a legacy "##[error]" command and a CRLF, and a source line with colour sequences and a bidi
// override under the column, and a legacy command after it.
func hostileReport() *Report {
	const (
		evil  = "evil\n::error file=a.md::forged.md"
		colon = "::warning::x.md"
	)
	src := map[string]string{evil: "---\ntitle: \x1b[31mred\x1b[0m \u202eevil ##[error]x\n---\n"}
	return &Report{
		Diagnostics: []okf.Diagnostic{
			{Pos: okf.Position{Path: colon}, Code: FrontmatterMissing.Code, Severity: okf.Error, Message: "no frontmatter\r\n::error::second"},
			{Pos: okf.Position{Path: evil, Line: 2, Col: 8}, Code: TypeInvalid.Code, Severity: okf.Error, Message: "title \"\x1b]0;pwned\x07\" has ##[error]x\nand a line"},
		},
		ReadFile: func(p string) ([]byte, error) { return []byte(src[p]), nil },
		Rules:    []*Rule{FrontmatterMissing, TypeInvalid},
		Version:  "1.2.3",
	}
}

// TestFormatsEscapeHostileText: the expected lines are worked out by hand from the escaping rules
// (escape.Control, escape.LineStart, the runner's %-escapes): each finding stays on its line,
// no control character reaches the output, and no line can be read as a workflow command other
// than the github format's own.
func TestFormatsEscapeHostileText(t *testing.T) {
	want := map[string]string{
		"text": `\x3a:warning::x.md: error: no frontmatter ::error::second [OKF001]` + "\n" +
			`evil\n::error file=a.md::forged.md:2:8: error: title "\x1b]0;pwned\x07" has ##\x5berror]x and a line [OKF005]` + "\n" +
			"\n2 errors, 0 warnings, 0 infos\n",
		"pretty": `\x3a:warning::x.md: error: no frontmatter ::error::second [OKF001]` + "\n" +
			`evil\n::error file=a.md::forged.md:2:8: error: title "\x1b]0;pwned\x07" has ##\x5berror]x and a line [OKF005]` + "\n" +
			"   |\n" +
			` 2 | title: \x1b[31mred\x1b[0m \u202eevil ##\x5berror]x` + "\n" +
			"   |        ^" + strings.Repeat("~", 17) + "\n" + // \x1b[31mred\x1b[0m shows as 18 runes
			"\n2 errors, 0 warnings, 0 infos\n",
		"github": `::error file=%3A%3Awarning%3A%3Ax.md,title=OKF001 (error)::no frontmatter%0A::error::second` + "\n" +
			`::error file=evil\n%3A%3Aerror file=a.md%3A%3Aforged.md,line=2,col=8,title=OKF005 (error)::title "\x1b]0;pwned\x07" has ##\x5berror]x%0Aand a line` + "\n" +
			"2 errors, 0 warnings, 0 infos\n",
	}
	for _, format := range Formats {
		p, _ := NewPrinter(format)
		var buf bytes.Buffer
		if err := p.Print(&buf, hostileReport()); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if w, ok := want[format]; ok && out != w {
			t.Errorf("%s:\n--- got\n%s--- want\n%s", format, out, w)
		}
		for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if strings.Contains(line, "##[") {
				t.Errorf("%s: line holds a legacy workflow command: %q", format, line)
			}
			if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") && format != "github" {
				t.Errorf("%s: line reads as a workflow command: %q", format, line)
			}
			for _, r := range line {
				if (r < 0x20 && r != '\t') || (r >= 0x7f && r <= 0x9f) || r == '\u202e' && format != "json" && format != "sarif" {
					t.Errorf("%s: line carries control character %U: %q", format, r, line)
				}
			}
		}
		if format == "github" && strings.Count(out, "\n::error ") != 1 {
			t.Errorf("github: want exactly two command lines, got:\n%s", out)
		}
	}
	// json and sarif: valid JSON that reads back the very text the bundle held.
	var jbuf bytes.Buffer
	if err := (JSONPrinter{}).Print(&jbuf, hostileReport()); err != nil {
		t.Fatal(err)
	}
	var jr JSONReport
	if err := json.Unmarshal(jbuf.Bytes(), &jr); err != nil {
		t.Fatalf("json output does not parse: %v", err)
	}
	for i, d := range hostileReport().Diagnostics {
		if f := jr.Findings[i]; f.Path != d.Pos.Path || f.Message != d.Message {
			t.Errorf("json finding %d reads back as %q %q, want %q %q", i, f.Path, f.Message, d.Pos.Path, d.Message)
		}
	}
	var sbuf bytes.Buffer
	if err := (SARIFPrinter{}).Print(&sbuf, hostileReport()); err != nil {
		t.Fatal(err)
	}
	var sr struct {
		Runs []struct {
			Results []struct {
				Message struct{ Text string } `json:"message"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(sbuf.Bytes(), &sr); err != nil {
		t.Fatalf("sarif output does not parse: %v", err)
	}
	if got := sr.Runs[0].Results[1].Message.Text; got != hostileReport().Diagnostics[1].Message {
		t.Errorf("sarif message reads back as %q", got)
	}
}

// TestPrettyExcerptWindow: a long line shows a window of excerptWidth runes around the column, with
// "…" at each cut end, and the underline still under the column.
func TestPrettyExcerptWindow(t *testing.T) {
	line := strings.Repeat("a", 1000) + "[x](y.md)" + strings.Repeat("b", 1000)
	s := newSourceLine(1, []byte(line))
	text, mark := s.excerpt(1001, 1, 1010)
	// The window starts excerptWidth/2 runes before the column (rune index 1000) and is excerptWidth
	// runes long: 80 a's, the link's 9 runes, 71 b's.
	wantText := "…" + strings.Repeat("a", 80) + "[x](y.md)" + strings.Repeat("b", 71) + "…"
	wantMark := strings.Repeat(" ", 1+80) + "^" + strings.Repeat("~", 8)
	if text != wantText || mark != wantMark {
		t.Errorf("excerpt =\n%q\n%q\nwant\n%q\n%q", text, mark, wantText, wantMark)
	}
	// Near the start and the end the window keeps its width and loses one ellipsis.
	if text, mark := s.excerpt(3, 1, 4); text != strings.Repeat("a", 160)+"…" || mark != "  ^" {
		t.Errorf("excerpt at the start = %q %q", text, mark)
	}
	if text, mark := s.excerpt(2009, 2, 1); text != "…"+strings.Repeat("b", 160) || mark != " "+strings.Repeat(" ", 159)+"^" {
		t.Errorf("excerpt at the end = %q %q", text, mark)
	}
	// The underline of a finding whose end is on a later line stops at the window's end.
	if _, mark := s.excerpt(1001, 2, 1); mark != strings.Repeat(" ", 81)+"^"+strings.Repeat("~", 79) {
		t.Errorf("underline to the end of the line = %q", mark)
	}
}

// BenchmarkPrettyLongLine: one 5 MB line holding 20,000 links, each a finding. Each finding costs
// its excerpt (excerptWidth runes), not a copy of the line: the output stays near 20,000 × 3 short
// lines, and the run stays linear in the line's length plus the findings.
func BenchmarkPrettyLongLine(b *testing.B) {
	const links = 20000
	unit := "[l](missing.md) " + strings.Repeat("x", 5_000_000/links-16)
	src := []byte(strings.Repeat(unit, links))
	ds := make([]okf.Diagnostic, links)
	for i := range ds {
		ds[i] = okf.Diagnostic{Pos: okf.Position{Path: "big.md", Line: 1, Col: int32(i*len(unit) + 1)}, End: okf.Position{Line: 1, Col: int32(i*len(unit) + 16)},
			Code: "OKF201", Severity: okf.Warning, Message: "broken link"}
	}
	r := &Report{Diagnostics: ds, ReadFile: func(string) ([]byte, error) { return src, nil }}
	for b.Loop() {
		var n countWriter
		if err := (PrettyPrinter{}).Print(&n, r); err != nil {
			b.Fatal(err)
		}
		if n > links*(3*excerptWidth*4) {
			b.Fatalf("output of %d bytes for %d findings: excerpts are not bounded", n, links)
		}
	}
}

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }

// TestAppendDiagnosticMatchesString: the text printer's line is the position as Position.String
// writes it, the severity, the message and the code, and a line break, for whole-file, line-only
// and line:col positions, multi-byte text and large numbers.
func TestAppendDiagnosticMatchesString(t *testing.T) {
	for _, d := range []okf.Diagnostic{
		{Pos: okf.Position{Path: "a.md"}, Code: "OKF001", Message: "whole file"},
		{Pos: okf.Position{Path: "dir/b c.md", Line: 7}, Code: "OKF101", Severity: okf.Info, Message: "line only"},
		{Pos: okf.Position{Path: "é/ü.md", Line: 12, Col: 3}, Code: "OKF905", Severity: okf.Warning, Message: "tags: expected a list, found a string « x »"},
		{Pos: okf.Position{Path: "x.md", Line: 2147483647, Col: 1 << 30}, Code: "OKF0", Message: ""},
		{Pos: okf.Position{Path: "", Line: 1, Col: 0}, Code: "", Message: "%s %d"},
	} {
		want := "kept" + d.Pos.String() + ": " + d.Severity.String() + ": " + d.Message + " [" + d.Code + "]\n"
		if got := string(appendDiagnostic([]byte("kept"), d)); got != want {
			t.Errorf("appendDiagnostic = %q, want %q", got, want)
		}
	}
}
