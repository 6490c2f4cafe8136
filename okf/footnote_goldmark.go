package okf

import (
	"sort"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	fast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// footnotes is goldmark's footnote extension with a reference parser and transformer of okf's own,
// which build the same tree in linear time, and goldmark's definition parser copied here: importing
// github.com/yuin/goldmark/extension for it alone compiled that package's linkify regexps in every
// okf process (~3 ms and 260 KB at init, issue 11).
//
// Bound: goldmark's reference parser copies each `[^label]` through the paragraph reader, which
// walks back over every line of the paragraph, and then looks the label up by scanning every
// definition: a body of n references and n definitions cost n² (40,000 references: seconds; an
// 8 MiB body: most of an hour). Here a label is read from its own line and looked up in a map built
// once per body, so each reference costs its length.
var footnotes goldmark.Extender = footnoteExt{}

type footnoteExt struct{}

func (footnoteExt) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		parser.WithBlockParsers(util.Prioritized(footnoteDefParser{}, 999)),
		parser.WithInlineParsers(util.Prioritized(footnoteRefParser{}, 101)),
		parser.WithASTTransformers(util.Prioritized(footnoteTransformer{}, 999)),
	)
}

var footnoteKey = parser.NewContextKey()

// footnoteState is one body's footnote definitions: the list goldmark's definition parser keeps,
// and an index of it by label, built at the first reference (every block is parsed before inlines).
type footnoteState struct {
	list  *fast.FootnoteList
	byRef map[string]*fast.Footnote
}

func footnoteStateOf(pc parser.Context) *footnoteState {
	if s, ok := pc.Get(footnoteKey).(*footnoteState); ok {
		return s
	}
	s := &footnoteState{}
	pc.Set(footnoteKey, s)
	return s
}

// footnoteDefParser reads a `[^label]: text` definition block: goldmark's footnoteBlockParser
// (github.com/yuin/goldmark/extension/footnote.go, v1.8.7; MIT License, Copyright (c) 2019 Yusuke
// Inuzuka), unchanged but for keeping the list in footnoteState. TestFootnoteDefParserAsGoldmarks
// compares the trees the two build.
type footnoteDefParser struct{}

// footnoteLabelLimit is goldmark's longest footnote label, CommonMark's longest link label.
const footnoteLabelLimit = 999

func (footnoteDefParser) Trigger() []byte { return []byte{'['} }

func (footnoteDefParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, segment := reader.PeekLine()
	pos := pc.BlockOffset()
	if pos < 0 || line[pos] != '[' {
		return nil, parser.NoChildren
	}
	pos++
	if pos > len(line)-1 || line[pos] != '^' {
		return nil, parser.NoChildren
	}
	open := pos + 1
	labelBytes := line[pos+1 : min(len(line), pos+1+footnoteLabelLimit)]
	closure := util.FindClosure(labelBytes, '[', ']', false, false) //lint:ignore SA1019 one line of one label, as goldmark itself does
	closes := pos + 1 + closure
	next := closes + 1
	if closure < 0 || next >= len(line) || line[next] != ':' {
		return nil, parser.NoChildren
	}
	padding := segment.Padding
	label := reader.Value(text.NewSegment(segment.Start+open-padding, segment.Start+closes-padding))
	if util.IsBlank(label) {
		return nil, parser.NoChildren
	}
	item := fast.NewFootnote(label)
	pos = next + 1 - padding
	if pos >= len(line) {
		reader.Advance(pos)
		return item, parser.NoChildren
	}
	reader.AdvanceAndSetPadding(pos, padding)
	return item, parser.HasChildren
}

func (footnoteDefParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	line, _ := reader.PeekLine()
	if util.IsBlank(line) {
		return parser.Continue | parser.HasChildren
	}
	childpos, padding := util.IndentPosition(line, reader.LineOffset(), 4)
	if childpos < 0 {
		return parser.Close
	}
	reader.AdvanceAndSetPadding(childpos, padding)
	return parser.Continue | parser.HasChildren
}

// Close files the definition in the body's one footnote list, which the first definition places
// where it stood.
func (footnoteDefParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {
	st := footnoteStateOf(pc)
	if st.list == nil {
		st.list = fast.NewFootnoteList()
		node.Parent().InsertBefore(node.Parent(), node, st.list)
	}
	node.Parent().RemoveChild(node.Parent(), node)
	st.list.AppendChild(st.list, node)
}

func (footnoteDefParser) CanInterruptParagraph() bool { return true }

func (footnoteDefParser) CanAcceptIndentedLine() bool { return false }

// footnoteRefParser reads `[^label]` (and `![^label]`) as goldmark's does, when label is defined.
type footnoteRefParser struct{}

func (footnoteRefParser) Trigger() []byte { return []byte{'!', '['} }

func (footnoteRefParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, segment := block.PeekLine()
	pos := 1
	if len(line) > 0 && line[0] == '!' {
		pos++
	}
	if pos >= len(line) || line[pos] != '^' {
		return nil
	}
	pos++
	if pos >= len(line) {
		return nil
	}
	open := pos
	closure := util.FindClosure(line[pos:min(len(line), pos+999)], '[', ']', false, false) //lint:ignore SA1019 one line of one label, as goldmark itself does
	if closure < 0 {
		return nil
	}
	closes := pos + closure
	st := footnoteStateOf(pc)
	if st.list == nil {
		return nil
	}
	if st.byRef == nil {
		st.byRef = map[string]*fast.Footnote{}
		for n := st.list.FirstChild(); n != nil; n = n.NextSibling() {
			if d, ok := n.(*fast.Footnote); ok {
				if _, dup := st.byRef[string(d.Ref)]; !dup {
					st.byRef[string(d.Ref)] = d // the first definition of a label wins, as in goldmark
				}
			}
		}
	}
	d := st.byRef[string(line[open:closes])]
	if d == nil {
		return nil
	}
	block.Advance(closes + 1)
	if d.Index < 0 {
		st.list.Count++
		d.Index = st.list.Count
	}
	if line[0] == '!' {
		parent.AppendChild(parent, ast.NewTextSegment(text.NewSegment(segment.Start, segment.Start+1)))
	}
	return fast.NewFootnoteLink(d.Index)
}

// footnoteTransformer does what goldmark's does to the tree, but for back-links (okf renders
// nothing): definitions never referenced are dropped, the rest ordered by first reference and
// moved to the end of the document.
type footnoteTransformer struct{}

func (footnoteTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	list := footnoteStateOf(pc).list
	if list == nil {
		return
	}
	var kept []*fast.Footnote
	for n := list.FirstChild(); n != nil; {
		next := n.NextSibling()
		list.RemoveChild(list, n)
		if d, ok := n.(*fast.Footnote); ok && d.Index >= 0 {
			kept = append(kept, d)
		}
		n = next
	}
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].Index < kept[j].Index })
	for _, d := range kept {
		list.AppendChild(list, d)
	}
	if list.Count <= 0 {
		list.Parent().RemoveChild(list.Parent(), list)
		return
	}
	doc.AppendChild(doc, list)
}
