package skill

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/okf"
)

// Finding codes of okf budget: what breaks the guidance on progressive disclosure. Stable: a code
// is never reused for another meaning.
const (
	// CodeBodyOver: SKILL.md's body costs more than the skill guideline (BodyGuideline tokens).
	CodeBodyOver = "BGT001"
	// CodeIndexOver: an index.md costs more than the index budget: too large to read at once.
	CodeIndexOver = "BGT002"
	// CodeConceptOver: a concept costs more than the budget the user set.
	CodeConceptOver = "BGT003"
)

// DefaultMaxIndex is the index budget when none is given, in tokens: twice the body guideline. An
// index is read whole to choose one entry, as the body is to choose one index.
const DefaultMaxIndex = 2 * BodyGuideline

// largest is how many of the largest concepts a budget lists.
const largest = 10

// BudgetOptions set the budgets Measure holds a skill to.
type BudgetOptions struct {
	// MaxIndex is the most an index.md may cost (0: DefaultMaxIndex; negative: no limit).
	MaxIndex int
	// MaxConcept is the most a concept may cost (0: no limit).
	MaxConcept int
	// ToolsList is okf serve's tools/list result as a host receives it (JSON), nil when not measured.
	ToolsList []byte
}

// Cost is what one file (or part of one) costs a model: its size and its o200k tokens.
type Cost struct {
	Path   string `json:"path"`
	Bytes  int    `json:"bytes"`
	Tokens int    `json:"tokens"`
}

// Spread sums up many costs: nearest-rank median and 95th percentile, the largest, the total, and
// the largest few, costliest first.
type Spread struct {
	Count   int    `json:"count"`
	Total   int    `json:"total_tokens"`
	Median  int    `json:"median_tokens"`
	P95     int    `json:"p95_tokens"`
	Max     int    `json:"max_tokens"`
	Largest []Cost `json:"largest"`
}

// Budget is what each level of a skill costs: level 1 the metadata a host always holds, level 2
// the SKILL.md body, level 3 the bundle's indexes and concepts, read one at a time; and the
// tools okf serve lists, which a host sends with every call.
type Budget struct {
	Tokenizer     string    `json:"tokenizer"`
	Skill         string    `json:"skill"`
	Metadata      Cost      `json:"metadata"`
	Body          Cost      `json:"body"`
	RootIndex     *Cost     `json:"root_index"`
	FolderIndexes []Cost    `json:"folder_indexes"`
	Indexes       Spread    `json:"indexes"`
	Concepts      Spread    `json:"concepts"`
	ToolsList     *Cost     `json:"tools_list"`
	Findings      []Finding `json:"findings"`
	MaxIndex      int       `json:"max_index_tokens"`
	MaxConcept    int       `json:"max_concept_tokens,omitempty"`
}

// Failing reports whether the budget has a finding that gates CI (an error).
func (b *Budget) Failing() bool {
	for _, f := range b.Findings {
		if f.Severity == "error" {
			return true
		}
	}
	return false
}

func cost(p string, data string) Cost { return Cost{Path: p, Bytes: len(data), Tokens: Tokens(data)} }

// Measure counts what each level of the skill s of bundle b costs, in o200k tokens, and finds what
// breaks the guidance: a body over BodyGuideline, an index over o.MaxIndex, a concept over
// o.MaxConcept. Files are counted as the skill carries them (the bundle's bytes, as written).
func Measure(b *okf.Bundle, s *Skill, o BudgetOptions) *Budget {
	maxIndex := o.MaxIndex
	if maxIndex == 0 {
		maxIndex = DefaultMaxIndex
	}
	r := &Budget{Tokenizer: Tokenizer, Skill: s.Name, MaxIndex: maxIndex, MaxConcept: o.MaxConcept, FolderIndexes: []Cost{}, Findings: []Finding{}}
	r.Metadata = cost(SkillFile+" frontmatter", s.Metadata())
	r.Body = cost(SkillFile+" body", s.Body())
	if r.Body.Tokens > BodyGuideline {
		r.Findings = append(r.Findings, Finding{Code: CodeBodyOver, Severity: "error", Path: SkillFile, Message: fmt.Sprintf("the body costs %d tokens, over the skill guideline of %d", r.Body.Tokens, BodyGuideline)})
	}
	var indexes []Cost
	for _, x := range b.Indexes {
		data := s.File(BundleDir + "/" + x.Path)
		if data == nil {
			continue
		}
		c := cost(x.Path, string(data))
		indexes = append(indexes, c)
		if x.Path == "index.md" {
			cc := c
			r.RootIndex = &cc
		} else {
			r.FolderIndexes = append(r.FolderIndexes, c)
		}
		if maxIndex > 0 && c.Tokens > maxIndex {
			r.Findings = append(r.Findings, Finding{Code: CodeIndexOver, Severity: "error", Path: x.Path, Message: fmt.Sprintf("the index costs %d tokens, over the index budget of %d: too large to read at once (split the folder)", c.Tokens, maxIndex)})
		}
	}
	r.Indexes = spread(indexes)
	var concepts []Cost
	for _, c := range b.Concepts {
		data := s.File(BundleDir + "/" + c.Path)
		if data == nil {
			continue
		}
		k := cost(c.Path, string(data))
		concepts = append(concepts, k)
		if o.MaxConcept > 0 && k.Tokens > o.MaxConcept {
			r.Findings = append(r.Findings, Finding{Code: CodeConceptOver, Severity: "error", Path: c.Path, Message: fmt.Sprintf("the concept costs %d tokens, over the concept budget of %d", k.Tokens, o.MaxConcept)})
		}
	}
	r.Concepts = spread(concepts)
	if o.ToolsList != nil {
		t := cost("tools/list", string(o.ToolsList))
		r.ToolsList = &t
	}
	for _, f := range s.Findings {
		if f.Code == CodeFileSkipped {
			r.Findings = append(r.Findings, f)
		}
	}
	sortFindings(r.Findings)
	return r
}

// spread sums up costs (nearest-rank percentiles: the smallest value at or above that share).
func spread(cs []Cost) Spread {
	sp := Spread{Count: len(cs), Largest: []Cost{}}
	if len(cs) == 0 {
		return sp
	}
	sorted := append([]Cost(nil), cs...)
	sort.Slice(sorted, func(i, j int) bool {
		if sorted[i].Tokens != sorted[j].Tokens {
			return sorted[i].Tokens > sorted[j].Tokens
		}
		return sorted[i].Path < sorted[j].Path
	})
	n := len(sorted)
	for _, c := range sorted {
		sp.Total += c.Tokens
	}
	rank := func(p int) int { // nearest rank, ascending; sorted is descending
		k := (p*n + 99) / 100
		if k < 1 {
			k = 1
		}
		return sorted[n-k].Tokens
	}
	sp.Median, sp.P95, sp.Max = rank(50), rank(95), sorted[0].Tokens
	sp.Largest = sorted[:min(largest, n)]
	return sp
}

// BudgetFormats are the output formats of WriteBudget.
var BudgetFormats = []string{"text", "json", "markdown"}

// WriteBudget writes the budget in format: text for a terminal, json for tools, markdown for a
// pull-request comment or a page. Paths are the bundle's: escaped for where they land.
func WriteBudget(w io.Writer, r *Budget, format string) error {
	switch format {
	case "json":
		return escape.EncodeJSONLog(w, r, "  ", true)
	case "markdown":
		return writeBudgetMarkdown(w, r)
	case "text":
		return writeBudgetText(w, r)
	}
	return fmt.Errorf("unknown format %q: want one of %s", format, strings.Join(BudgetFormats, ", "))
}

func writeBudgetText(w io.Writer, r *Budget) error {
	var b strings.Builder
	esc := escape.Control
	fmt.Fprintf(&b, "skill %s, in %s tokens\n\n", esc(r.Skill), r.Tokenizer)
	fmt.Fprintf(&b, "level 1  metadata (name, description)  %7d\n", r.Metadata.Tokens)
	fmt.Fprintf(&b, "level 2  SKILL.md body                 %7d  (guideline %d)\n", r.Body.Tokens, BodyGuideline)
	if r.RootIndex != nil {
		fmt.Fprintf(&b, "level 3  root index                    %7d\n", r.RootIndex.Tokens)
	} else {
		b.WriteString("level 3  root index                          -  (none)\n")
	}
	fmt.Fprintf(&b, "         folder indexes                %7d  (%d; largest %d, budget %d)\n", sumOf(r.FolderIndexes), len(r.FolderIndexes), maxOf(r.FolderIndexes), r.MaxIndex)
	c := r.Concepts
	fmt.Fprintf(&b, "         concepts                      %7d  (%d; median %d, p95 %d, max %d)\n", c.Total, c.Count, c.Median, c.P95, c.Max)
	if r.ToolsList != nil {
		fmt.Fprintf(&b, "okf serve tools/list                   %7d\n", r.ToolsList.Tokens)
	}
	if len(c.Largest) > 0 {
		b.WriteString("\nlargest concepts:\n")
		for _, k := range c.Largest {
			fmt.Fprintf(&b, "  %7d  %s\n", k.Tokens, esc(k.Path))
		}
	}
	if len(r.FolderIndexes) > 0 {
		b.WriteString("\nfolder indexes:\n")
		for _, k := range r.FolderIndexes {
			fmt.Fprintf(&b, "  %7d  %s\n", k.Tokens, esc(k.Path))
		}
	}
	if len(r.Findings) > 0 {
		b.WriteString("\n")
		for _, f := range r.Findings {
			fmt.Fprintf(&b, "%s: %s: %s [%s]\n", esc(f.Path), f.Severity, esc(f.Message), f.Code)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeBudgetMarkdown(w io.Writer, r *Budget) error {
	var b strings.Builder
	md := escape.Markdown
	fmt.Fprintf(&b, "### Context budget of skill %s (%s tokens)\n\n", escape.MarkdownCode(r.Skill), r.Tokenizer)
	b.WriteString("| level | what | tokens |\n|---|---|---:|\n")
	fmt.Fprintf(&b, "| 1 | metadata (name, description) | %d |\n", r.Metadata.Tokens)
	fmt.Fprintf(&b, "| 2 | SKILL.md body (guideline %d) | %d |\n", BodyGuideline, r.Body.Tokens)
	if r.RootIndex != nil {
		fmt.Fprintf(&b, "| 3 | root index | %d |\n", r.RootIndex.Tokens)
	} else {
		b.WriteString("| 3 | root index | none |\n")
	}
	fmt.Fprintf(&b, "| 3 | folder indexes (%d, largest) | %d |\n", len(r.FolderIndexes), maxOf(r.FolderIndexes))
	c := r.Concepts
	fmt.Fprintf(&b, "| 3 | concepts (%d): median / p95 / max | %d / %d / %d |\n", c.Count, c.Median, c.P95, c.Max)
	if r.ToolsList != nil {
		fmt.Fprintf(&b, "| – | okf serve tools/list | %d |\n", r.ToolsList.Tokens)
	}
	if len(c.Largest) > 0 {
		b.WriteString("\n| largest concepts | tokens |\n|---|---:|\n")
		for _, k := range c.Largest {
			fmt.Fprintf(&b, "| %s | %d |\n", md(k.Path), k.Tokens)
		}
	}
	if len(r.Findings) > 0 {
		b.WriteString("\n| finding | file | message |\n|---|---|---|\n")
		for _, f := range r.Findings {
			fmt.Fprintf(&b, "| %s %s | %s | %s |\n", f.Code, f.Severity, md(f.Path), md(f.Message))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func sumOf(cs []Cost) int {
	n := 0
	for _, c := range cs {
		n += c.Tokens
	}
	return n
}

func maxOf(cs []Cost) int {
	n := 0
	for _, c := range cs {
		n = max(n, c.Tokens)
	}
	return n
}
