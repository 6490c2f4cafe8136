package skill

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBudgetCountsMatchTokenizer: each level's count is the o200k tokenizer's count of exactly the
// text a host loads: the frontmatter, the body, each index and concept file as written.
func TestBudgetCountsMatchTokenizer(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"index.md":     "# Notes\n\n* [Hello](hello.md) - hello world\n* [Sub](sub/index.md) - a folder\n",
		"hello.md":     "---\ntype: Note\ntitle: Hello\n---\n\nhello world\n",
		"sub/index.md": "# Sub\n\n* [Deep](deep.md) - deep\n",
		"sub/deep.md":  "---\ntype: Note\n---\n\n" + strings.Repeat("Hello, world! ", 40) + "\n",
	}
	for p, data := range files {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte(data), 0o644)
	}
	b := load(t, dir)
	s, err := Build(b, Options{BundleName: "notes"})
	if err != nil {
		t.Fatal(err)
	}
	whole := func(text string) int {
		n, err := o200k().Count(text)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	tools := []byte(`{"tools":[{"name":"search","description":"Hello, world!"}]}`)
	r := Measure(b, s, BudgetOptions{ToolsList: tools})
	md := string(s.File(SkillFile))
	i := strings.Index(md, "\n---\n") + len("\n---\n")
	if r.Metadata.Tokens != whole(md[:i]) || r.Body.Tokens != whole(md[i:]) {
		t.Errorf("metadata %d, body %d; the tokenizer says %d and %d", r.Metadata.Tokens, r.Body.Tokens, whole(md[:i]), whole(md[i:]))
	}
	if r.RootIndex == nil || r.RootIndex.Tokens != whole(files["index.md"]) {
		t.Errorf("root index %+v, want %d tokens", r.RootIndex, whole(files["index.md"]))
	}
	if len(r.FolderIndexes) != 1 || r.FolderIndexes[0].Path != "sub/index.md" || r.FolderIndexes[0].Tokens != whole(files["sub/index.md"]) {
		t.Errorf("folder indexes %+v", r.FolderIndexes)
	}
	deep, hello := whole(files["sub/deep.md"]), whole(files["hello.md"])
	c := r.Concepts
	// Two concepts: the nearest-rank median is the smaller, p95 and max the larger.
	if c.Count != 2 || c.Total != deep+hello || c.Median != hello || c.P95 != deep || c.Max != deep || c.Largest[0].Path != "sub/deep.md" {
		t.Errorf("concepts %+v, want hello %d and deep %d", c, hello, deep)
	}
	if r.ToolsList == nil || r.ToolsList.Tokens != whole(string(tools)) {
		t.Errorf("tools/list %+v", r.ToolsList)
	}
	if len(r.Findings) != 0 || r.Failing() {
		t.Errorf("findings %+v", r.Findings)
	}

	// Budgets: an index over --max-index, a concept over --max-concept, each a finding that fails.
	r = Measure(b, s, BudgetOptions{MaxIndex: whole(files["sub/index.md"]) + 1, MaxConcept: hello})
	var codes []string
	for _, f := range r.Findings {
		codes = append(codes, f.Code+" "+f.Path)
	}
	if got := strings.Join(codes, ", "); got != "BGT002 index.md, BGT003 sub/deep.md" || !r.Failing() {
		t.Errorf("findings: %s", got)
	}
}

// TestBudgetBodyOver: a body over 5,000 tokens is BGT001.
func TestBudgetBodyOver(t *testing.T) {
	b := load(t, "testdata/bundle")
	s := &Skill{Name: "x", Files: []File{{Path: SkillFile, Data: []byte("---\nname: x\ndescription: y\n---\n" + strings.Repeat("word ", BodyGuideline+1))}}}
	r := Measure(b, s, BudgetOptions{})
	if len(r.Findings) != 1 || r.Findings[0].Code != CodeBodyOver || !r.Failing() {
		t.Errorf("findings %+v (body %d tokens)", r.Findings, r.Body.Tokens)
	}
}

// TestBudgetFormats: every format writes, JSON reads back, and a path is escaped where it lands.
func TestBudgetFormats(t *testing.T) {
	b := load(t, "testdata/bundle")
	s := build(t, "testdata/bundle", Options{BundleName: "shop"})
	r := Measure(b, s, BudgetOptions{MaxConcept: 1})
	for _, f := range BudgetFormats {
		var buf bytes.Buffer
		if err := WriteBudget(&buf, r, f); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out := buf.String()
		switch f {
		case "json":
			var back Budget
			if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back.Concepts.Count != 3 || len(back.Findings) != 3 {
				t.Errorf("json: %v %+v", err, back)
			}
		case "markdown":
			if !strings.Contains(out, `notes/a \(draft\)\.md`) {
				t.Errorf("markdown does not escape the path:\n%s", out)
			}
		case "text":
			if !strings.Contains(out, "notes/a (draft).md: error: the concept costs") {
				t.Errorf("text:\n%s", out)
			}
		}
	}
	if err := WriteBudget(&bytes.Buffer{}, r, "xml"); err == nil {
		t.Error("unknown format accepted")
	}
}
