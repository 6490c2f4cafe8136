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
			if buf.Len() != 0 {
				t.Errorf("%s: clean report printed %q", format, buf.String())
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
	// Real findings too: every rule over the corpus bundles, when ../shared/corpus is there.
	corpus := filepath.Join("..", "..", "shared", "corpus")
	for _, name := range []string{"acme_retail", "cricket", "stackoverflow"} {
		b, err := okf.LoadDir(filepath.Join(corpus, name), okf.LoadOptions{})
		if err != nil {
			continue
		}
		var buf bytes.Buffer
		rep := &Report{Diagnostics: Run(b, Options{Now: time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC)}), DisplayPath: func(p string) string { return name + "/" + p }}
		if err := (SARIFPrinter{}).Print(&buf, rep); err != nil {
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
