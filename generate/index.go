package generate

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"testing/fstest"
	"unicode/utf8"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/okf"
	"go.yaml.in/yaml/v3"
)

// Grouping of index entries.
const (
	GroupByDirectory = "directory"
	GroupByType      = "type"
)

// IndexOptions tunes index regeneration.
type IndexOptions struct {
	// GroupBy is GroupByDirectory (default) or GroupByType.
	GroupBy string
	// Rewrite writes every index from scratch instead of merging with what is there (the root
	// index's frontmatter, where okf_version lives, is kept).
	Rewrite bool
	// OKFVersion, when set, is written as the root index's okf_version (§12), the only key the
	// root index frontmatter may have (§8, D7).
	OKFVersion string
	// Previous holds, by concept path, the title and description a concept had before this run
	// (gen passes them): an entry that still shows them was written by a generator, not a person,
	// and follows the concept's new values.
	Previous map[string]Listing
	// Under, when set, limits the run to the index of this folder (a slash path from the root) and
	// those below it: `okf index kb/sub` regenerates sub's indexes as part of the bundle, so sub's
	// index stays a folder index (no okf_version) and the root index is left alone.
	Under string
}

// Listing is how an index entry shows a concept.
type Listing struct{ Title, Description string }

// FileChange is one file gen or index writes: okf.FileChange, the unit every bundle edit uses.
type FileChange = okf.FileChange

// ListingOf is how an index shows a concept: its title (or file name) and its description (§8)
// on one line.
func ListingOf(c *okf.Concept) Listing {
	t := oneLine(c.Frontmatter.Title.Text())
	if t == "" {
		t = oneLine(strings.TrimSuffix(path.Base(c.Path), ".md")) // a name may hold a line break
	}
	return Listing{Title: visible(t), Description: visible(oneLine(c.Frontmatter.Description.Text()))}
}

func oneLine(s string) string { return strings.TrimSpace(collapseSpace(s)) }

// visible writes the control characters of s as \xNN (escape.ControlHex): text written into a
// bundle file.
func visible(s string) string { return escape.ControlHex(s) }

// Indexes regenerates the bundle's index.md files (§8): every folder with concepts below it gets an
// index; a new one lists each concept below its folder, grouped by folder or by type. In merge mode
// (the default), the headings, prose, entry titles and descriptions a person wrote stay; entries are
// added for concepts not linked from the index (in a list, a table or prose) and removed for concept
// files that no longer exist. A link to a subfolder (`[x](x/)` or `x/index.md`) stands for everything
// below it, so an index written for progressive disclosure is not flooded. Reserved files (§3.1) are never listed as concepts. Only
// indexes whose text changes are returned, sorted by path.
func Indexes(b *okf.Bundle, opts IndexOptions) ([]FileChange, error) {
	if opts.GroupBy == "" {
		opts.GroupBy = GroupByDirectory
	}
	if opts.GroupBy != GroupByDirectory && opts.GroupBy != GroupByType {
		return nil, fmt.Errorf("group by %q: expected %q or %q", opts.GroupBy, GroupByDirectory, GroupByType)
	}
	// scopes[d] is the concepts below folder d, in the bundle's order: each concept is put in
	// each folder above it once, rather than each folder looking at every concept.
	dirs := map[string]bool{"": len(b.Concepts) > 0}
	scopes := map[string][]*okf.Concept{"": slices.Clone(b.Concepts)} // a slice of its own, as each folder's is
	for _, c := range b.Concepts {
		for d := c.Dir(); d != ""; d = parentDir(d) {
			if countWork != nil {
				*countWork++
			}
			dirs[d] = true
			scopes[d] = append(scopes[d], c)
		}
	}
	existing := map[string]*okf.Index{}
	for _, x := range b.Indexes {
		existing[x.Dir()] = x
		dirs[x.Dir()] = true
	}
	var names []string
	for d, ok := range dirs {
		if ok && (opts.Under == "" || d == opts.Under || strings.HasPrefix(d, opts.Under+"/")) {
			names = append(names, d)
		}
	}
	sort.Strings(names)
	var changes []FileChange
	for _, d := range names {
		p := path.Join(d, "index.md")
		scope := scopes[d]
		var old []byte
		if x := existing[d]; x != nil {
			var err error
			if old, err = b.ReadFile(x.Path); err != nil {
				return nil, fmt.Errorf("reading %s: %w", x.Path, err)
			}
		}
		var text []byte
		var added []*okf.Concept // the concepts a merge adds entries for
		if old == nil || opts.Rewrite {
			if len(scope) == 0 {
				continue
			}
			text = []byte(renderIndex(d, scope, opts))
			if nl := okf.Newline(old); nl != "\n" { // the file's own line ends
				text = []byte(strings.ReplaceAll(string(text), "\n", nl))
			}
			if sp := okf.SplitFrontmatter(old); d == "" && sp.Status == okf.FrontmatterOK {
				// The root's okf_version (§12) survives a rewrite, written as it was.
				text = append(append(old[:sp.BodyOffset:sp.BodyOffset], okf.Newline(old)...), text...)
			}
		} else {
			if !utf8.Valid(old) {
				// The loader reads no entry in it (OKF006): every run would add them all again.
				return nil, fmt.Errorf("%s: not rewritten: it is not valid UTF-8; save it as UTF-8", p)
			}
			if loneCR(old) {
				return nil, fmt.Errorf("%s: not rewritten: its lines end with a lone carriage return (CR): okf merges an index whose lines end with LF or CRLF; convert it", p)
			}
			text, added = mergeIndex(b, existing[d], old, scope, opts)
		}
		if d == "" && opts.OKFVersion != "" {
			text = setOKFVersion(text, opts.OKFVersion)
		}
		if string(text) == string(old) {
			continue
		}
		if old != nil {
			if err := proveIndex(b, existing[d], old, text, d == "", !opts.Rewrite, opts.OKFVersion); err != nil {
				return nil, fmt.Errorf("%s: not rewritten: %w", p, err)
			}
			if err := addedLinked(b, existing[d], text, added); err != nil {
				return nil, fmt.Errorf("%s: not rewritten: %w", p, err)
			}
		}
		changes = append(changes, FileChange{Path: p, Old: old, New: text})
	}
	return changes, nil
}

// proveIndex checks a rewrite of an index a person may have written, read again: its frontmatter
// means what it meant (the root's okf_version set to version, when asked), and, when the index was
// merged rather than rewritten (--rewrite), every line of its body that is not one of its entries is
// still there, in order, and every entry whose target still exists is still linked. What may change
// is only what the merge says: entries of deleted concepts removed, entries' titles and descriptions
// updated, entries added.
func proveIndex(b *okf.Bundle, x *okf.Index, old, next []byte, root, merged bool, version string) error {
	var changes []okf.Change
	if root && version != "" {
		changes = append(changes, okf.Change{Path: []string{"okf_version"}, Value: okf.Str(version)})
	}
	if root || merged {
		if err := okf.ProveFrontmatter(old, next, changes...); err != nil {
			return err
		}
	}
	if !merged || x == nil {
		return nil
	}
	osp, nsp := okf.SplitFrontmatter(old), okf.SplitFrontmatter(next)
	first := 1 + strings.Count(string(old[:osp.BodyOffset]), "\n") // the body's first line in the file
	oldLines := strings.SplitAfter(string(osp.Body), "\n")
	entry := map[int]bool{} // body lines (0-based) of entries and their continuation lines
	var targets []string
	for _, sec := range x.Sections {
		for _, e := range sec.Entries {
			i := int(e.Pos.Line) - first
			if i < 0 || i >= len(oldLines) {
				continue
			}
			entry[i] = true
			for j := i + 1; j < len(oldLines) && isContinuation(oldLines[j]); j++ {
				entry[j] = true
			}
			if res := b.ResolveLink(x.Path, e.Target); res.Kind != okf.RefLocal || res.Exists {
				targets = append(targets, linkKey(b, x.Path, e.Target))
			}
		}
	}
	newLines := strings.SplitAfter(string(nsp.Body), "\n")
	j := 0
	for i, l := range oldLines {
		if entry[i] || l == "" {
			continue
		}
		same := func(n string) bool {
			if n == l {
				return true
			}
			// The last line, written without a line break, gets one when entries follow it.
			return !strings.HasSuffix(l, "\n") && strings.TrimSuffix(strings.TrimSuffix(n, "\n"), "\r") == l
		}
		for j < len(newLines) && !same(newLines[j]) {
			j++
		}
		if j == len(newLines) {
			return fmt.Errorf("%w: line %d (%q) is gone", okf.ErrUnproven, first+i, strings.TrimRight(l, "\n"))
		}
		j++
	}
	// The new index's links, read once as every command reads a body (not a search of the whole
	// text for each of thousands of entries).
	kept := map[string]bool{}
	for _, l := range okf.ParseBody(x.Path, next, nsp.BodyOffset).Links {
		kept[linkKey(b, x.Path, l.Target)] = true
	}
	for _, t := range targets {
		if !kept[t] {
			return fmt.Errorf("%w: the entry for %q is gone", okf.ErrUnproven, t[1:])
		}
	}
	return nil
}

// loneCR reports whether text ends its lines with lone carriage returns (classic Mac OS): one line
// to a merge, which splits lines at LF, but several to Markdown. A stray CR in a file of LF lines
// is read as okf reads it (within its line).
func loneCR(text []byte) bool {
	return bytes.IndexByte(text, '\n') < 0 && bytes.IndexByte(text, '\r') >= 0
}

// addedLinked checks that each concept a merge added an entry for is linked from next, the merged
// index: an index that ends inside a code block or a comment left open swallows the entries
// appended after it, and every run would append them again.
func addedLinked(b *okf.Bundle, x *okf.Index, next []byte, added []*okf.Concept) error {
	if len(added) == 0 || x == nil {
		return nil
	}
	linked := map[string]bool{}
	for _, l := range okf.ParseBody(x.Path, next, okf.SplitFrontmatter(next).BodyOffset).Links {
		linked[linkKey(b, x.Path, l.Target)] = true
	}
	for _, c := range added {
		if !linked["L"+c.Path] {
			return fmt.Errorf("%w: the entry added for %q does not read as a link (does the index end inside a code block or a comment left open?)", okf.ErrUnproven, relTarget(x.Dir(), c))
		}
	}
	return nil
}

// linkKey is what a link written in from leads to: the file, for a local one (`a&amp;b.md` and
// `a%26b.md` are one entry), else its text.
func linkKey(b *okf.Bundle, from, target string) string {
	if res := b.ResolveLink(from, target); res.Kind == okf.RefLocal && !res.Escapes {
		return "L" + res.Target
	}
	return "T" + target
}

func parentDir(d string) string {
	if i := strings.LastIndexByte(d, '/'); i >= 0 {
		return d[:i]
	}
	return ""
}

// groupKey is the section a concept belongs to in the index of folder d.
func groupKey(d string, c *okf.Concept, by string) string {
	if by == GroupByType {
		if t := oneLine(c.Frontmatter.Type.Text()); t != "" {
			return t
		}
		return "Other"
	}
	rel := c.Dir()
	if d != "" {
		rel = strings.TrimPrefix(strings.TrimPrefix(rel, d), "/")
	}
	if rel == "" {
		if d == "" {
			return "Concepts"
		}
		rel = path.Base(d)
	}
	return oneLine(rel) // a heading: a folder's name may hold a line break
}

// entryLine renders `* [Title](target) - description` (§8); isPath says target is a file's slash
// path (encoded as pathDest does), not a target already written in the index.
func entryLine(title, target, desc string, isPath bool) string {
	dest := writtenDest(target)
	if isPath {
		dest = pathDest(target)
	}
	build := func(text string) string {
		line := fmt.Sprintf("* [%s](%s)", text, dest)
		if desc != "" {
			line += " - " + desc
		}
		return line
	}
	text := escapeLinkText(title)
	if line := build(text); !strings.Contains(line, "`") || leadsAs(line, dest) {
		return line
	}
	// A backtick of the title opened a code span over `](…)` (one in the description closed it):
	// the title's backticks are escaped, its code spans shown as text.
	return build(strings.ReplaceAll(text, "`", "\\`"))
}

// leadsAs reports whether the entry line's first link has the target dest has alone.
func leadsAs(line, dest string) bool {
	want := okf.ParseBody("index.md", []byte("[x]("+dest+")\n"), 0).Links
	got := okf.ParseBody("index.md", []byte(line+"\n"), 0).Links
	return len(want) == 1 && len(got) > 0 && got[0].Target == want[0].Target
}

// writtenDest writes again a destination read from an index (its text as written, without angle
// brackets) so that it reads back as the same text: as it was, or in angle brackets, or re-encoded
// only when neither does (a line break, which no destination may hold). Re-encoding a target as
// written changed `a\>b.md` into another text, and the merge's proof refused the whole index.
func writtenDest(target string) string {
	for _, d := range []string{target, "<" + target + ">"} {
		if l := okf.ParseBody("index.md", []byte("[x]("+d+")\n"), 0).Links; len(l) == 1 && l[0].Target == target {
			return d
		}
	}
	return linkDest(target)
}

func relTarget(d string, c *okf.Concept) string {
	if d == "" {
		return c.Path
	}
	return strings.TrimPrefix(c.Path, d+"/")
}

type entry struct {
	key, line string
	sortKey   string
}

func entriesFor(d string, cs []*okf.Concept, by string) []entry {
	var es []entry
	for _, c := range cs {
		l := ListingOf(c)
		es = append(es, entry{key: groupKey(d, c, by), line: entryLine(l.Title, relTarget(d, c), l.Description, true),
			sortKey: strings.ToLower(l.Title) + "\x00" + c.Path})
	}
	sort.SliceStable(es, func(i, j int) bool {
		ki, kj := es[i].key, es[j].key
		if ki != kj {
			// In folder grouping the folder's own concepts come first.
			own := groupKey(d, &okf.Concept{Path: path.Join(d, "x.md")}, GroupByDirectory)
			if by == GroupByDirectory && (ki == own) != (kj == own) {
				return ki == own
			}
			return ki < kj
		}
		return es[i].sortKey < es[j].sortKey
	})
	return es
}

func renderIndex(d string, cs []*okf.Concept, opts IndexOptions) string {
	var b strings.Builder
	cur := "\x00"
	for _, e := range entriesFor(d, cs, opts.GroupBy) {
		if e.key != cur {
			if cur != "\x00" {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "# %s\n\n", e.key)
			cur = e.key
		}
		b.WriteString(e.line + "\n")
	}
	return b.String()
}

// mergeIndex updates an existing index in place, line by line, and returns the concepts it added
// entries for.
func mergeIndex(b *okf.Bundle, x *okf.Index, old []byte, scope []*okf.Concept, opts IndexOptions) ([]byte, []*okf.Concept) {
	lines := strings.SplitAfter(string(old), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	nl := okf.Newline(old) // what the index's lines end with, for the lines added
	d := x.Dir()
	listed := map[string]bool{}
	var folders []string // subfolders the index links to
	remove := map[int]bool{}
	replace := map[int]string{}
	meant := map[int]okf.IndexEntry{} // what each rewritten entry must read as
	for _, s := range x.Sections {
		for _, e := range s.Entries {
			res := b.ResolveLink(x.Path, e.Target)
			if res.Kind != okf.RefLocal || e.Pos.Line < 1 || int(e.Pos.Line) > len(lines) {
				continue
			}
			i := int(e.Pos.Line) - 1
			base := path.Base(res.Target)
			if !res.Exists {
				if strings.HasSuffix(res.Target, ".md") && base != "index.md" && base != "log.md" {
					remove[i] = true // the concept was deleted
					for j := i + 1; j < len(lines) && isContinuation(lines[j]); j++ {
						remove[j] = true
					}
				}
				continue
			}
			if res.IsDir || base == "index.md" {
				continue // a subfolder: see the links below
			}
			c := b.ConceptAt(res.Target)
			if c == nil {
				continue
			}
			listed[c.Path] = true
			cur := ListingOf(c)
			prev, known := opts.Previous[c.Path]
			title, desc := e.Title, e.Description
			if known && title == prev.Title {
				title = cur.Title
			}
			if desc == "" || (known && desc == prev.Description) {
				desc = cur.Description
			}
			if title != e.Title || desc != e.Description {
				if l, want, ok := entryEdit(lines, i, e, title, desc); ok {
					replace[i] = l
					meant[i] = want
				}
			}
		}
	}
	keepReadable(x.Path, x, lines, replace, meant)
	// A concept linked anywhere in the index (a table, prose) is listed already.
	for _, l := range x.Body.Links {
		res := b.ResolveLink(x.Path, l.Target)
		if res.Kind != okf.RefLocal || !res.Exists {
			continue
		}
		switch {
		case res.IsDir:
			if res.Target != d {
				folders = append(folders, res.Target)
			}
		case path.Base(res.Target) == "index.md":
			if sub := parentDir(res.Target); res.Target != "index.md" && sub != d {
				folders = append(folders, sub)
			}
		default:
			listed[res.Target] = true
		}
	}
	var missing []*okf.Concept
	for _, c := range scope {
		if !listed[c.Path] && !under(c.Path, folders) {
			missing = append(missing, c)
		}
	}
	insert := map[int][]string{} // after line index
	var appended []string
	lastKey := "\x00"
	for _, e := range entriesFor(d, missing, opts.GroupBy) {
		placed := false
		for _, s := range x.Sections {
			if strings.TrimSpace(s.Heading) != e.key || s.Pos.Line < 1 {
				continue
			}
			after := int(s.Pos.Line) - 1
			if n := len(s.Entries); n > 0 {
				after = int(s.Entries[n-1].Pos.Line) - 1
				for after+1 < len(lines) && isContinuation(lines[after+1]) {
					after++
				}
				insert[after] = append(insert[after], e.line+nl)
			} else {
				insert[after] = append(insert[after], nl+e.line+nl)
			}
			placed = true
			break
		}
		if !placed {
			if e.key != lastKey {
				appended = append(appended, "", e.key)
				lastKey = e.key
			}
			appended = append(appended, e.line)
		}
	}
	var out strings.Builder
	for i, l := range lines {
		if !remove[i] {
			if r, ok := replace[i]; ok {
				out.WriteString(r)
			} else {
				out.WriteString(l)
			}
		}
		ins := insert[i]
		if len(ins) > 0 && !strings.HasSuffix(l, "\n") {
			out.WriteString(nl)
		}
		// Entries added under a heading with no entries open with a blank line; join them.
		for k, s := range ins {
			if k > 0 {
				s = strings.TrimPrefix(s, nl)
			}
			out.WriteString(s)
		}
	}
	text := out.String()
	if len(appended) > 0 {
		var b strings.Builder
		for i := 0; i < len(appended); i++ {
			if appended[i] == "" { // a new section: "", heading, entries…
				if text != "" || b.Len() > 0 {
					b.WriteString(nl)
				}
				fmt.Fprintf(&b, "# %s%s%s", appended[i+1], nl, nl)
				i++
				continue
			}
			b.WriteString(appended[i] + nl)
		}
		text = strings.TrimRight(text, "\r\n")
		if text != "" {
			text += nl
		}
		text += b.String()
	}
	return []byte(text), missing
}

// entryEdit rewrites the entry e, which starts on lines[i], to show title and desc, changing only
// what shows them: the list marker, the spacing, a link written otherwise than [title](target) (a
// link title, a reference, emphasis in its text), what follows it on the line (a comment) and the
// lines below it stay as written. A description is added after all of the line, replaced only
// where the line writes it as its plain text, and a title replaced only where the link is written
// plainly; want is what the entry must read as afterwards (keepReadable checks it). ok is false when
// nothing can be changed that way.
func entryEdit(lines []string, i int, e okf.IndexEntry, title, desc string) (line string, want okf.IndexEntry, ok bool) {
	body := strings.TrimSuffix(lines[i], "\n")
	eol := lines[i][len(body):]
	if strings.HasSuffix(body, "\r") {
		body, eol = body[:len(body)-1], "\r"+eol
	}
	k := listMarkEnd(body)
	if k < 0 {
		return "", okf.IndexEntry{}, false
	}
	lead, content := body[:k], body[k:]
	head := entryLine(e.Title, e.Target, "", false)[2:] // "[Title](target)" as a rewrite writes it
	plain := strings.HasPrefix(content, head)
	rest := ""
	if plain {
		rest = content[len(head):]
	}
	cont := i+1 < len(lines) && isContinuation(lines[i+1])
	want = okf.IndexEntry{Title: e.Title, Target: e.Target, Description: e.Description}
	if plain && title != e.Title {
		want.Title = title
	}
	newHead := func() string {
		if !plain {
			return content
		}
		return entryLine(want.Title, e.Target, "", false)[2:] + rest
	}
	sep := " - " + e.Description
	switch {
	case desc == e.Description:
		if want.Title == e.Title {
			return "", okf.IndexEntry{}, false
		}
		line = lead + newHead()
	case plain && !cont && (rest == "" && e.Description == "" || e.Description != "" && strings.HasPrefix(rest, sep)):
		// The description is written as its text: it is replaced, what follows it stays.
		tail := ""
		if e.Description != "" {
			tail = rest[len(sep):]
		}
		want.Description = desc
		line = lead + entryLine(want.Title, e.Target, desc, false)[2:] + tail
	case e.Description == "":
		c := newHead()
		t := strings.TrimRight(c, " \t")
		want.Description = desc
		line = lead + t + " - " + desc + c[len(t):]
	case want.Title != e.Title:
		line = lead + newHead()
	default:
		return "", okf.IndexEntry{}, false
	}
	return line + eol, want, true
}

// listMarkEnd returns the offset in line just past its list marker and the spaces after it (-1
// when line does not start a list item).
func listMarkEnd(line string) int {
	if !isListMark(line) {
		return -1
	}
	j := indentUpTo3(line)
	if c := line[j]; c == '*' || c == '+' || c == '-' {
		j++
	} else {
		for line[j] >= '0' && line[j] <= '9' {
			j++
		}
		j++ // '.' or ')'
	}
	for j < len(line) && isBlank(line[j]) {
		j++
	}
	return j
}

// keepReadable drops each rewrite of an entry (replace, by line) after which the index does not
// read as meant: the entry rewritten not as want says, or any other entry not as before (a comment
// or code span the rewrite opened would swallow the lines below). The index is parsed once with
// every rewrite; when another entry moved, no rewrite is kept.
func keepReadable(p string, old *okf.Index, lines []string, replace map[int]string, meant map[int]okf.IndexEntry) {
	if len(replace) == 0 {
		return
	}
	var b strings.Builder
	for i, l := range lines {
		if r, ok := replace[i]; ok {
			l = r
		}
		b.WriteString(l)
	}
	got := map[int]okf.IndexEntry{}
	if nb, err := okf.Load(fstest.MapFS{p: {Data: []byte(b.String())}}, okf.LoadOptions{}); err == nil {
		for _, x := range nb.Indexes {
			for _, s := range x.Sections {
				for _, e := range s.Entries {
					got[int(e.Pos.Line)-1] = okf.IndexEntry{Title: e.Title, Target: e.Target, Description: e.Description}
				}
			}
		}
	}
	for _, s := range old.Sections {
		for _, e := range s.Entries {
			i := int(e.Pos.Line) - 1
			if _, ok := replace[i]; ok {
				continue
			}
			if got[i] != (okf.IndexEntry{Title: e.Title, Target: e.Target, Description: e.Description}) {
				clear(replace)
				return
			}
		}
	}
	for i, want := range meant {
		if got[i] != want {
			delete(replace, i)
		}
	}
}

// under reports whether the slash path p is inside one of the folders ("" is the root).
func under(p string, folders []string) bool {
	for _, f := range folders {
		if f == "" || strings.HasPrefix(p, f+"/") {
			return true
		}
	}
	return false
}

// isContinuation reports whether a line continues the list item above it (indented, not blank,
// not a new item).
func isContinuation(l string) bool {
	t := strings.TrimSpace(l)
	return t != "" && (strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "\t")) && !isListMark(strings.TrimLeft(l, " \t"))
}

// setOKFVersion makes the root index declare okf_version (§12), adding a frontmatter block when
// there is none and changing nothing when the value is already right. Only the value's text changes
// (or one line is added at the end of the block): the rest of the frontmatter a person wrote stays
// byte for byte. A value it cannot rewrite in place (spread over lines, a flow mapping) has the
// frontmatter encoded again, with the same meaning.
func setOKFVersion(text []byte, version string) []byte {
	nl := okf.Newline(text)
	sp := okf.SplitFrontmatter(text)
	if sp.Status != okf.FrontmatterOK {
		body := strings.TrimLeft(string(text), "\r\n")
		return []byte(fmt.Sprintf("---%sokf_version: %q%s---%s%s%s", nl, version, nl, nl, nl, body))
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(sp.YAML, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return text // unreadable frontmatter is for lint to report, not for gen to guess at
	}
	top := doc.Content[0]
	if v, _ := mapGet(top, "okf_version"); v != nil && v.Value == version {
		return text
	}
	if out, ok := okfVersionInPlace(text, sp, top, version); ok {
		return out
	}
	mapSet(top, "okf_version", str(version), nil)
	var b strings.Builder
	b.WriteString("---\n")
	b.Write(encodeYAML(&doc))
	b.WriteString("---\n")
	b.Write(sp.Body)
	return []byte(b.String())
}

// okfVersionInPlace is setOKFVersion as an edit of the text: the value of okf_version, written on
// one line, replaced in its quote style (a plain value double-quoted: 0.2 unquoted is a number), or
// the key added as the block mapping's last line. ok is false when neither can be done, or when the
// text does not then read okf_version as the string version.
func okfVersionInPlace(text []byte, sp okf.Split, top *yaml.Node, version string) ([]byte, bool) {
	yamlStart := 0 // just after the opening delimiter's line
	if sp.BOM {
		yamlStart = 3
	}
	if i := strings.IndexByte(string(text[yamlStart:]), '\n'); i >= 0 {
		yamlStart += i + 1
	}
	if yamlStart+len(sp.YAML) > len(text) || string(text[yamlStart:yamlStart+len(sp.YAML)]) != string(sp.YAML) {
		return nil, false
	}
	var out []byte
	v, _ := mapGet(top, "okf_version")
	switch {
	case v == nil:
		if top.Style&yaml.FlowStyle != 0 || len(sp.YAML) > 0 && sp.YAML[len(sp.YAML)-1] != '\n' {
			return nil, false
		}
		end := yamlStart + len(sp.YAML)
		out = append(append(append([]byte(nil), text[:end]...), fmt.Sprintf("okf_version: %q%s", version, okf.Newline(text))...), text[end:]...)
	case v.Kind == yaml.ScalarNode && v.Anchor == "" && (v.Tag == "!!str" || v.Tag == "!!float" || v.Tag == "!!int"):
		off := okf.OffsetOf(sp.YAML, v.Line, v.Column)
		if off < 0 {
			return nil, false
		}
		var tok, repl string
		switch v.Style {
		case yaml.DoubleQuotedStyle:
			tok, repl = `"`+v.Value+`"`, fmt.Sprintf("%q", version)
			if strings.ContainsAny(v.Value, "\\\"\n") {
				return nil, false
			}
		case yaml.SingleQuotedStyle:
			tok, repl = "'"+v.Value+"'", "'"+version+"'"
			if strings.ContainsAny(v.Value, "'\n") || strings.Contains(version, "'") {
				return nil, false
			}
		case 0:
			tok, repl = v.Value, fmt.Sprintf("%q", version)
		default:
			return nil, false
		}
		rest := sp.YAML[off:]
		if !strings.HasPrefix(string(rest), tok) {
			return nil, false
		}
		if after := rest[len(tok):]; len(after) > 0 && !strings.ContainsRune(" \t\r\n", rune(after[0])) {
			return nil, false
		}
		at := yamlStart + off
		out = append(append(append([]byte(nil), text[:at]...), repl...), text[at+len(tok):]...)
	default:
		return nil, false
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(okf.SplitFrontmatter(out).YAML, &doc); err != nil || len(doc.Content) == 0 {
		return nil, false
	}
	if nv, _ := mapGet(doc.Content[0], "okf_version"); nv == nil || nv.Value != version || nv.ShortTag() != "!!str" {
		return nil, false
	}
	return out, true
}
