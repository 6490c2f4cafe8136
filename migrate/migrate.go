// Package migrate upgrades an OKF v0.1 bundle to v0.2 (§13) by editing its files in place: the
// frontmatter text is changed only at the positions the parser gives (never re-serialised), so key
// order, comments, quoting and every key okf does not own stay as written, and a body changes only
// where a `# Citations` section moved into `sources`.
//
// Plan computes every change without writing; Apply writes a plan through okf.WriteFileAtomic. A
// file that cannot be migrated safely is left untouched and listed in Plan.Left.
package migrate

import (
	"bytes"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"

	"github.com/okf-tools/okf/okf"
)

// Actor is the `generated.by` written for a concept whose v0.1 file names no producer. okf does not
// know who wrote the content, so it claims no author: a `process:` actor (§7) is non-human, so no
// trust consumer reads the concept as hand-authored (§5.3, D12), and it names the step that wrote
// the key, which the log.md entry explains. A file with a producer key that follows §7 keeps that
// producer instead (see ProducerKeys).
const Actor = "process:okf-migrate"

// ProducerKeys are the v0.1 keys that may name who produced a concept. When one of them holds an
// actor that follows §7 (human:…, process:…, team:…, producer/version), it becomes generated.by;
// the key itself always stays.
var ProducerKeys = []string{"generated_by", "generator", "producer", "created_by", "author"}

// Options tunes a migration.
type Options struct {
	// Now dates the log.md entry (D11: the injected clock).
	Now time.Time
}

// Change is one file the migration rewrites (Old is nil for a file it creates).
type Change struct {
	okf.FileChange
	Edits []okf.Edit
	// Notes say what changed, for the summary.
	Notes []string
}

// Problem is something the migration left as it was, and why.
type Problem struct {
	Pos     okf.Position
	Message string
	// Untouched is true when the whole file was left as it was.
	Untouched bool
}

// Plan is what a migration would do: the files it changes, sorted by path, and what it left.
type Plan struct {
	Changes []Change
	Left    []Problem
}

// Changed reports whether the plan changes any file.
func (p *Plan) Changed() bool { return len(p.Changes) > 0 }

// fileEdits collects the edits of one file; a blocking problem leaves the whole file untouched.
type fileEdits struct {
	path    string
	src     []byte
	edits   []okf.Edit
	notes   []string
	left    []Problem
	blocked bool
	n       counts // what this file's edits do, counted into the log entry unless it is blocked
	// changes are what the edits mean (okf.ProveEdit): the rewrite is written only when the file,
	// parsed again, means exactly this and nothing else moved. cut is the body section an edit
	// removes (a Citations section, file offsets), the one body change a migration makes.
	changes []okf.Change
	cut     [2]int
	paths   map[int][]string // okf.ValuePaths of src, made once
}

// valueChange records what an edit of one frontmatter value means (okf.ValueChange).
func (f *fileEdits) valueChange(e okf.Edit) bool {
	if f.paths == nil {
		f.paths = okf.ValuePaths(f.src)
	}
	c, ok := okf.ValueChange(f.paths, e)
	if ok {
		f.changes = append(f.changes, c)
	}
	return ok
}

// prove checks that out, f's edits applied to its text, means what the edits say.
func (f *fileEdits) prove(out []byte) error {
	if f.path == "log.md" || strings.HasSuffix(f.path, "/log.md") {
		return okf.ProveFrontmatter(f.src, out, f.changes...) // a log gains an entry in its body
	}
	if f.cut[1] > f.cut[0] {
		want := append(append([]byte(nil), f.src[:f.cut[0]]...), f.src[f.cut[1]:]...)
		ob, nb := okf.SplitFrontmatter(want).Body, okf.SplitFrontmatter(out).Body
		if !bytes.Equal(ob, nb) {
			return fmt.Errorf("%w: the body changed beyond the Citations section", okf.ErrUnproven)
		}
		return okf.ProveFrontmatter(f.src, out, f.changes...)
	}
	return okf.ProveEdit(f.src, out, f.changes...)
}

func (f *fileEdits) add(e okf.Edit, note string) {
	f.edits = append(f.edits, e)
	if note != "" {
		f.notes = append(f.notes, note)
	}
}

func (f *fileEdits) keep(pos okf.Position, format string, a ...any) {
	if pos.Path == "" {
		pos = okf.Position{Path: f.path, Line: 1, Col: 1}
	}
	f.left = append(f.left, Problem{Pos: pos, Message: fmt.Sprintf(format, a...)})
}

func (f *fileEdits) block(pos okf.Position, format string, a ...any) {
	f.keep(pos, format, a...)
	f.blocked = true
}

// counts tallies the kinds of change, for the log entry.
type counts struct {
	timestamps, citations, retimed, tags int
	// untouched counts the concepts okf had something to change in but left as they were.
	untouched int
	version   bool
}

// Run plans the migration of a loaded bundle. Files are read again through the bundle's confined
// file system (okf.FileSystem).
func Run(b *okf.Bundle, opts Options) *Plan {
	plan := &Plan{}
	var n counts
	for _, c := range b.Concepts {
		f := migrateConcept(b, c)
		if f != nil && f.blocked && hasV01(c) {
			n.untouched++
		}
		plan.collect(f, &n)
	}
	migrated := len(plan.Changes)
	x := b.RootIndex()
	switch {
	case n.untouched > migrated:
		// A bundle most of whose concepts were left as they were is not a v0.2 bundle yet:
		// raising its okf_version, or logging it as migrated, would say it is.
		pos := okf.Position{}
		if x != nil {
			pos = okf.Position{Path: x.Path, Line: 1, Col: 1}
		}
		plan.Left = append(plan.Left, Problem{Pos: pos, Untouched: x != nil,
			Message: fmt.Sprintf("%d of %d concepts okf migrate had to change were left untouched (each is listed with its reason): okf_version is not raised and the migration is not logged; migrate them (by hand where okf cannot) and run okf migrate again", n.untouched, n.untouched+migrated)})
	case x != nil:
		plan.collect(migrateRootIndex(b, x), &n)
	}
	if len(plan.Changes) > 0 && n.untouched <= migrated {
		if ch, p := logEntry(b, opts.Now, len(plan.Changes), n); ch != nil {
			plan.Changes = append(plan.Changes, *ch)
		} else if p != nil {
			plan.Left = append(plan.Left, *p)
		}
	}
	sort.Slice(plan.Changes, func(i, j int) bool { return plan.Changes[i].Path < plan.Changes[j].Path })
	sort.SliceStable(plan.Left, func(i, j int) bool { return plan.Left[i].Pos.Less(plan.Left[j].Pos) })
	return plan
}

// hasV01 reports whether a concept holds something okf migrate changes: the legacy timestamp, a
// tags string, or a # Citations section. A file whose frontmatter cannot be read is not counted: what
// it holds is unknown, and it is listed on its own.
func hasV01(c *okf.Concept) bool {
	fm := c.Frontmatter
	if fm == nil || !fm.Present {
		return false
	}
	if fm.LegacyTimestamp.Present() || fm.Tags.IsString() {
		return true
	}
	for _, h := range c.Body.Headings {
		if strings.EqualFold(strings.TrimSpace(h.Text), "citations") {
			return true
		}
	}
	return false
}

func (p *Plan) collect(f *fileEdits, n *counts) {
	if f == nil {
		return
	}
	if f.blocked {
		for i := range f.left {
			f.left[i].Untouched = true
		}
		p.Left = append(p.Left, f.left...)
		return
	}
	p.Left = append(p.Left, f.left...)
	if len(f.edits) == 0 {
		return
	}
	out, err := okf.ApplyEdits(f.src, f.edits)
	if err != nil {
		p.Left = append(p.Left, Problem{Pos: okf.Position{Path: f.path, Line: 1, Col: 1}, Message: "changes overlap: file left untouched (" + err.Error() + ")", Untouched: true})
		return
	}
	if err := f.prove(out); err != nil {
		p.Left = append(p.Left, Problem{Pos: okf.Position{Path: f.path, Line: 1, Col: 1}, Message: "left untouched: its rewrite, parsed again, does not mean what migrate meant (" + err.Error() + ")", Untouched: true})
		return
	}
	p.Changes = append(p.Changes, Change{FileChange: okf.FileChange{Path: f.path, Old: f.src, New: out}, Edits: f.edits, Notes: f.notes})
	n.timestamps += f.n.timestamps
	n.citations += f.n.citations
	n.retimed += f.n.retimed
	n.tags += f.n.tags
	n.version = n.version || f.n.version
}

func migrateConcept(b *okf.Bundle, c *okf.Concept) *fileEdits {
	fm := c.Frontmatter
	f := &fileEdits{path: c.Path}
	if !fm.Present {
		// No frontmatter, or frontmatter that is not YAML: nothing can be placed safely.
		f.block(okf.Position{}, "no readable frontmatter: left untouched (okf lint says why)")
		return f
	}
	if isLink(b, c.Path) {
		f.block(okf.Position{}, "is a symbolic link: left untouched (migrate the file it points to)")
		return f
	}
	src, err := b.ReadFile(c.Path)
	if err != nil {
		f.block(okf.Position{}, "cannot read: %v: left untouched", err)
		return f
	}
	f.src = src
	sp := okf.SplitFrontmatter(src)
	if sp.Status != okf.FrontmatterOK {
		f.block(okf.Position{}, "frontmatter changed since it was read: left untouched")
		return f
	}
	migrateTimestamp(f, fm)
	retime(f, fm)
	if fm.Tags.IsString() {
		if e, ok := okf.TagsEdit(src, fm.Tags); ok {
			f.add(e, "tags: string → list")
			tags, _ := okf.TagsFromString(fm.Tags.Raw)
			f.changes = append(f.changes, okf.Change{Path: []string{"tags"}, Value: okf.StrList(tags)})
			f.n.tags++
		} else {
			f.keep(fm.Tags.Pos, "tags is a string okf cannot rewrite in place (a value over several lines?): write it as a list by hand")
		}
	}
	migrateCitations(f, c, sp)
	return f
}

// migrateTimestamp turns `timestamp: V` into `generated: { by: ACTOR, at: V }` in place: the key is
// renamed and the value wrapped, so the line keeps its place, its comment and V's quoting.
func migrateTimestamp(f *fileEdits, fm *okf.Frontmatter) {
	ts := fm.LegacyTimestamp
	if ts.Form == okf.TimeAbsent {
		return
	}
	key, _ := fm.Key("timestamp")
	if fm.Generated != nil {
		// A timestamp that says what generated.at says is redundant: its line goes. Any other is
		// kept for a person to judge.
		g := fm.Generated.At
		same := g.Usable() && ts.Usable() && g.Time.Equal(ts.Time)
		if same && key.Pos.Col == 1 && key.Pos.Line == ts.Pos.Line {
			if _, ve, _, ok := okf.ScalarSpan(f.src, ts.Value); ok {
				start := okf.LineStart(f.src, ve)
				end := okf.LineEnd(f.src, ve)
				if strings.TrimSpace(string(f.src[ve:end])) == "" {
					f.add(okf.Edit{Start: start, End: end}, "timestamp equal to generated.at removed")
					f.changes = append(f.changes, okf.Change{Path: []string{"timestamp"}, Delete: true})
					f.n.timestamps++
					return
				}
			}
		}
		if same {
			f.keep(key.Pos, "legacy timestamp kept: it names the instant generated.at names, but its line holds more than `timestamp: value`; delete it by hand (D10)")
			return
		}
		f.keep(key.Pos, "legacy timestamp kept: generated is present and says otherwise, so okf ignores the timestamp (D10); delete it by hand once you have checked it")
		return
	}
	if !ts.Usable() {
		f.keep(key.Pos, "legacy timestamp %q is not a date: kept; write generated: { by, at } by hand", ts.Raw)
		return
	}
	ks, ke, ok := okf.KeySpan(f.src, key.Pos, "timestamp")
	vs, ve, q, ok2 := okf.ScalarSpan(f.src, ts.Value)
	if !ok || !ok2 || key.Pos.Line != ts.Pos.Line {
		f.block(key.Pos, "legacy timestamp is not written on one line as `timestamp: value`: left untouched")
		return
	}
	at := string(f.src[vs:ve])
	if text, ok := okf.DatetimeText(ts); ok {
		if q == 0 {
			at = text
		} else {
			at = string(q) + text + string(q)
		}
	}
	by, from := producer(fm)
	note := "timestamp → generated.at"
	if from != "" {
		note += ", generated.by from " + from
	}
	f.add(okf.Edit{Start: ks, End: ke, New: "generated"}, note)
	f.add(okf.Edit{Start: vs, End: ve, New: "{ by: " + okf.Quote(by, 0) + ", at: " + at + " }"}, "")
	if atMeant, ok := okf.YAMLMeaning(at); ok {
		f.changes = append(f.changes, okf.Change{Path: []string{"timestamp"}, Delete: true},
			okf.Change{Path: []string{"generated"}, Value: map[string]any{"by": okf.Str(by), "at": atMeant}})
	}
	f.n.timestamps++
}

// producer returns generated.by for a migrated concept: the value of a producer key that follows
// §7, else Actor; from names the key used ("" for Actor).
func producer(fm *okf.Frontmatter) (by, from string) {
	for _, k := range ProducerKeys {
		key, ok := fm.Key(k)
		if !ok || !key.Value.IsString() {
			continue
		}
		if okf.ClassifyActor(key.Value.Raw) != okf.ActorUnknown {
			return strings.TrimSpace(key.Value.Raw), k
		}
	}
	return Actor, ""
}

// retime rewrites date-only and offset-less timestamps as the datetime okf already reads them as
// (D10: 00:00 UTC, or UTC).
func retime(f *fileEdits, fm *okf.Frontmatter) {
	for _, nt := range timestamps(fm) {
		if nt.ts.Form != okf.DateOnly && nt.ts.Form != okf.NoOffset {
			continue
		}
		e, ok := okf.RetimeEdit(f.src, nt.ts)
		if !ok {
			f.keep(nt.ts.Pos, "%s %q could not be rewritten in place: kept", nt.name, nt.ts.Raw)
			continue
		}
		f.add(e, nt.name+": "+nt.ts.Form.String()+" → datetime")
		f.valueChange(e)
		f.n.retimed++
	}
}

type namedTS struct {
	name string
	ts   okf.Timestamp
}

// timestamps lists the v0.2 timestamp fields (§5) of a concept; the legacy timestamp is handled by
// migrateTimestamp.
func timestamps(fm *okf.Frontmatter) []namedTS {
	var out []namedTS
	add := func(name string, ts okf.Timestamp) {
		if ts.Form != okf.TimeAbsent {
			out = append(out, namedTS{name, ts})
		}
	}
	if fm.Generated != nil {
		add("generated.at", fm.Generated.At)
	}
	for i, v := range fm.Verified.Entries {
		add(fmt.Sprintf("verified[%d].at", i), v.At)
	}
	add("stale_after", fm.StaleAfter())
	if w := fm.UsageWindow(); w != nil {
		add("usage_window.from", w.From)
		add("usage_window.to", w.To)
	}
	for i, s := range fm.Sources.Items {
		add(fmt.Sprintf("sources[%d].last_modified", i), s.LastModified)
		if w := s.UsageWindow; w != nil {
			add(fmt.Sprintf("sources[%d].usage_window.from", i), w.From)
			add(fmt.Sprintf("sources[%d].usage_window.to", i), w.To)
		}
	}
	return out
}

var (
	listItemRE     = &lazyRegexp{Expr: `^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)`}
	continuationRE = &lazyRegexp{Expr: `^(?: {2,}|\t)\S`}
	// citeLineRE is a line of the v0.1 specification's numbered citation form, `[1] [Title](url)`,
	// or a line that is one link, autolink or URL: the body parser reads each as one citation.
	citeLineRE = &lazyRegexp{Expr: `^ {0,3}(?:\[\d{1,9}\][ \t]|\[[^\]]*\]\(|<[A-Za-z][A-Za-z0-9+.-]{1,31}:|[A-Za-z][A-Za-z0-9+.-]{1,31}://\S+$)`}
)

// migrateCitations moves a body `# Citations` list into `sources` (§13.1) and removes the section.
// Only a section that holds nothing but its list is moved; anything else is ambiguous and the file
// is left untouched.
func migrateCitations(f *fileEdits, c *okf.Concept, sp okf.Split) {
	var heads []okf.Heading
	for _, h := range c.Body.Headings {
		if strings.EqualFold(strings.TrimSpace(h.Text), "citations") {
			heads = append(heads, h)
		}
	}
	if len(heads) == 0 {
		return
	}
	if len(heads) > 1 {
		f.block(heads[1].Pos, "more than one Citations section: ambiguous, left untouched")
		return
	}
	h := heads[0]
	fm := c.Frontmatter
	if fm.Sources.Present() {
		f.block(h.Pos, "the concept has both sources and a Citations section: merge them by hand (left untouched)")
		return
	}
	if len(fm.Keys) > 0 && fm.Keys[0].Pos.Col != 1 {
		f.block(h.Pos, "frontmatter is not a block mapping: sources cannot be added safely (left untouched)")
		return
	}
	src := f.src
	start := okf.OffsetOf(src, int(h.Pos.Line), 1)
	if start < 0 {
		f.block(h.Pos, "Citations heading not found where it was parsed: left untouched")
		return
	}
	end := len(src)
	for _, o := range c.Body.Headings {
		if o.Pos.Line > h.Pos.Line && o.Level <= h.Level {
			end = okf.OffsetOf(src, int(o.Pos.Line), 1)
			break
		}
	}
	if end < start {
		end = len(src)
	}
	// Everything between the heading line and the end must be the list.
	items := 0
	for off := okf.LineEnd(src, start); off < end; off = okf.LineEnd(src, off) {
		line := strings.TrimRight(string(src[off:okf.LineEnd(src, off)]), "\r\n")
		switch {
		case strings.TrimSpace(line) == "":
		case listItemRE.Get().MatchString(line), citeLineRE.Get().MatchString(line):
			items++
		case continuationRE.Get().MatchString(line):
		default:
			f.block(okf.Position{Path: f.path, Line: int32(lineOf(src, off)), Col: 1}, "the Citations section holds more than a list: ambiguous, left untouched (move it into sources by hand)")
			return
		}
	}
	var cites []okf.Citation
	endLine := lineOf(src, end)
	for _, ci := range c.Body.Citations {
		if ci.Pos.Line > h.Pos.Line && (end == len(src) || int(ci.Pos.Line) < endLine) {
			cites = append(cites, ci)
		}
	}
	if len(cites) != items || items == 0 {
		f.block(h.Pos, "the Citations list could not be read item by item: ambiguous, left untouched")
		return
	}
	// An item becomes one entry: one resource and a title. A second link (its URL), or a comment,
	// would be dropped on the way.
	for i, ci := range cites {
		from, to := int(ci.Pos.Line), endLine
		if i+1 < len(cites) {
			to = int(cites[i+1].Pos.Line)
		} else if end == len(src) {
			to = lineOf(src, len(src)) + 1
		}
		in := func(p okf.Position) bool { return int(p.Line) >= from && int(p.Line) < to }
		links := 0
		for _, l := range c.Body.Links {
			if in(l.Pos) {
				links++
			}
		}
		at := okf.Position{Path: f.path, Line: ci.Pos.Line, Col: 1}
		if links > 1 {
			f.block(at, "a Citations item holds more than one link: ambiguous, left untouched (move it into sources by hand)")
			return
		}
		for _, cm := range c.Body.Comments {
			if in(cm.Pos) {
				f.block(at, "a Citations item holds a comment: ambiguous, left untouched (move it into sources by hand)")
				return
			}
		}
	}
	nl := okf.Newline(src)
	var y strings.Builder
	y.WriteString("sources:" + nl)
	var meant []any // what the sources written read as
	for _, ci := range cites {
		id := citedBy(c.Body, ci)
		title := strings.TrimSpace(ci.Text)
		if title == ci.Target {
			title = ""
		}
		first := true
		field := func(k, v string) {
			if first {
				y.WriteString("  - ")
				first = false
			} else {
				y.WriteString("    ")
			}
			y.WriteString(k + ": " + okf.Quote(v, 0) + nl)
		}
		m := map[string]any{}
		if id != "" {
			field("id", id)
			m["id"] = okf.Str(id)
		}
		if ci.Target != "" {
			field("resource", ci.Target)
			m["resource"] = okf.Str(ci.Target)
		}
		if title != "" {
			field("title", title)
			m["title"] = okf.Str(title)
		}
		meant = append(meant, m)
	}
	// sources goes last in the frontmatter, just before the closing delimiter.
	closeAt := okf.LineStart(src, sp.BodyOffset-1)
	if sp.BodyOffset == len(src) && !strings.HasSuffix(string(src), "\n") {
		closeAt = okf.LineStart(src, len(src))
	}
	f.add(okf.Edit{Start: closeAt, End: closeAt, New: y.String()}, fmt.Sprintf("# Citations (%d) → sources", len(cites)))
	// Remove the section. At the end of the file the blank lines before it go too, so the body
	// ends where its last paragraph did.
	delFrom := start
	if end == len(src) {
		for delFrom > sp.BodyOffset {
			prev := okf.LineStart(src, delFrom-1)
			if strings.TrimSpace(string(src[prev:delFrom])) != "" {
				break
			}
			delFrom = prev
		}
	}
	f.add(okf.Edit{Start: delFrom, End: end}, "")
	f.changes = append(f.changes, okf.Change{Path: []string{"sources"}, Value: meant})
	f.cut = [2]int{delFrom, end}
	f.n.citations++
}

// citedBy returns the label of a footnote whose definition points at the citation, so the new
// source gets that id and the footnote keeps citing it (§5.1).
func citedBy(b *okf.Body, ci okf.Citation) string {
	for _, d := range b.FootnoteDefs {
		t := strings.TrimSpace(d.Text)
		if t == "" {
			continue
		}
		if (ci.Target != "" && strings.Contains(t, ci.Target)) || strings.EqualFold(t, strings.TrimSpace(ci.Text)) {
			return d.Label
		}
	}
	return ""
}

// lineOf returns the 1-based line of byte offset off.
func lineOf(src []byte, off int) int {
	return bytes.Count(src[:off], []byte{'\n'}) + 1
}

// migrateRootIndex makes the root index.md declare okf_version "0.2" (§12), renaming a look-alike
// key (D9) rather than adding a second one.
func migrateRootIndex(b *okf.Bundle, x *okf.Index) *fileEdits {
	f := &fileEdits{path: x.Path}
	if isLink(b, x.Path) {
		f.block(okf.Position{}, "is a symbolic link: left untouched (okf_version not set)")
		return f
	}
	src, err := b.ReadFile(x.Path)
	if err != nil {
		f.block(okf.Position{}, "cannot read: %v: left untouched", err)
		return f
	}
	f.src = src
	const want = `"0.2"`
	sp := okf.SplitFrontmatter(src)
	fm := x.Frontmatter
	switch {
	case sp.Status == okf.NoFrontmatter:
		off := 0
		if sp.BOM {
			off = 3
		}
		nl := okf.Newline(src)
		f.add(okf.Edit{Start: off, End: off, New: "---" + nl + "okf_version: " + want + nl + "---" + nl}, `okf_version: "0.2" declared`)
		f.changes = append(f.changes, okf.Change{Path: []string{"okf_version"}, Value: okf.Str("0.2")})
		f.n.version = true
		return f
	case sp.Status != okf.FrontmatterOK || fm == nil || !fm.Present:
		f.block(okf.Position{}, "root index.md frontmatter cannot be read: okf_version not set")
		return f
	}
	v := fm.OKFVersion()
	if v.Present() {
		if v.Kind == okf.Scalar && strings.TrimSpace(v.Raw) == "0.2" {
			return f
		}
		s, e, q, ok := okf.ScalarSpan(src, v)
		if !ok {
			f.block(v.Pos, "okf_version cannot be rewritten in place: set it to \"0.2\" by hand")
			return f
		}
		nv := want
		if q == '\'' {
			nv = "'0.2'"
		}
		f.add(okf.Edit{Start: s, End: e, New: nv}, fmt.Sprintf("okf_version %q → \"0.2\"", v.Raw))
		f.changes = append(f.changes, okf.Change{Path: []string{"okf_version"}, Value: okf.Str("0.2")})
		f.n.version = true
		return f
	}
	for _, k := range fm.Keys {
		if !versionLookAlike(k.Name) {
			continue
		}
		ks, ke, ok := okf.KeySpan(src, k.Pos, k.Name)
		vs, ve, _, ok2 := okf.ScalarSpan(src, k.Value)
		if !ok || !ok2 {
			f.block(k.Pos, "look-alike key %q cannot be renamed in place: rename it to okf_version by hand", k.Name)
			return f
		}
		f.add(okf.Edit{Start: ks, End: ke, New: "okf_version"}, fmt.Sprintf("key %s → okf_version", k.Name))
		if strings.TrimSpace(k.Value.Raw) != "0.2" || k.Value.Tag != "!!str" {
			f.add(okf.Edit{Start: vs, End: ve, New: want}, "")
		}
		f.changes = append(f.changes, okf.Change{Path: []string{k.Name}, Delete: true}, okf.Change{Path: []string{"okf_version"}, Value: okf.Str("0.2")})
		f.n.version = true
		return f
	}
	nl := okf.Newline(src)
	at := okf.LineEnd(src, 0) // after the opening delimiter
	f.add(okf.Edit{Start: at, End: at, New: "okf_version: " + want + nl}, `okf_version: "0.2" declared`)
	f.changes = append(f.changes, okf.Change{Path: []string{"okf_version"}, Value: okf.Str("0.2")})
	f.n.version = true
	return f
}

// versionLookAlike reports whether a key looks like an attempt at okf_version (D9).
func versionLookAlike(name string) bool {
	if name == "okf_version" {
		return false
	}
	n := strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == '.' || r == ' ' {
			return -1
		}
		return r
	}, strings.ToLower(name))
	return n == "version" || n == "okfversion" || n == "specversion" || (strings.Contains(n, "okf") && strings.Contains(n, "version"))
}

// logEntry records the migration in the root log.md (§9): a bullet under today's date group,
// which is added newest-first when missing; a log.md is created when the bundle has none.
func logEntry(b *okf.Bundle, now time.Time, files int, n counts) (*Change, *Problem) {
	day := now.UTC().Format("2006-01-02")
	var what []string
	if n.timestamps > 0 {
		what = append(what, fmt.Sprintf("timestamp → generated.at in %s (generated.by %s where the file named no producer: the author is unknown)", plural(n.timestamps, "concept"), Actor))
	}
	if n.citations > 0 {
		what = append(what, fmt.Sprintf("# Citations → sources in %s", plural(n.citations, "concept")))
	}
	if n.retimed > 0 {
		what = append(what, fmt.Sprintf("%s made datetimes (D10)", plural(n.retimed, "date-only or offset-less timestamp")))
	}
	if n.tags > 0 {
		what = append(what, fmt.Sprintf("tags written as lists in %s", plural(n.tags, "concept")))
	}
	if n.version {
		what = append(what, `okf_version "0.2" in the root index.md`)
	}
	if n.untouched > 0 {
		what = append(what, fmt.Sprintf("%s left untouched (okf migrate says why)", plural(n.untouched, "concept")))
	}
	entry := fmt.Sprintf("- Migrated from OKF v0.1 to v0.2 with okf migrate (%s): %s.", plural(files, "file"), strings.Join(what, "; "))
	var lg *okf.Log
	for _, l := range b.Logs {
		if l.Path == "log.md" {
			lg = l
		}
	}
	if lg == nil {
		if _, isDir := b.Stat("log.md"); isDir {
			return nil, &Problem{Pos: okf.Position{Path: "log.md"}, Message: "log.md is a folder: the migration is not logged"}
		}
		text := "# Log\n\n## " + day + "\n\n" + entry + "\n"
		return &Change{FileChange: okf.FileChange{Path: "log.md", New: []byte(text)}, Notes: []string{"created with the migration entry"}}, nil
	}
	src, err := b.ReadFile(lg.Path)
	if err != nil {
		return nil, &Problem{Pos: okf.Position{Path: lg.Path}, Message: fmt.Sprintf("cannot read: %v: the migration is not logged", err)}
	}
	nl := okf.Newline(src)
	var e okf.Edit
	switch {
	case len(lg.Groups) > 0 && lg.Groups[0].Valid && lg.Groups[0].Date.Format("2006-01-02") == day:
		g := lg.Groups[0]
		at := okf.LineEnd(src, okf.OffsetOf(src, int(g.Pos.Line), 1))
		if len(g.Entries) > 0 {
			at = okf.OffsetOf(src, int(g.Entries[0].Pos.Line), 1)
			e = okf.Edit{Start: at, End: at, New: entry + nl}
		} else {
			e = okf.Edit{Start: at, End: at, New: nl + entry + nl}
		}
	case len(lg.Groups) > 0:
		at := okf.OffsetOf(src, int(lg.Groups[0].Pos.Line), 1)
		e = okf.Edit{Start: at, End: at, New: "## " + day + nl + nl + entry + nl + nl}
	default:
		lead := nl
		if len(src) == 0 || strings.HasSuffix(string(src), "\n\n") {
			lead = ""
		} else if !strings.HasSuffix(string(src), "\n") {
			lead = nl + nl
		}
		e = okf.Edit{Start: len(src), End: len(src), New: lead + "## " + day + nl + nl + entry + nl}
	}
	if e.Start < 0 {
		return nil, &Problem{Pos: okf.Position{Path: lg.Path}, Message: "log.md changed since it was read: the migration is not logged"}
	}
	out, err := okf.ApplyEdits(src, []okf.Edit{e})
	if err != nil {
		return nil, &Problem{Pos: okf.Position{Path: lg.Path}, Message: err.Error()}
	}
	return &Change{FileChange: okf.FileChange{Path: lg.Path, Old: src, New: out}, Edits: []okf.Edit{e}, Notes: []string{"migration entry added"}}, nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// Diff renders the plan as a unified diff, file by file in path order (a created file is shown
// against /dev/null), with paths from the bundle root.
func (p *Plan) Diff() string { return p.DiffAs(func(s string) string { return s }) }

// DiffAs is Diff with each path shown as display makes it (relative to the working directory, so
// that the diff applies from there).
func (p *Plan) DiffAs(display func(string) string) string {
	var b strings.Builder
	for _, c := range p.Changes {
		name := strings.TrimPrefix(display(c.Path), "/")
		if c.Old == nil {
			fmt.Fprintf(&b, "--- /dev/null\n+++ b/%s\n@@ -0,0 +1,%d @@\n", name, strings.Count(string(c.New), "\n"))
			for _, l := range strings.SplitAfter(string(c.New), "\n") {
				if l != "" {
					b.WriteString("+" + l)
				}
			}
			continue
		}
		b.WriteString(okf.UnifiedDiff(name, c.Old, c.Edits))
	}
	return b.String()
}

// isLink reports whether the bundle file at p is a symbolic link (the loader reads links that stay
// inside the bundle): okf never rewrites through one, so such a file is planned as untouched.
func isLink(b *okf.Bundle, p string) bool {
	l, ok := b.FS.(interface {
		Lstat(string) (fs.FileInfo, error)
	})
	if !ok {
		return false
	}
	st, err := l.Lstat(p)
	return err == nil && st.Mode()&fs.ModeSymlink != 0
}
