package lint

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/okf-tools/okf/okf"
)

// What the attested-computation rules (§10, D17) share: finding the computation and reading the
// placeholders the runtime binds.

// computationBlocks returns the code blocks (fenced or indented; §10.2's own example is indented)
// under a `# Computation` heading, at any depth below it.
func computationBlocks(c *okf.Concept) []okf.CodeBlock {
	var out []okf.CodeBlock
	for _, cb := range c.Body.CodeBlocks {
		for _, s := range cb.Sections {
			if strings.EqualFold(strings.TrimSpace(s), "computation") {
				out = append(out, cb)
				break
			}
		}
	}
	return out
}

// computationText is the computation a consumer would bind (§10.3), with where its lines are.
type computationText struct {
	text string
	// block is the inline code block, nil when the text came from the `computation` file.
	block *okf.CodeBlock
	// file is the bundle path of the `computation` file ("" for inline).
	file string
}

// computationOf finds the one computation of an Attested Computation: the `computation` file when
// set and readable inside the bundle (read through Bundle.ReadFile, never outside the root, D14),
// else the single block under # Computation. ok is false when there is none or several.
func computationOf(b *okf.Bundle, c *okf.Concept) (computationText, bool) {
	fm := c.Frontmatter
	blocks := computationBlocks(c)
	if fm.Computation.Present() {
		if len(blocks) > 0 || fm.Computation.Kind != okf.Scalar {
			return computationText{}, false
		}
		r := b.ResolvePath(c.Path, fm.Computation.Raw)
		if r.Kind != okf.RefLocal || !r.Exists || r.IsDir || r.Escapes {
			return computationText{}, false
		}
		data, err := b.ReadFile(r.Target)
		if err != nil {
			return computationText{}, false
		}
		return computationText{text: string(data), file: r.Target}, true
	}
	if len(blocks) != 1 {
		return computationText{}, false
	}
	return computationText{text: blocks[0].Content, block: &blocks[0]}, true
}

// placeholder is one parameter reference in a computation, at a line and column of its text.
type placeholder struct {
	name      string
	line, col int // 1-based within the computation text
}

// sqlRuntimes bind parameters as @name (D17): BigQuery named parameters and the like.
var sqlRuntimes = map[string]bool{
	"bigquery": true, "postgres": true, "postgresql": true, "mysql": true, "sqlite": true, "duckdb": true,
	"snowflake": true, "redshift": true, "sql": true, "trino": true, "presto": true, "athena": true,
	"spark": true, "sparksql": true, "databricks": true, "mssql": true, "sqlserver": true, "clickhouse": true, "oracle": true,
}

var (
	sqlParamRE = regexp.MustCompile(`@@?[A-Za-z_][A-Za-z0-9_]*`)
	dbtVarRE   = regexp.MustCompile(`\bvar\(\s*['"]([^'"]+)['"]`)
	// sqlNoiseRE matches what cannot hold a bind parameter: comments, string literals and quoted
	// identifiers (an email in a string, `@` in a comment).
	sqlNoiseRE = regexp.MustCompile("(?s)--[^\n]*|#[^\n]*|/\\*.*?\\*/|'(?:[^'\\\\]|\\\\.|'')*'|\"(?:[^\"\\\\]|\\\\.)*\"|`[^`]*`")
)

// bindingSyntax says how the runtime writes placeholders: "sql" (@name), "dbt" (var('name')), or ""
// when okf does not know (python, Looker: parameters are arguments or fields, not text).
func bindingSyntax(runtime okf.Value) string {
	rt := strings.ToLower(strings.TrimSpace(runtime.Text()))
	switch {
	case rt == "dbt":
		return "dbt"
	case sqlRuntimes[rt]:
		return "sql"
	}
	return ""
}

// placeholders lists the placeholders of text in the runtime's syntax, in order.
func placeholders(text, syntax string) []placeholder {
	var out []placeholder
	switch syntax {
	case "sql":
		masked := sqlNoiseRE.ReplaceAllStringFunc(text, func(s string) string {
			return strings.Map(func(r rune) rune {
				if r == '\n' {
					return r
				}
				return ' '
			}, s)
		})
		for _, m := range sqlParamRE.FindAllStringIndex(masked, -1) {
			tok := masked[m[0]:m[1]]
			if strings.HasPrefix(tok, "@@") {
				continue // a system variable (@@project_id), not a parameter
			}
			if m[0] > 0 && isIdent(masked[m[0]-1]) {
				continue // user@host inside an identifier
			}
			out = append(out, place(text, m[0], tok[1:]))
		}
	case "dbt":
		for _, m := range dbtVarRE.FindAllStringSubmatchIndex(text, -1) {
			out = append(out, place(text, m[0], text[m[2]:m[3]]))
		}
	}
	return out
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// place turns a byte offset of text into a placeholder with a 1-based line and rune column.
func place(text string, off int, name string) placeholder {
	before := text[:off]
	line := strings.Count(before, "\n") + 1
	col := len([]rune(before[strings.LastIndexByte(before, '\n')+1:])) + 1
	return placeholder{name: name, line: line, col: col}
}

// pos maps a placeholder to a file position: inside the inline block, or at the `computation` value
// when the text came from a file (the finding belongs to the concept that declares the contract).
func (ct computationText) pos(c *okf.Concept, ph placeholder) okf.Position {
	if ct.block == nil {
		return at(c.Frontmatter.Computation, fileStart(c))
	}
	bp := ct.block.Pos
	if ct.block.Fenced {
		return okf.Position{Path: bp.Path, Line: bp.Line + ph.line, Col: bp.Col + ph.col - 1}
	}
	return okf.Position{Path: bp.Path, Line: bp.Line + ph.line - 1, Col: bp.Col + ph.col - 1}
}

// where says where a placeholder is, for messages about a computation file.
func (ct computationText) where(ph placeholder) string {
	if ct.file == "" {
		return ""
	}
	return " (in /" + ct.file + " line " + strconv.Itoa(ph.line) + ")"
}
