package lsp

import (
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/internal/lazyre"
	"github.com/okf-tools/okf/lint"
	"github.com/okf-tools/okf/okf"
)

// cursor is what a position request is about: the open document, its bundle path and the offset.
type cursor struct {
	d   *openDoc
	rel string
	off int
	b   *okf.Bundle
	st  *bundleState
}

func (s *server) cursorAt(p textDocumentPositionParams) (*cursor, bool) {
	fp, ok := pathOf(p.TextDocument.URI)
	if !ok {
		return nil, false
	}
	d := s.docs[fp]
	if d == nil {
		return nil, false
	}
	if d.bundle.pending() {
		d.bundle.check(s.now()) // an answer about the text as it is now, not as of the last pause
	}
	rel, ok := d.bundle.rel(fp)
	if !ok || d.bundle.b == nil {
		return nil, false
	}
	return &cursor{d: d, rel: rel, off: d.text.offset(p.Position), b: d.bundle.b, st: d.bundle}, true
}

// cursorOf decodes a position request's params and finds its cursor: nil with no error when the
// document is not open or in no loaded bundle (the answer is null), nil with an error when the
// params have the wrong shape.
func (s *server) cursorOf(params raw) (*cursor, *rpcError) {
	var p textDocumentPositionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	c, _ := s.cursorAt(p)
	return c, nil
}

func (s *server) now() time.Time { return s.opts.Now().Truncate(time.Minute) }

var (
	linkRE      = &lazyre.Regexp{Expr: `!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>\n]*>|[^)\s]+)(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)`}
	footnoteRE  = &lazyre.Regexp{Expr: `\[\^([^\]\s]+)\]`}
	codeRE      = &lazyre.Regexp{Expr: `\bOKF\d{3}\b`}
	fmLineRE    = &lazyre.Regexp{Expr: `^(\s*(?:-\s+)?)([A-Za-z_][A-Za-z0-9_-]*):[ \t]*(.*?)\s*(?:#.*)?$`}
	timeKeys    = map[string]bool{"at": true, "stale_after": true, "last_modified": true, "timestamp": true}
	pathKeys    = map[string]bool{"resource": true, "file": true, "computation": true}
	statusNames = []string{"draft", "stable", "deprecated"}
)

// lineAt returns the line holding off, its start offset and its number (0-based).
func (c *cursor) lineAt() (line string, start, n int) {
	pos := c.d.text.pos(c.off)
	return c.d.text.line(pos.Line), c.d.text.starts[pos.Line], pos.Line
}

// inFrontmatter reports whether line n (0-based) is inside the frontmatter block.
func (c *cursor) inFrontmatter(n int) bool {
	t := c.d.text
	if t.line(0) != "---" {
		return false
	}
	for i := 1; i < len(t.starts); i++ {
		if l := t.line(i); l == "---" || l == "..." {
			return n > 0 && n < i
		}
	}
	return false
}

// match finds the regexp match on the cursor's line that covers the cursor: its text and the
// byte range of the given group in the document.
func (c *cursor) match(re *lazyre.Regexp, group int) (string, int, int, bool) {
	line, start, _ := c.lineAt()
	col := c.off - start
	for _, m := range re.Get().FindAllStringSubmatchIndex(line, -1) {
		if col >= m[0] && col <= m[1] && m[2*group] >= 0 {
			return line[m[2*group]:m[2*group+1]], start + m[2*group], start + m[2*group+1], true
		}
	}
	return "", 0, 0, false
}

// frontmatterValue is the key and value on the cursor's frontmatter line, and where the value is.
func (c *cursor) frontmatterValue() (key, value string, vstart, vend int, ok bool) {
	line, start, n := c.lineAt()
	if !c.inFrontmatter(n) {
		return "", "", 0, 0, false
	}
	m := fmLineRE.Get().FindStringSubmatchIndex(line)
	if m == nil {
		return "", "", 0, 0, false
	}
	key, value = line[m[4]:m[5]], strings.Trim(line[m[6]:m[7]], `"'`)
	return key, value, start + m[6], start + m[7], true
}

// linkTarget is the target of the link under the cursor, resolved (D15).
func (c *cursor) linkTarget() (okf.Resolution, int, int, bool) {
	t, s, e, ok := c.match(linkRE, 1)
	if !ok {
		return okf.Resolution{}, 0, 0, false
	}
	t = strings.TrimSuffix(strings.TrimPrefix(t, "<"), ">")
	return c.b.ResolveLink(c.rel, t), s, e, true
}

func (s *server) hover(params raw) (any, *rpcError) {
	c, err := s.cursorOf(params)
	if c == nil {
		return nil, err // no document or bundle under it: null, or bad params
	}
	now := s.opts.Now()
	reply := func(text string, start, end int) any {
		r := lspRange{c.d.text.pos(start), c.d.text.pos(end)}
		return hover{Contents: markupContent{Kind: "markdown", Value: text}, Range: &r}
	}
	if code, s0, e0, ok := c.match(codeRE, 0); ok {
		if r := lint.ByCode(code); r != nil {
			return reply(ruleHover(r), s0, e0), nil
		}
	}
	if res, s0, e0, ok := c.linkTarget(); ok {
		if text := c.fileHover(res, now); text != "" {
			return reply(text, s0, e0), nil
		}
	}
	if key, value, s0, e0, ok := c.frontmatterValue(); ok {
		switch {
		case timeKeys[key]:
			if t, form := okf.ParseTimestamp(value); form == okf.Full || form == okf.DateOnly || form == okf.NoOffset {
				return reply(timeHover(key, t, form, now), s0, e0), nil
			}
		case pathKeys[key] && value != "" && !strings.Contains(value, "://"):
			if text := c.fileHover(c.b.ResolvePath(c.rel, value), now); text != "" {
				return reply(text, s0, e0), nil
			}
		case key == "status":
			st, known := okf.StatusOf(okf.Value{Kind: okf.Scalar, Raw: value, Tag: "!!str"})
			if !known {
				return reply(fmt.Sprintf("%s is not draft, stable or deprecated: read as **stable** (§5.4, D13)", codeSpan("status: "+value)), s0, e0), nil
			}
			return reply(fmt.Sprintf("status **%s** (§5.4)", st), s0, e0), nil
		}
	}
	return nil, nil
}

func ruleHover(r *lint.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s %s** (%s, default %s)\n\n%s", r.Code, r.Name, r.Source(), r.Severity, r.Title)
	if r.Doc != "" {
		fmt.Fprintf(&b, "\n\n%s", r.Doc)
	}
	return b.String()
}

// timeHover says the instant in UTC and how far it is from now.
func timeHover(key string, t time.Time, form okf.TimeForm, now time.Time) string {
	s := fmt.Sprintf("`%s`: **%s** (%s)", key, t.UTC().Format("2006-01-02 15:04 MST"), relative(t, now))
	if form != okf.Full {
		s += "\n\nno time or no offset: read as UTC midnight or as UTC (D10)"
	}
	return s
}

// relative says how long ago or until t is, in the largest whole unit.
func relative(t, now time.Time) string {
	d := t.Sub(now)
	future := d > 0
	if !future {
		d = -d
	}
	var n int
	var unit string
	switch {
	case d < time.Minute:
		return "now"
	case d < time.Hour:
		n, unit = int(d/time.Minute), "minute"
	case d < 48*time.Hour:
		n, unit = int(d/time.Hour), "hour"
	case d < 60*24*time.Hour:
		n, unit = int(d/(24*time.Hour)), "day"
	case d < 730*24*time.Hour:
		n, unit = int(d/(30*24*time.Hour)), "month"
	default:
		n, unit = int(d/(365*24*time.Hour)), "year"
	}
	if n != 1 {
		unit += "s"
	}
	if future {
		return fmt.Sprintf("in %d %s", n, unit)
	}
	return fmt.Sprintf("%d %s ago", n, unit)
}

// fileHover describes the file a link or path leads to; for a concept, its title, type, trust tier,
// status and staleness.
func (c *cursor) fileHover(res okf.Resolution, now time.Time) string {
	switch {
	case res.Kind != okf.RefLocal:
		return ""
	case !res.Exists:
		return fmt.Sprintf("%s does not exist in the bundle", codeSpan(res.Target))
	}
	target := res.Target
	if res.IsDir {
		target = path.Join(target, "index.md")
	}
	k := c.b.ConceptAt(target)
	if k == nil {
		return codeSpan(res.Target)
	}
	return conceptSummary(k, now, c.st)
}

func conceptSummary(k *okf.Concept, now time.Time, st *bundleState) string {
	fm := k.Frontmatter
	var b strings.Builder
	title := fm.Title.Text()
	if title == "" {
		title = k.ID
	}
	fmt.Fprintf(&b, "**%s**", escape.Markdown(title))
	if t := fm.Type.Text(); t != "" {
		fmt.Fprintf(&b, " · %s", codeSpan(t))
	}
	fmt.Fprintf(&b, "\n\n%s", codeSpan(k.Path))
	if d := fm.Description.Text(); d != "" {
		fmt.Fprintf(&b, "\n\n%s", escape.Markdown(d))
	}
	tier := okf.TierOf(fm.Verified)
	fmt.Fprintf(&b, "\n\n**Trust**: %s", tier)
	if last, ok := okf.LastVerified(fm.Verified); ok {
		fmt.Fprintf(&b, ", verified by %s", codeSpan(last.By.Text()))
		if last.At.Usable() {
			fmt.Fprintf(&b, " %s (%s)", last.At.Time.UTC().Format("2006-01-02"), relative(last.At.Time, now))
		}
	} else if fm.Generated != nil && fm.Generated.By.Text() != "" {
		fmt.Fprintf(&b, ", generated by %s", codeSpan(fm.Generated.By.Text()))
	}
	status, known := okf.StatusOf(fm.Status)
	fmt.Fprintf(&b, "\n\n**Status**: %s", status)
	if !known {
		fmt.Fprintf(&b, " (written %s, read as stable: D13)", codeSpan(fm.Status.Text()))
	}
	window := okf.DefaultExpiringWindow
	if st != nil && st.cfg != nil && st.cfg.ExpiringWithin > 0 {
		window = st.cfg.ExpiringWithin
	}
	fr := okf.FreshnessOf(fm.StaleAfter(), now, window)
	switch {
	case fr.Stale:
		fmt.Fprintf(&b, " · **stale** since %s (%s)", fr.Since.UTC().Format("2006-01-02"), relative(fr.Since, now))
	case fr.Expiring:
		fmt.Fprintf(&b, " · becomes stale %s (%s)", fr.Since.UTC().Format("2006-01-02"), relative(fr.Since, now))
	case !fr.Since.IsZero():
		fmt.Fprintf(&b, " · fresh until %s", fr.Since.UTC().Format("2006-01-02"))
	}
	return b.String()
}

// codeSpan writes text from a bundle as a Markdown code span: fenced with one backtick more than
// its longest run of them (and spaced when it starts or ends with one), so no backtick in it ends
// the span early and the rest cannot be read as a link, an image or HTML; control characters are
// escaped as everywhere (escape.Control), so it stays on its line.
func codeSpan(s string) string {
	s = escape.Control(s)
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if longest > 0 || strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// fileLocation is the location of a bundle file (its first line, or a heading's).
func (st *bundleState) fileLocation(rel string, line int) location {
	name := rel
	if st.alone != "" {
		name = st.alone
	}
	pos := position{Line: max(0, line-1)}
	return location{URI: uriOf(filepath.Join(st.root, filepath.FromSlash(name))), Range: lspRange{pos, pos}}
}

func (s *server) definition(params raw) (any, *rpcError) {
	c, err := s.cursorOf(params)
	if c == nil {
		return nil, err // no document or bundle under it: null, or bad params
	}
	if t, _, _, ok := c.match(linkRE, 1); ok {
		t = strings.TrimSuffix(strings.TrimPrefix(t, "<"), ">")
		_, _, frag := okf.SplitLinkDestination(t) // `#sec\_1` names sec_1, as the lint rules read it
		return c.resolved(c.b.ResolveLink(c.rel, t), frag), nil
	}
	if key, value, _, _, ok := c.frontmatterValue(); ok && pathKeys[key] && !strings.Contains(value, "://") {
		return c.resolved(c.b.ResolvePath(c.rel, value), ""), nil
	}
	if label, _, _, ok := c.match(footnoteRE, 1); ok {
		// A footnote label goes to the sources entry with that id (§5.1), else to its definition.
		k := c.b.ConceptAt(c.rel)
		if k != nil {
			for _, src := range k.Frontmatter.Sources.Items {
				if src.ID.Text() == label {
					return c.at(src.ID.Pos), nil
				}
			}
			for _, def := range k.Body.FootnoteDefs {
				if def.Label == label {
					return c.at(def.Pos), nil
				}
			}
		}
	}
	return nil, nil
}

// at is a location in the cursor's own document.
func (c *cursor) at(p okf.Position) location {
	pos := c.d.text.okfPos(int(p.Line), int(p.Col))
	return location{URI: c.d.uri, Range: lspRange{pos, pos}}
}

// resolved is where a resolved link or path leads: the file, at the heading its anchor names.
func (c *cursor) resolved(res okf.Resolution, frag string) any {
	if res.Kind != okf.RefLocal || !res.Exists {
		return nil
	}
	target := res.Target
	if res.IsDir {
		if ok, _ := c.b.Stat(path.Join(target, "index.md")); !ok {
			return nil
		}
		target = path.Join(target, "index.md")
	}
	line := 1
	if frag != "" {
		if k := c.b.ConceptAt(target); k != nil && k.Body != nil {
			for _, h := range k.Body.Headings {
				if lint.HeadingSlug(h.Text) == strings.ToLower(frag) {
					line = int(h.Pos.Line)
					break
				}
			}
		}
	}
	return c.st.fileLocation(target, line)
}

func (s *server) references(params raw) (any, *rpcError) {
	var p referenceParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	c, ok := s.cursorAt(p.textDocumentPositionParams)
	if !ok {
		return nil, nil
	}
	// A footnote label or a source id: every use of it in this concept, and the entry.
	label, _, _, isLabel := c.match(footnoteRE, 1)
	if key, value, _, _, ok := c.frontmatterValue(); ok && key == "id" {
		label, isLabel = value, true
	}
	if isLabel {
		var out []location
		if k := c.b.ConceptAt(c.rel); k != nil {
			for _, src := range k.Frontmatter.Sources.Items {
				if src.ID.Text() == label && p.Context.IncludeDeclaration {
					out = append(out, c.at(src.ID.Pos))
				}
			}
			for _, r := range k.Body.FootnoteRefs {
				if r.Label == label {
					out = append(out, c.at(r.Pos))
				}
			}
		}
		return out, nil
	}
	// Otherwise the concept itself (or the one a link under the cursor leads to): every link and
	// index entry in the bundle that leads to it.
	target := c.rel
	if res, _, _, ok := c.linkTarget(); ok && res.Kind == okf.RefLocal && res.Exists {
		target = res.Target
	}
	return c.st.linksTo(target), nil
}

// linksTo lists every link of a concept or index, and every index entry, that leads to target.
func (st *bundleState) linksTo(target string) []location {
	var out []location
	b := st.b
	add := func(from string, links []okf.Link) {
		var text *doc // from's text, read and indexed once for all its links (not per link)
		read := false
		for _, l := range links {
			res := b.ResolveLink(from, l.Target)
			if res.Kind == okf.RefLocal && res.Exists && (res.Target == target || res.IsDir && path.Join(res.Target, "index.md") == target) {
				if !read {
					text, read = st.docOf(from), true
				}
				out = append(out, st.location(from, l.Pos, text))
			}
		}
	}
	for _, k := range b.Concepts {
		if k.Body != nil {
			add(k.Path, k.Body.Links)
		}
	}
	for _, x := range b.Indexes {
		if x.Body != nil {
			add(x.Path, x.Body.Links)
		}
	}
	for _, l := range b.Logs {
		_ = l // log entries name concepts in prose; their links are not kept
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].URI != out[j].URI {
			return out[i].URI < out[j].URI
		}
		return out[i].Range.Start.Line < out[j].Range.Start.Line
	})
	return out
}

// docOf is a bundle file's text as the server sees it, indexed for positions; nil if unreadable.
func (st *bundleState) docOf(rel string) *doc {
	if d, ok := st.openDoc(rel); ok {
		return d.text
	}
	data, err := st.readFile(rel)
	if err != nil {
		return nil
	}
	return newDoc(string(data), st.s.enc)
}

// location is an okf position in a bundle file, converted with the file's text (docOf; nil: its
// line only).
func (st *bundleState) location(rel string, p okf.Position, text *doc) location {
	loc := st.fileLocation(rel, int(p.Line))
	if text != nil {
		pos := text.okfPos(int(p.Line), int(p.Col))
		loc.Range = lspRange{pos, pos}
	}
	return loc
}
