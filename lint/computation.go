package lint

import (
	"strconv"
	"strings"

	"github.com/okf-tools/okf/internal/sqllex"
	"github.com/okf-tools/okf/okf"
)

// What the attested-computation rules (§10, D17) share: finding the computation and reading the
// placeholders the runtime binds.

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
	blocks := okf.ComputationBlocks(c)
	if fm.Computation().Present() {
		if len(blocks) > 0 || fm.Computation().Kind != okf.Scalar {
			return computationText{}, false
		}
		r := b.ResolvePath(c.Path, fm.Computation().Raw)
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

// placeholders lists the placeholders of a computation in its runtime's syntax (sqllex.Placeholders,
// D17), each at a line and column of the text.
func placeholders(text string, runtime okf.Value) []placeholder {
	var out []placeholder
	for _, ph := range sqllex.Placeholders(text, runtime.Text()) {
		out = append(out, place(text, ph.Offset, ph.Name))
	}
	return out
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
		return at(c.Frontmatter.Computation(), fileStart(c))
	}
	bp := ct.block.Pos
	if ct.block.Fenced {
		return okf.Position{Path: bp.Path, Line: int32(int(bp.Line) + ph.line), Col: int32(int(bp.Col) + ph.col - 1)}
	}
	return okf.Position{Path: bp.Path, Line: int32(int(bp.Line) + ph.line - 1), Col: int32(int(bp.Col) + ph.col - 1)}
}

// where says where a placeholder is, for messages about a computation file.
func (ct computationText) where(ph placeholder) string {
	if ct.file == "" {
		return ""
	}
	return " (in /" + ct.file + " line " + strconv.Itoa(ph.line) + ")"
}

// boundComputation is the computation of an Attested Computation whose runtime okf can read
// placeholders for, with that runtime's placeholder syntax; ok is false otherwise. The placeholder
// rules (OKF704, OKF705) both start from it.
func boundComputation(b *okf.Bundle, c *okf.Concept, fm *okf.Frontmatter) (ct computationText, syntax string, ok bool) {
	if !isAttestedComputation(fm) {
		return ct, "", false
	}
	if syntax = sqllex.PlaceholderSyntax(fm.Runtime().Text()); syntax == "" {
		return ct, "", false
	}
	ct, ok = computationOf(b, c)
	return ct, syntax, ok
}

// writtenAs shows a parameter as the runtime writes it: @name, or var('name') for dbt (D17).
func writtenAs(syntax, name string) string {
	if syntax == "dbt" {
		return "var('" + name + "')"
	}
	return "@" + name
}
