package lsp

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/internal/lazyre"
	"github.com/okf-tools/okf/lint"
	"github.com/okf-tools/okf/okf"
)

// frontmatterKeys are the top-level keys of the spec's families (§4.1, §5, §10.2), offered where a
// key is written.
var frontmatterKeys = []struct{ key, detail string }{
	{"type", "the kind of concept (§4.1)"}, {"title", "display name (§4.1)"},
	{"description", "one sentence (§4.1)"}, {"resource", "the asset's URI (§4.1)"},
	{"tags", "list of short strings (§4.1)"}, {"sources", "provenance: [{id, resource, title, author}] (§5.1)"},
	{"usage_window", "frames every usage_count (§5.1)"}, {"generated", "{by: actor, at: datetime} (§5.2)"},
	{"verified", "[{by: actor, at: datetime}] (§5.2)"}, {"status", "draft, stable or deprecated (§5.4)"},
	{"stale_after", "datetime after which to re-verify (§5.5)"}, {"runtime", "how the computation runs (§10.2)"},
	{"parameters", "typed holes the agent may fill (§10.2)"}, {"computation", "path to the computation's file (§10.2)"},
	{"executor", "how the computation is run (§10.2)"}, {"attester", "the deterministic check (§10.2)"},
}

var (
	linkOpenRE = &lazyre.Regexp{Expr: `\]\(\s*<?([^)\s>]*)$`}
	keyOnlyRE  = &lazyre.Regexp{Expr: `^[A-Za-z_]*$`}
	valueRE    = &lazyre.Regexp{Expr: `^(\s*(?:-\s+)?)([A-Za-z_]+):\s*(\[?[^\]]*)$`}
	itemRE     = &lazyre.Regexp{Expr: `^\s*-\s+\S*$`}
)

func (s *server) completion(params raw) (any, *rpcError) {
	c, err := s.cursorOf(params)
	if c == nil {
		return nil, err // no document or bundle under it: null, or bad params
	}
	line, start, n := c.lineAt()
	before := line[:min(len(line), c.off-start)]
	list := completionList{Items: []completionItem{}}
	if m := linkOpenRE.Get().FindStringSubmatch(before); m != nil && !c.inFrontmatter(n) {
		list.Items, list.IsIncomplete = c.linkTargets(m[1])
		return list, nil
	}
	if !c.inFrontmatter(n) {
		return list, nil
	}
	if keyOnlyRE.Get().MatchString(before) {
		for i, k := range frontmatterKeys {
			list.Items = append(list.Items, completionItem{Label: k.key, Kind: completionKindProperty, Detail: k.detail, InsertText: k.key + ": ", SortText: fmt.Sprintf("%02d", i)})
		}
		return list, nil
	}
	key, typed := "", ""
	if m := valueRE.Get().FindStringSubmatch(before); m != nil {
		key, typed = m[2], m[3]
	} else if itemRE.Get().MatchString(before) {
		key, typed = c.parentKey(n), strings.TrimLeft(strings.TrimSpace(before), "- ")
	}
	if i := strings.LastIndexAny(typed, "[, "); i >= 0 {
		typed = typed[i+1:] // the item being written in a flow list
	}
	typed = strings.Trim(typed, `"'`)
	switch key {
	case "status":
		for _, v := range statusNames {
			list.Items = append(list.Items, completionItem{Label: v, Kind: completionKindValue, Detail: "§5.4"})
		}
	case "type":
		list.Items, list.IsIncomplete = c.used(func(k *okf.Concept) []string { return []string{k.Frontmatter.Type.Text()} }, "type", typed)
	case "tags":
		list.Items, list.IsIncomplete = c.used(func(k *okf.Concept) []string {
			var out []string
			for _, t := range k.Frontmatter.Tags.Items {
				out = append(out, t.Text())
			}
			return out
		}, "tag", typed)
	case "by", "author":
		list.Items, list.IsIncomplete = c.used(func(k *okf.Concept) []string {
			var out []string
			if g := k.Frontmatter.Generated; g != nil {
				out = append(out, g.By.Text())
			}
			for _, e := range k.Frontmatter.Verified.Entries {
				out = append(out, e.By.Text())
			}
			return out
		}, "actor", typed)
		for _, form := range []struct{ label, detail string }{
			{"human:", "a person: human:<id> (§7)"}, {"process:", "a deterministic process: process:<id> (§7)"},
		} {
			list.Items = append(list.Items, completionItem{Label: form.label, Kind: completionKindKeyword, Detail: form.detail, SortText: "~" + form.label})
		}
	}
	return list, nil
}

// parentKey is the top-level key a list item on line n belongs to.
func (c *cursor) parentKey(n int) string {
	for i := n - 1; i > 0; i-- {
		l := c.d.text.line(i)
		if l != "" && l[0] != ' ' && l[0] != '\t' && l[0] != '-' {
			k, _, _ := strings.Cut(l, ":")
			return strings.TrimSpace(k)
		}
	}
	return ""
}

// maxCompletions bounds a completion list; past it the list says it is incomplete, and the editor
// asks again as the user types more.
const maxCompletions = 200

// used offers the values the bundle's concepts already use that hold what is typed, the most used
// first.
func (c *cursor) used(values func(*okf.Concept) []string, what, typed string) ([]completionItem, bool) {
	count := map[string]int{}
	lower := strings.ToLower(typed)
	for _, k := range c.b.Concepts {
		for _, v := range values(k) {
			// A value with a line break or control character is not offered: picked, it would be
			// inserted as written (new frontmatter lines in the user's file).
			if v = strings.TrimSpace(v); v != "" && escape.Control(v) == v && strings.Contains(strings.ToLower(v), lower) {
				count[v]++
			}
		}
	}
	vs := make([]string, 0, len(count))
	for v := range count {
		vs = append(vs, v)
	}
	sort.Slice(vs, func(i, j int) bool {
		if count[vs[i]] != count[vs[j]] {
			return count[vs[i]] > count[vs[j]]
		}
		return vs[i] < vs[j]
	})
	cut := len(vs) > maxCompletions
	if cut {
		vs = vs[:maxCompletions]
	}
	out := make([]completionItem, len(vs))
	for i, v := range vs {
		out[i] = completionItem{Label: escape.Control(v), Kind: completionKindValue, Detail: fmt.Sprintf("%s used by %d concept(s)", what, count[v]), SortText: fmt.Sprintf("%05d", i)}
	}
	return out, cut
}

// linkTargets offers the bundle's concepts whose path or title holds what is typed as link
// targets, relative to the document's folder (D15), each with its title; at most maxCompletions,
// and then the list says it is incomplete.
func (c *cursor) linkTargets(typed string) ([]completionItem, bool) {
	dir := path.Dir(c.rel)
	lower := strings.ToLower(strings.TrimPrefix(path.Base("/"+typed), "/"))
	if strings.HasSuffix(typed, "/") {
		lower = ""
	}
	out := []completionItem{}
	for _, k := range c.b.Concepts {
		if k.Path == c.rel {
			continue
		}
		if escape.Control(k.Path) != k.Path {
			continue // a name with a line break or control character: not inserted into a link
		}
		title := k.Frontmatter.Title.Text()
		if lower != "" && !strings.Contains(strings.ToLower(k.Path), lower) && !strings.Contains(strings.ToLower(title), lower) {
			continue
		}
		target := relPath(dir, k.Path)
		if strings.HasPrefix(typed, "/") {
			target = "/" + k.Path
		}
		if len(out) == maxCompletions {
			return out, true
		}
		out = append(out, completionItem{Label: escape.Control(target), Kind: completionKindFile, Detail: escape.Control(title), SortText: target})
	}
	return out, false
}

// relPath is the relative slash path from folder dir to the file p.
func relPath(dir, p string) string {
	if dir == "." {
		return p
	}
	from := strings.Split(dir, "/")
	to := strings.Split(p, "/")
	i := 0
	for i < len(from) && i < len(to)-1 && from[i] == to[i] {
		i++
	}
	return strings.Repeat("../", len(from)-i) + strings.Join(to[i:], "/")
}

// maxQuickFixes is how many quick fixes one code action request offers. Each is proven by
// applying it to the file (a parse of the whole file), so a selection holding a thousand fixable
// findings of a large file would cost a thousand parses; the fix-all covers the rest.
const maxQuickFixes = 32

func (s *server) codeAction(params raw) (any, *rpcError) {
	var p codeActionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	c, ok := s.cursorAt(textDocumentPositionParams{TextDocument: p.TextDocument, Position: p.Range.Start})
	if !ok {
		return []codeAction{}, nil
	}
	ds := c.st.findings[c.rel]
	fixes := lint.Fixes(c.b, ds)
	from, to := c.d.text.offset(p.Range.Start), c.d.text.offset(p.Range.End)
	out := []codeAction{}
	for _, d := range ds {
		if len(out) >= maxQuickFixes {
			break
		}
		f, ok := fixes[d]
		if !ok || f.Path != c.rel {
			continue
		}
		at := c.d.text.okfOffset(int(d.Pos.Line), int(d.Pos.Col))
		if at < from || at > max(to, c.d.text.wordEnd(from)) {
			if !(d.Pos.Line > 0 && c.d.text.pos(at).Line >= p.Range.Start.Line && c.d.text.pos(at).Line <= p.Range.End.Line) {
				continue
			}
		}
		if proven := lint.PlanFixes(c.b, []okf.Diagnostic{d}, map[okf.Diagnostic]lint.Fix{d: f}); len(proven) != 1 || proven[0].Unproven != nil {
			continue // a fix okf cannot prove is never offered
		}
		out = append(out, codeAction{Title: "okf: " + f.Description, Kind: "quickfix", Diagnostics: []lspDiagnostic{s.toLSP(c.d, d)}, IsPreferred: true,
			Edit: &workspaceEdit{Changes: map[string][]textEdit{c.d.uri: c.textEdits(f.Edits)}}})
	}
	for _, ff := range lint.PlanFixes(c.b, ds, fixes) {
		if ff.Path != c.rel || ff.Unproven != nil || len(ff.Fixed) == 0 {
			continue
		}
		out = append(out, codeAction{Title: fmt.Sprintf("okf: fix all in file (%d)", len(ff.Fixed)), Kind: "source.fixAll.okf",
			Edit: &workspaceEdit{Changes: map[string][]textEdit{c.d.uri: c.textEdits(ff.Edits)}}})
	}
	if len(p.Context.Only) > 0 {
		kept := out[:0]
		for _, a := range out {
			for _, k := range p.Context.Only {
				if a.Kind == k || strings.HasPrefix(a.Kind, k+".") {
					kept = append(kept, a)
					break
				}
			}
		}
		out = kept
	}
	return out, nil
}

// textEdits converts byte-offset edits of the document's text to the protocol's.
func (c *cursor) textEdits(es []okf.Edit) []textEdit {
	out := make([]textEdit, 0, len(es))
	for _, e := range es {
		out = append(out, textEdit{Range: lspRange{c.d.text.pos(e.Start), c.d.text.pos(e.End)}, NewText: e.New})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Range.Start, out[j].Range.Start
		return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
	})
	return out
}

func (s *server) documentSymbol(params raw) (any, *rpcError) {
	var p struct {
		TextDocument textDocumentIdentifier `json:"textDocument"`
	}
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	c, ok := s.cursorAt(textDocumentPositionParams{TextDocument: p.TextDocument})
	if !ok {
		return []documentSymbol{}, nil
	}
	out := []documentSymbol{}
	t := c.d.text
	lineRange := func(line int) lspRange {
		l := max(0, min(line-1, len(t.starts)-1))
		// The line's end through pos, which reads from the nearest mark: keys of a flow mapping
		// share one line, however long.
		return lspRange{position{Line: l}, t.pos(t.starts[l] + len(t.line(l)))}
	}
	var fm *okf.Frontmatter
	var body *okf.Body
	if k := c.b.ConceptAt(c.rel); k != nil {
		fm, body = k.Frontmatter, k.Body
	}
	for _, x := range c.b.Indexes {
		if x.Path == c.rel {
			fm, body = x.Frontmatter, x.Body
		}
	}
	if fm != nil && len(fm.Keys) > 0 {
		group := documentSymbol{Name: "frontmatter", Kind: symbolKindNamespace}
		for _, k := range fm.Keys {
			r := lineRange(int(k.Pos.Line))
			name := escape.Control(k.Name)
			if strings.TrimSpace(name) == "" {
				name = "(empty key)"
			}
			group.Children = append(group.Children, documentSymbol{Name: name, Kind: symbolKindProperty, Range: r, SelectionRange: r})
		}
		group.Range = lspRange{group.Children[0].Range.Start, group.Children[len(group.Children)-1].Range.End}
		group.SelectionRange = group.Children[0].Range
		out = append(out, group)
	}
	if body != nil {
		out = append(out, headingTree(body.Headings, lineRange)...)
	}
	return out, nil
}

func (s *server) workspaceSymbol(params raw) (any, *rpcError) {
	var p workspaceSymbolParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	q := strings.ToLower(p.Query)
	out := []symbolInformation{}
	roots := make([]string, 0, len(s.bundles))
	for r := range s.bundles {
		roots = append(roots, r)
	}
	sort.Strings(roots)
	for _, r := range roots {
		st := s.bundles[r]
		if st.pending() {
			st.check(s.now())
		}
		if st.b == nil {
			continue
		}
		for _, k := range st.b.Concepts {
			title := k.Frontmatter.Title.Text()
			if title == "" {
				title = k.ID
			}
			if q != "" && !strings.Contains(strings.ToLower(title), q) && !strings.Contains(strings.ToLower(k.ID), q) {
				continue
			}
			out = append(out, symbolInformation{Name: escape.Control(title), Kind: symbolKindFile, Location: st.fileLocation(k.Path, 1), ContainerName: escape.Control(k.Frontmatter.Type.Text())})
			if len(out) >= 500 {
				return out, nil
			}
		}
	}
	return out, nil
}

// headingTree nests headings by level: each holds the headings below it until one of its level or
// higher.
func headingTree(hs []okf.Heading, lineRange func(int) lspRange) []documentSymbol {
	type node struct {
		sym      documentSymbol
		level    int
		children []*node
	}
	var roots, stack []*node
	for _, h := range hs {
		r := lineRange(int(h.Pos.Line))
		name := escape.Control(h.Text)
		if strings.TrimSpace(name) == "" {
			name = "(empty heading)" // the protocol wants a name; an editor drops the outline without one
		}
		n := &node{sym: documentSymbol{Name: name, Detail: strings.Repeat("#", h.Level), Kind: symbolKindString, Range: r, SelectionRange: r}, level: h.Level}
		for len(stack) > 0 && stack[len(stack)-1].level >= h.Level {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			roots = append(roots, n)
		} else {
			p := stack[len(stack)-1]
			p.children = append(p.children, n)
		}
		stack = append(stack, n)
	}
	var value func(ns []*node) []documentSymbol
	value = func(ns []*node) []documentSymbol {
		out := make([]documentSymbol, 0, len(ns))
		for _, n := range ns {
			n.sym.Children = value(n.children)
			out = append(out, n.sym)
		}
		return out
	}
	return value(roots)
}
