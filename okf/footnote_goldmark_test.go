package okf

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	fast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// goldmarksDefParser is goldmark's own footnote definition parser, noting the list it files
// definitions in: the way okf read definitions before it carried its copy of that parser.
type goldmarksDefParser struct{ parser.BlockParser }

func (p goldmarksDefParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {
	p.BlockParser.Close(node, reader, pc)
	if l, ok := node.Parent().(*fast.FootnoteList); ok {
		footnoteStateOf(pc).list = l
	}
}

type goldmarksDefExt struct{}

func (goldmarksDefExt) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		parser.WithBlockParsers(util.Prioritized(goldmarksDefParser{extension.NewFootnoteBlockParser()}, 999)),
		parser.WithInlineParsers(util.Prioritized(footnoteRefParser{}, 101)),
		parser.WithASTTransformers(util.Prioritized(footnoteTransformer{}, 999)),
	)
}

// dumpTree writes every node of a tree with what okf reads from it: type, block lines, text
// segments, footnote labels and numbers, link destinations, heading levels.
func dumpTree(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			b.WriteString(")")
			return ast.WalkContinue, nil
		}
		fmt.Fprintf(&b, "(%T", c)
		if c.Type() == ast.TypeBlock {
			for i := 0; i < c.Lines().Len(); i++ {
				s := c.Lines().At(i)
				fmt.Fprintf(&b, " [%d:%d+%d]", s.Start, s.Stop, s.Padding)
			}
			fmt.Fprintf(&b, " blank=%v", c.HasBlankPreviousLines())
		}
		switch t := c.(type) {
		case *ast.Text:
			fmt.Fprintf(&b, " %q", t.Segment.Value(src))
		case *ast.Heading:
			fmt.Fprintf(&b, " h%d", t.Level)
		case *ast.Link:
			fmt.Fprintf(&b, " %q", t.Destination)
		case *fast.Footnote:
			fmt.Fprintf(&b, " %q #%d", t.Ref, t.Index)
		case *fast.FootnoteList:
			fmt.Fprintf(&b, " count=%d", t.Count)
		case *fast.FootnoteLink:
			fmt.Fprintf(&b, " #%d", t.Index)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// checkFootnoteDefs fails t when okf's copy of goldmark's definition parser builds another tree
// than goldmark's own, or another Body.
func checkFootnoteDefs(t *testing.T, theirs goldmark.Markdown, body string) {
	t.Helper()
	src := []byte(body)
	want := theirs.Parser().Parse(text.NewReader(src))
	got := markdown().Parser().Parse(text.NewReader(src))
	if g, w := dumpTree(got, src), dumpTree(want, src); g != w {
		t.Fatalf("%q:\nokf's     %s\ngoldmark's %s", body, g, w)
	}
	li := newLineIndex(src)
	gb := (&bodyParser{path: "c.md", src: src, lines: li}).treeBody(got)
	wb := (&bodyParser{path: "c.md", src: src, lines: li}).treeBody(want)
	if !reflect.DeepEqual(gb, wb) {
		t.Fatalf("%q:\nokf's     %s\ngoldmark's %s", body, dumpBody(gb), dumpBody(wb))
	}
}

// TestFootnoteDefParserAsGoldmarks checks okf's copy of goldmark's footnote definition parser
// (footnote_goldmark.go) against goldmark's own, on the seeds and corpus bodies and on random
// bodies of definitions, references, continuations, containers and code.
func TestFootnoteDefParserAsGoldmarks(t *testing.T) {
	theirs := goldmark.New(goldmark.WithExtensions(goldmarksDefExt{}))
	for _, s := range append(append(append([]string{}, bodySeeds...), nearMisses...), corpusBodies(t)...) {
		checkFootnoteDefs(t, theirs, s)
	}
	lines := []string{
		"", "", "text", "text[^1] and [^a]", "![^1] bang", "[^1]: one", "[^a]: alpha [x](y.md)", "[^1]: dup", "[^1]:", "[^1]:x",
		"[^ ]: blank", "[^]: empty", "[^a b]: space", "[^a[b]]: nested", "[^a]x: not", "[^a] : not", "   [^b]: three", "    [^c]: four",
		"\t[^d]: tab", "    continued", "\tcontinued tab", "  two in", "> [^q]: quoted", "> text [^q]", "- [^l]: listed", "- item [^l]",
		"1. [^o]: ordered", "```", "~~~", "[^e]: ```", "    ```", "# [^h]: heading", "[^" + strings.Repeat("x", 1000) + "]: long",
		"[^" + strings.Repeat("y", 997) + "]: edge", "[^" + strings.Repeat("z", 998) + "]: limit", "[^a]: [^b]: chained", "[x]: /link-def", "[^a]:\ttab text", "<!-- [^c]: hidden -->",
		"[^é]: unicode", "[^A]: upper", "setext", "===", "---", "* * *", "| a | [^1] |", "[^1]: `code [^2]`",
	}
	rnd := xorshift(11)
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for j := 1 + rnd(9); j > 0; j-- {
			b.WriteString(lines[rnd(len(lines))])
			if j > 1 || rnd(4) > 0 {
				b.WriteByte('\n')
			}
		}
		checkFootnoteDefs(t, theirs, b.String())
	}
}
