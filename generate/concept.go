package generate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/okf"
	"go.yaml.in/yaml/v3"
)

// The markers around the part of a concept body that gen owns. Everything outside them belongs to
// people and is kept byte for byte. The begin marker carries a hash of the block's text: a block a
// person edited no longer matches it and is kept as they left it, like a body without markers.
const (
	beginPrefix = "<!-- okf-gen:begin"
	beginSuffix = " (okf gen updates this block while nobody edits it; add your own sections outside it) -->"
	EndMarker   = "<!-- okf-gen:end -->"
)

// BeginMarker is the first line of the owned block whose text (the lines between the markers) is
// content.
func BeginMarker(content string) string {
	sum := sha256.Sum256([]byte(content))
	return beginPrefix + " sha256:" + hex.EncodeToString(sum[:6]) + beginSuffix
}

var markerHashRE = &lazyRegexp{Expr: `^<!-- okf-gen:begin sha256:([0-9a-f]{12})\b`}

// OwnedKeys are the frontmatter keys gen writes on every run (§4.1, §5.1, §5.2). Every other key —
// verified, stale_after, status after creation, anything a person adds — is kept as written.
// Within `sources` gen owns one entry (the post's), and within it only resource, title, author and
// last_modified; within `generated` it owns by and at.
var OwnedKeys = []string{"type", "title", "description", "tags", "sources", "generated"}

// Draft is the status of a newly generated concept (§5.4): nobody has reviewed it yet.
const Draft = "draft"

// ConceptData is what gen writes into one concept.
type ConceptData struct {
	Type, Title, Description string
	Tags                     []string
	// URL is the published post (the source's resource); SourceTitle, Author (an actor, §7) and
	// LastModified describe it.
	URL, SourceTitle, Author string
	LastModified             time.Time
	// Byline names the post's author as plain text when no actor could be made (an author key
	// that no authors file resolves): a note for the reader, not an identity.
	Byline string
	// Actor is generated.by (§7).
	Actor string
	// Summary, Outline and the link to URL make the owned body.
	Summary string
	Outline []OutlineItem
}

// FormatTime renders an instant the way gen writes every timestamp: RFC 3339 in UTC, seconds
// precision, with the explicit Z offset §5 requires.
func FormatTime(t time.Time) string { return t.UTC().Truncate(time.Second).Format(time.RFC3339) }

func str(s string) *yaml.Node   { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
func plain(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: s} }

func mapping(style yaml.Style, kv ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Style: style, Content: kv}
}

// ownedNodes renders the owned keys' values.
func (d *ConceptData) ownedNodes(at time.Time) map[string]*yaml.Node {
	tags := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, t := range d.Tags {
		tags.Content = append(tags.Content, str(t))
	}
	src := mapping(0, str("resource"), str(d.URL))
	if d.SourceTitle != "" {
		src.Content = append(src.Content, str("title"), str(d.SourceTitle))
	}
	if d.Author != "" {
		src.Content = append(src.Content, str("author"), str(d.Author))
	}
	if !d.LastModified.IsZero() {
		src.Content = append(src.Content, str("last_modified"), plain(FormatTime(d.LastModified)))
	}
	nodes := map[string]*yaml.Node{
		"type":      str(d.Type),
		"title":     str(d.Title),
		"sources":   {Kind: yaml.SequenceNode, Content: []*yaml.Node{src}},
		"generated": mapping(0, str("by"), str(d.Actor), str("at"), plain(FormatTime(at))),
	}
	if d.Description != "" {
		nodes["description"] = str(d.Description)
	}
	if len(d.Tags) > 0 {
		nodes["tags"] = tags
	}
	return nodes
}

// Body renders the owned part of the body, markers included: a summary, the post's headings as an
// outline, and a link to the full post.
func (d *ConceptData) Body() string {
	var b strings.Builder
	b.WriteString("# Summary\n\n")
	summary := d.Summary
	if summary == "" {
		summary = d.Description
	}
	if summary == "" {
		summary = d.Title + "."
	}
	b.WriteString(visible(summary) + "\n\n")
	if len(d.Outline) > 0 {
		b.WriteString("# Outline\n\n")
		var stack []int
		for _, h := range d.Outline {
			for len(stack) > 0 && stack[len(stack)-1] >= h.Level {
				stack = stack[:len(stack)-1]
			}
			fmt.Fprintf(&b, "%s* %s\n", strings.Repeat("  ", len(stack)), visible(h.Text))
			stack = append(stack, h.Level)
		}
		b.WriteString("\n")
	}
	b.WriteString("# Source\n\n")
	fmt.Fprintf(&b, "Read the full post: [%s](%s)", escapeLinkText(visible(d.SourceTitle)), linkDest(d.URL))
	if d.Byline != "" {
		fmt.Fprintf(&b, " (author: %s)", escape.Markdown(d.Byline))
	}
	b.WriteString(".\n")
	content := b.String()
	return BeginMarker(content) + "\n" + content + EndMarker + "\n"
}

// Replacers are built on their first use, and kept: building one costs more than replacing.
var (
	linkTextEscaper = strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`)
	angleEscaper    = strings.NewReplacer("<", "%3C", ">", "%3E")
)

func escapeLinkText(s string) string { return linkTextEscaper.Replace(s) }

// linkDest writes a link destination, in angle brackets when it holds spaces or parentheses. A
// control character, line or paragraph separator, bidi control or invalid UTF-8 byte (what
// escape.Control escapes) is percent-encoded: no destination holds a line break (none may, even
// in brackets), so a name from the bundle cannot start a line of the file (`::error …`) or reorder
// it, and resolving the target decodes it back (D15).
func linkDest(s string) string {
	s = escape.PercentControls(s)
	if strings.ContainsAny(s, " ()<>") {
		return "<" + angleEscaper.Replace(s) + ">"
	}
	return s
}

// Render writes a new concept file (§4): frontmatter with the owned keys in their usual order plus
// `status: draft` (§5.4), then the owned body.
func (d *ConceptData) Render(at time.Time) []byte {
	nodes := d.ownedNodes(at)
	top := mapping(0)
	for _, k := range OwnedKeys {
		if n, ok := nodes[k]; ok {
			top.Content = append(top.Content, str(k), n)
		}
		if k == "sources" {
			// status sits with the other lifecycle key before generated, as in §5's examples.
			top.Content = append(top.Content, str("status"), str(Draft))
		}
	}
	return join(encodeYAML(top), d.Body())
}

func join(yml []byte, body string) []byte {
	var b bytes.Buffer
	b.WriteString("---\n")
	b.Write(yml)
	b.WriteString("---\n\n")
	b.WriteString(body)
	return b.Bytes()
}

func encodeYAML(n *yaml.Node) []byte {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		// The nodes are built by this package or read by yaml.v3 itself: encoding cannot fail.
		panic(fmt.Sprintf("generate: encoding YAML: %v", err))
	}
	_ = enc.Close()
	return unescapeAstral(b.Bytes())
}

// unescapeAstral undoes yaml.v3's \UXXXXXXXX escapes of characters beyond U+FFFF (emoji, rare CJK)
// in double-quoted scalars, so they are written as UTF-8, as every other non-ASCII character is.
// Only printable characters are restored; a control or invalid code point stays escaped. A quote
// opens a double-quoted scalar only where a scalar can start (after "key: ", "- ", "[", "{", ","
// or at the start of a line), so a quote inside a plain scalar is text.
func unescapeAstral(y []byte) []byte {
	if !bytes.Contains(y, []byte(`\U`)) {
		return y
	}
	var out bytes.Buffer
	inDQ := false
	lastSig := byte('\n') // the last non-blank byte outside a scalar, '\n' at a line start
	for i := 0; i < len(y); i++ {
		c := y[i]
		if inDQ {
			switch c {
			case '\\':
				if i+9 < len(y) && y[i+1] == 'U' {
					if v, err := strconv.ParseUint(string(y[i+2:i+10]), 16, 32); err == nil {
						if r := rune(v); r > 0xFFFF && utf8.ValidRune(r) && unicode.IsGraphic(r) {
							out.WriteRune(r)
							i += 9
							continue
						}
					}
				}
				out.WriteByte(c)
				if i+1 < len(y) {
					out.WriteByte(y[i+1])
					i++
				}
				continue
			case '"':
				inDQ = false
			}
			out.WriteByte(c)
			continue
		}
		switch {
		case c == '"' && (strings.IndexByte("[{\n", lastSig) >= 0 || (strings.IndexByte(":-?,", lastSig) >= 0 && (y[i-1] == ' ' || y[i-1] == '\t'))):
			inDQ = true
		case c == '#' && (i == 0 || y[i-1] == ' ' || y[i-1] == '\n'):
			// A comment runs to the end of the line.
			j := bytes.IndexByte(y[i:], '\n')
			if j < 0 {
				j = len(y) - i
			}
			out.Write(y[i : i+j])
			i += j - 1
			continue
		}
		if c == '\n' || (c != ' ' && c != '\t') {
			lastSig = c
		}
		out.WriteByte(c)
	}
	return out.Bytes()
}

// mapGet returns the value of key in a mapping node and its index in Content (-1 when absent).
func mapGet(m *yaml.Node, key string) (*yaml.Node, int) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, -1
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1], i
		}
	}
	return nil, -1
}

// mapSet replaces key's value (keeping the old value's comments) or inserts key after the nearest
// earlier key of order that is present, or first.
func mapSet(m *yaml.Node, key string, v *yaml.Node, order []string) {
	if old, i := mapGet(m, key); old != nil {
		v.HeadComment, v.LineComment, v.FootComment = old.HeadComment, old.LineComment, old.FootComment
		m.Content[i+1] = v
		return
	}
	at := 0
	for _, k := range order {
		if k == key {
			break
		}
		if _, i := mapGet(m, k); i >= 0 {
			at = i + 2
		}
	}
	m.Content = append(m.Content[:at], append([]*yaml.Node{str(key), v}, m.Content[at:]...)...)
}

// ownedSource finds gen's entry in a `sources` list: the one whose resource is the first of urls
// it finds (the post's URL, then the URL gen's block last linked to: the site or slug changed).
// -1 when none is: an entry of someone else's is never taken for gen's, and gen's is added.
func ownedSource(sources *yaml.Node, urls ...string) int {
	if sources == nil || sources.Kind != yaml.SequenceNode {
		return -1
	}
	for _, url := range urls {
		if url == "" {
			continue
		}
		for i, e := range sources.Content {
			if r, _ := mapGet(e, "resource"); r != nil && r.Value == url {
				return i
			}
		}
	}
	return -1
}

// blockURL is the post URL gen's block links to last ("Read the full post: [Title](URL)."), the
// URL gen's sources entry held when it wrote the block; "" when the block has no link.
func blockURL(block string) string {
	links := okf.ParseBody("x.md", []byte(block), 0).Links
	if len(links) == 0 {
		return ""
	}
	return links[len(links)-1].Target
}

var sourceKeys = []string{"id", "resource", "title", "author", "last_modified"}

// canon writes a node as comparable text: kinds and values only, no styles or comments.
func canon(n *yaml.Node) string {
	if n == nil {
		return "~absent"
	}
	switch n.Kind {
	case yaml.ScalarNode:
		return strconv.Quote(n.Value)
	case yaml.SequenceNode:
		parts := make([]string, len(n.Content))
		for i, c := range n.Content {
			parts[i] = canon(c)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case yaml.MappingNode:
		var parts []string
		for i := 0; i+1 < len(n.Content); i += 2 {
			parts = append(parts, strconv.Quote(n.Content[i].Value)+":"+canon(n.Content[i+1]))
		}
		sort.Strings(parts)
		return "{" + strings.Join(parts, ",") + "}"
	case yaml.AliasNode:
		return canon(n.Alias)
	}
	return "?"
}

// digest is the generated content of a concept as comparable text: the owned keys (without
// generated.at), gen's source entry (its owned keys) and the owned body block. Two files with the
// same digest need no regeneration, so generated.at stays put.
func digest(top *yaml.Node, block string, url, oldURL string) string {
	var b strings.Builder
	for _, k := range OwnedKeys {
		v, _ := mapGet(top, k)
		switch k {
		case "sources":
			if i := ownedSource(v, url, oldURL); i >= 0 {
				e := v.Content[i]
				for _, sk := range sourceKeys[1:] {
					sv, _ := mapGet(e, sk)
					b.WriteString("source." + sk + "=" + canon(sv) + "\n")
				}
			} else {
				b.WriteString("source=~absent\n")
			}
		case "generated":
			by, _ := mapGet(v, "by")
			b.WriteString("generated.by=" + canon(by) + "\n")
		default:
			b.WriteString(k + "=" + canon(v) + "\n")
		}
	}
	b.WriteString(block)
	return b.String()
}

// ownedBlock finds the owned part of a body: the lines from the begin marker to the end marker,
// inclusive. ok is false when the markers are missing or out of order, and when the begin marker's
// hash does not match the text between them (a person edited the block).
func ownedBlock(body string) (start, end int, ok bool) {
	lines := strings.SplitAfter(body, "\n")
	off := 0
	start = -1
	var begin string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if start < 0 && strings.HasPrefix(t, beginPrefix) && strings.HasSuffix(t, "-->") {
			start, begin = off, l
		} else if start >= 0 && t == EndMarker {
			if m := markerHashRE.Get().FindStringSubmatch(strings.TrimSpace(begin)); m != nil {
				// The hash is of the text as gen writes it, with LF line ends: a file whose line
				// ends became CRLF (git's autocrlf, an editor) is not an edit.
				content := strings.ReplaceAll(body[start+len(begin):off], "\r\n", "\n")
				if sum := sha256.Sum256([]byte(content)); hex.EncodeToString(sum[:6]) != m[1] {
					return 0, 0, false
				}
			}
			return start, off + len(l), true
		}
		off += len(l)
	}
	return 0, 0, false
}

// MergeResult says what Merge did.
type MergeResult struct {
	// Changed is false when the generated content is the same: Content is then the old file, byte
	// for byte.
	Changed bool
	Content []byte
	// BodyKept is true when the body had no markers, or a person edited the block between them, and
	// it was left alone.
	BodyKept bool
}

// Merge regenerates an existing concept file written by gen. Only the owned keys, gen's source
// entry and the marked body block change. Every other top-level key is copied as written, comments
// and blank lines included, in its place; when the generated content is unchanged the old file comes
// back byte for byte (and with it generated.at). The error is set when the frontmatter cannot be
// read as a mapping.
func (d *ConceptData) Merge(old []byte, at time.Time) (MergeResult, error) {
	sp := okf.SplitFrontmatter(old)
	if sp.Status != okf.FrontmatterOK {
		return MergeResult{}, errors.New("no frontmatter block")
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(sp.YAML, &doc); err != nil {
		return MergeResult{}, err
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return MergeResult{}, errors.New("frontmatter is not a mapping")
	}
	top := doc.Content[0]
	body := string(sp.Body)
	nodes := d.ownedNodes(at)
	// What gen writes ends its lines as the file does (okf.Newline): CRLF stays CRLF.
	nl := okf.Newline(old)
	eol := func(s string) string {
		if nl == "\n" {
			return s
		}
		return strings.ReplaceAll(s, "\n", nl)
	}
	newBlock := eol(d.Body())
	oldBlock := ""
	start, end, ok := ownedBlock(body)
	if ok {
		oldBlock = body[start:end]
	} else {
		newBlock = "" // the body is the person's now
	}
	fresh := mapping(0)
	for _, k := range OwnedKeys {
		if n, ok := nodes[k]; ok {
			fresh.Content = append(fresh.Content, str(k), n)
		}
	}
	oldURL := blockURL(oldBlock) // "" when the block is a person's now
	if digest(top, oldBlock, d.URL, oldURL) == digest(fresh, newBlock, d.URL, "") {
		return MergeResult{Content: old, BodyKept: !ok}, nil
	}
	// What the rewrite means, worked out before the tree is edited: checked against the text
	// written (okf.ProveFrontmatter), so a splice that moved anything else is never written.
	meant, err := intendedChanges(top, nodes, d.URL, oldURL)
	if err != nil {
		return MergeResult{}, fmt.Errorf("%w: %v", okf.ErrUnproven, err)
	}
	spans := keySpans(sp.YAML, top)
	others := keptSources(sp.YAML, top, spans) // the sources entries as written, for those gen does not own
	var touched *yaml.Node                     // gen's entry, changed or added
	for _, k := range OwnedKeys {
		n, has := nodes[k]
		switch k {
		case "sources":
			cur, _ := mapGet(top, k)
			if cur == nil || cur.Kind != yaml.SequenceNode {
				mapSet(top, k, n, OwnedKeys)
				continue
			}
			entry := n.Content[0]
			i := ownedSource(cur, d.URL, oldURL)
			if i < 0 {
				cur.Content = append(cur.Content, entry)
				touched = entry
				continue
			}
			touched = cur.Content[i]
			oldEntry := cur.Content[i]
			if oldEntry.Kind != yaml.MappingNode {
				cur.Content[i] = entry
				touched = entry
				continue
			}
			for _, sk := range sourceKeys[1:] {
				if v, _ := mapGet(entry, sk); v != nil {
					mapSet(oldEntry, sk, v, sourceKeys)
				} else if _, j := mapGet(oldEntry, sk); j >= 0 {
					oldEntry.Content = append(oldEntry.Content[:j], oldEntry.Content[j+2:]...)
				}
			}
		case "generated":
			cur, _ := mapGet(top, k)
			if cur == nil || cur.Kind != yaml.MappingNode {
				mapSet(top, k, n, OwnedKeys)
				continue
			}
			by, _ := mapGet(n, "by")
			atNode, _ := mapGet(n, "at")
			mapSet(cur, "by", by, []string{"by", "at"})
			mapSet(cur, "at", atNode, []string{"by", "at"})
		default:
			if has {
				mapSet(top, k, n, OwnedKeys)
			} else if _, i := mapGet(top, k); i >= 0 {
				top.Content = append(top.Content[:i], top.Content[i+2:]...)
			}
		}
	}
	if ok {
		body = body[:start] + newBlock + body[end:]
	}
	build := func(others *keptList) []byte {
		var b bytes.Buffer
		b.WriteString(eol("---\n"))
		b.Write(spans.prefix)
		for i := 0; i+1 < len(top.Content); i += 2 {
			k, v := top.Content[i], top.Content[i+1]
			sp, had := spans.byKey[k]
			if had && !isOwned(k.Value) {
				b.Write(sp.text)
				continue
			}
			if others != nil && k.Value == "sources" && had && v == others.list {
				// The entries gen does not own as written; its own encoded where it goes.
				b.Write(others.head)
				for _, e := range v.Content {
					if t, ok := others.text[e]; ok && e != touched {
						b.Write(t)
						continue
					}
					for _, l := range strings.SplitAfter(string(encodeYAML(&yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{e}})), "\n") {
						if l != "" {
							b.WriteString(eol(others.indent + l))
						}
					}
				}
				b.Write(sp.trailer)
				continue
			}
			key := &yaml.Node{Kind: k.Kind, Tag: k.Tag, Value: k.Value, Style: k.Style, LineComment: k.LineComment}
			b.WriteString(eol(string(encodeYAML(mapping(0, key, v)))))
			if had {
				b.Write(sp.trailer)
			}
		}
		b.WriteString(eol("---\n"))
		b.WriteString(body)
		return b.Bytes()
	}
	out := build(others)
	if err := okf.ProveFrontmatter(old, out, meant...); err != nil {
		if others == nil {
			return MergeResult{}, err
		}
		// The entries as written do not fit around gen's (an indentation the encoder does not
		// write): every entry is encoded, as gen writes a list of its own.
		if out = build(nil); okf.ProveFrontmatter(old, out, meant...) != nil {
			return MergeResult{}, err
		}
	}
	if got := okf.SplitFrontmatter(out).Body; string(got) != body {
		return MergeResult{}, fmt.Errorf("%w: the body outside gen's block changed", okf.ErrUnproven)
	}
	return MergeResult{Changed: true, Content: out, BodyKept: !ok}, nil
}

// keptList is the text of a block `sources` list as written: the lines from its key to its first
// entry (head), each entry's lines by node (comments after an entry go with it), and the
// indentation of its dashes.
type keptList struct {
	list   *yaml.Node
	head   []byte
	text   map[*yaml.Node][]byte
	indent string
}

// keptSources cuts the `sources` list of the frontmatter yml (top, cut at its keys' lines by
// keySpans) at its entries, so that Merge writes the entries gen does not own byte for byte; nil
// when the list is not a block list whose entries each start a line with a dash at one indentation.
func keptSources(yml []byte, top *yaml.Node, spans spans) *keptList {
	var key *yaml.Node
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == "sources" {
			key = top.Content[i]
		}
	}
	list, _ := mapGet(top, "sources")
	sp, had := spans.byKey[key]
	if key == nil || !had || list == nil || list.Kind != yaml.SequenceNode || list.Style&yaml.FlowStyle != 0 || len(list.Content) == 0 {
		return nil
	}
	lines := strings.SplitAfter(string(yml), "\n")
	end := key.Line + strings.Count(string(sp.text), "\n") - strings.Count(string(sp.trailer), "\n") // the line after the last entry's
	k := &keptList{list: list, text: map[*yaml.Node][]byte{}}
	join := func(from, to int) []byte { // 1-based lines, to exclusive
		if from < 1 || to > len(lines)+1 || from > to {
			return nil
		}
		return []byte(strings.Join(lines[from-1:to-1], ""))
	}
	for i, e := range list.Content {
		if e.Line <= key.Line || e.Line > len(lines) {
			return nil
		}
		l := lines[e.Line-1]
		indent := l[:len(l)-len(strings.TrimLeft(l, " "))]
		if !strings.HasPrefix(l[len(indent):], "- ") || (i > 0 && indent != k.indent) || e.Column != len(indent)+3 {
			return nil
		}
		k.indent = indent
		to := end
		if i+1 < len(list.Content) {
			to = list.Content[i+1].Line
		}
		t := join(e.Line, to)
		if t == nil || !strings.HasSuffix(string(t), "\n") {
			return nil
		}
		k.text[e] = t
		if i == 0 {
			if k.head = join(key.Line, e.Line); k.head == nil {
				return nil
			}
		}
	}
	return k
}

// intendedChanges says what Merge means to change in the frontmatter top (before it is edited):
// each owned key set to its fresh value or removed; in an existing sources list, gen's own entry
// updated key by key (or added); in an existing generated mapping, by and at.
func intendedChanges(top *yaml.Node, nodes map[string]*yaml.Node, url, oldURL string) ([]okf.Change, error) {
	var out []okf.Change
	set := func(path []string, n *yaml.Node) error {
		v, err := okf.NodeMeaning(n)
		if err != nil {
			return err
		}
		out = append(out, okf.Change{Path: path, Value: v})
		return nil
	}
	for _, k := range OwnedKeys {
		n, has := nodes[k]
		cur, _ := mapGet(top, k)
		switch {
		case k == "sources" && cur != nil && cur.Kind == yaml.SequenceNode && has:
			entry := n.Content[0]
			i := ownedSource(cur, url, oldURL)
			if i < 0 {
				if err := set([]string{k, strconv.Itoa(len(cur.Content))}, entry); err != nil {
					return nil, err
				}
				continue
			}
			idx := strconv.Itoa(i)
			if cur.Content[i].Kind != yaml.MappingNode {
				if err := set([]string{k, idx}, entry); err != nil {
					return nil, err
				}
				continue
			}
			for _, sk := range sourceKeys[1:] {
				if v, _ := mapGet(entry, sk); v != nil {
					if err := set([]string{k, idx, sk}, v); err != nil {
						return nil, err
					}
				} else if old, _ := mapGet(cur.Content[i], sk); old != nil {
					out = append(out, okf.Change{Path: []string{k, idx, sk}, Delete: true})
				}
			}
		case k == "generated" && cur != nil && cur.Kind == yaml.MappingNode && has:
			for _, gk := range []string{"by", "at"} {
				v, _ := mapGet(n, gk)
				if err := set([]string{k, gk}, v); err != nil {
					return nil, err
				}
			}
		case has:
			if err := set([]string{k}, n); err != nil {
				return nil, err
			}
		case cur != nil:
			out = append(out, okf.Change{Path: []string{k}, Delete: true})
		}
	}
	return out, nil
}

func isOwned(k string) bool {
	for _, o := range OwnedKeys {
		if o == k {
			return true
		}
	}
	return false
}

// span is the text of one top-level key: from its line to the next key's line. trailer is the
// part of it after the value: comment lines at column 0 and blank lines, which belong to what
// follows.
type span struct{ text, trailer []byte }

type spans struct {
	// prefix is the text before the first key (a leading comment).
	prefix []byte
	byKey  map[*yaml.Node]span
}

// keySpans cuts the YAML text at the top-level keys' lines.
func keySpans(src []byte, top *yaml.Node) spans {
	lines := bytes.SplitAfter(src, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	join := func(from, to int) []byte { // 1-based lines, to exclusive
		var b []byte
		for l := from; l < to && l-1 < len(lines); l++ {
			if l >= 1 {
				b = append(b, lines[l-1]...)
			}
		}
		if len(b) > 0 && b[len(b)-1] != '\n' {
			b = append(b, '\n')
		}
		return b
	}
	s := spans{byKey: map[*yaml.Node]span{}}
	if len(top.Content) == 0 {
		return s
	}
	s.prefix = join(1, top.Content[0].Line)
	for i := 0; i+1 < len(top.Content); i += 2 {
		from := top.Content[i].Line
		to := len(lines) + 1
		if i+2 < len(top.Content) {
			to = top.Content[i+2].Line
		}
		cut := to
		for l := to - 1; l > from; l-- {
			line := lines[l-1]
			if len(bytes.TrimSpace(line)) == 0 || line[0] == '#' {
				cut = l
				continue
			}
			break
		}
		s.byKey[top.Content[i]] = span{text: join(from, to), trailer: join(cut, to)}
	}
	return s
}

// PostURL expands a URL template for a post whose {path} is its slug.
func PostURL(template, site, slug string) string { return ExpandURL(template, site, slug, slug) }

// ExpandURL expands a URL template: {site} is the site's base URL, {slug} the post's slug and
// {path} its folder path and slug as its engine builds them. Slug and path are escaped segment by
// segment, so a Unicode slug makes a valid URL.
func ExpandURL(template, site, slug, urlPath string) string {
	return strings.NewReplacer("{site}", strings.TrimRight(site, "/"), "{slug}", escapePath(slug), "{path}", escapePath(urlPath)).Replace(template)
}

func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// URLPlaceholders are the placeholders a URL template may hold.
var URLPlaceholders = []string{"{site}", "{slug}", "{path}"}

var placeholderRE = &lazyRegexp{Expr: `\{[^{}]*\}`}

// CheckURLTemplate refuses a template with an unknown placeholder ({date} is not one).
func CheckURLTemplate(t string) error {
	for _, m := range placeholderRE.Get().FindAllString(t, -1) {
		if !slices.Contains(URLPlaceholders, m) {
			return fmt.Errorf("URL template %q: unknown placeholder %s, expected %s", t, m, strings.Join(URLPlaceholders, ", "))
		}
	}
	return nil
}

// DefaultURL is the generic engine's URL template.
const DefaultURL = "{site}/{slug}"

// pathDest is the link destination of a bundle file's slash path (okf.LinkDestination: what
// okf lint's fixes write too, and ResolveLink reads back as the path).
func pathDest(p string) string { return okf.LinkDestination(p) }
