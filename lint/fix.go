package lint

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/okf"
)

// Fix is a rule's mechanical repair of one finding: edits to one file, made at the positions the
// parser gave (okf.Edit), so nothing around them changes.
type Fix struct {
	// Description says what the fix does, for SARIF and --fix --dry-run.
	Description string
	Path        string
	Edits       []okf.Edit
	// Changes are what the edits mean (okf.ProveEdit): PlanFixes parses the fixed file again and
	// writes it only when it means exactly this and nothing else moved. None: the meaning stays.
	Changes []okf.Change
	// Appends is set when the fix adds to the end of the body (an index entry): the body may grow
	// by what is appended, and nothing else in it may change.
	Appends bool
}

// valueFix is a fix that replaces one frontmatter value: its meaning is the value at that place
// becoming what the new text reads as (okf.ValueChange), so a replacement the parser reads
// otherwise than intended is never written. ok is false when that cannot be said.
func valueFix(src []byte, memo map[string]any, desc, path string, e okf.Edit) (Fix, bool) {
	paths, seen := memo["value-paths"].(map[int][]string)
	if !seen {
		paths = okf.ValuePaths(src) // Bound: once per file, for all its findings
		memo["value-paths"] = paths
	}
	ch, ok := okf.ValueChange(paths, e)
	if !ok {
		return Fix{}, false
	}
	return Fix{Description: desc, Path: path, Edits: []okf.Edit{e}, Changes: []okf.Change{ch}}, true
}

// FixDocs says what each fix does, by rule code, for callers that predate Rule.Fix: it is made from
// the registry (each fixable rule's Fix.Doc), which is where a fix is declared.
var FixDocs = fixDocs()

func fixDocs() map[string]string {
	m := map[string]string{}
	for _, r := range All() {
		if r.Fix != nil {
			m[r.Code] = r.Fix.Doc
		}
	}
	return m
}

// Fixable reports whether the rule offers a fix (okf lint --fix).
func (r *Rule) Fixable() bool { return r.Fix != nil }

// Fixes computes the fix of every finding whose rule offers one and can fix it safely, keyed by
// the finding. Files are read again through the bundle (okf.FileSystem), once each.
func Fixes(b *okf.Bundle, ds []okf.Diagnostic) map[okf.Diagnostic]Fix {
	out := map[okf.Diagnostic]Fix{}
	texts := map[string][]byte{}
	memos := map[string]map[string]any{}
	for _, d := range ds {
		r := ByCode(d.Code)
		if r == nil || r.Fix == nil || d.Pos.Path == "" {
			continue
		}
		src, ok := texts[d.Pos.Path]
		if !ok {
			data, err := b.ReadFile(d.Pos.Path)
			if err != nil || isLink(b, d.Pos.Path) {
				data = nil // never rewritten through a symbolic link
			}
			texts[d.Pos.Path], src = data, data
		}
		if src == nil {
			continue
		}
		if memos[d.Pos.Path] == nil {
			memos[d.Pos.Path] = map[string]any{}
		}
		if f, ok := r.Fix.Make(b, d, src, memos[d.Pos.Path]); ok && len(f.Edits) > 0 {
			out[d] = f
		}
	}
	return out
}

// FileFix is one file okf lint --fix rewrites: its text before and after, the edits between them,
// and the findings fixed.
type FileFix struct {
	// FileChange is the rewrite, as okf.ApplyChanges writes it.
	okf.FileChange
	Edits []okf.Edit
	Fixed []okf.Diagnostic
	// Unproven, when set, is why the file is not rewritten: its new text, parsed again, does not
	// mean what the fixes said (okf.ProveEdit). New is nil then.
	Unproven error

	changes []okf.Change
	appends bool
}

// PlanFixes groups fixes by file, in the order of the findings (ds), and applies them to each
// file's text. A fix whose edits overlap one already taken in the same file is left for the next
// run (after which its finding is computed again from the new text).
func PlanFixes(b *okf.Bundle, ds []okf.Diagnostic, fixes map[okf.Diagnostic]Fix) []FileFix {
	byPath := map[string]*FileFix{}
	type span struct{ s, e int }
	taken := map[string][]span{}
	for _, d := range ds {
		f, ok := fixes[d]
		if !ok {
			continue
		}
		ff := byPath[f.Path]
		if ff == nil {
			src, err := b.ReadFile(f.Path)
			if err != nil {
				continue
			}
			ff = &FileFix{FileChange: okf.FileChange{Path: f.Path, Old: src}}
			byPath[f.Path] = ff
		}
		clash := false
		for _, e := range f.Edits {
			for _, t := range taken[f.Path] {
				// Overlapping replacements clash, and so does an insertion strictly inside a
				// replaced range; two insertions at one place both go in, in the findings' order.
				if e.Start < t.e && t.s < e.End ||
					e.Start == e.End && t.s < e.Start && e.Start < t.e ||
					t.s == t.e && e.Start < t.s && t.s < e.End {
					clash = true
				}
			}
		}
		if clash {
			continue
		}
		for _, e := range f.Edits {
			taken[f.Path] = append(taken[f.Path], span{e.Start, e.End})
		}
		ff.Edits = append(ff.Edits, f.Edits...)
		ff.Fixed = append(ff.Fixed, d)
		ff.changes = append(ff.changes, f.Changes...)
		ff.appends = ff.appends || f.Appends
	}
	var out []FileFix
	for _, ff := range byPath {
		nw, err := okf.ApplyEdits(ff.Old, ff.Edits)
		if err != nil || bytes.Equal(nw, ff.Old) {
			continue
		}
		if err := proveFix(ff.Old, nw, ff.changes, ff.appends); err != nil {
			ff.Unproven = err
		} else {
			ff.New = nw
		}
		out = append(out, *ff)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// proveFix checks that a file's fixes together mean what they said and nothing else moved.
func proveFix(old, nw []byte, changes []okf.Change, appends bool) error {
	if !appends {
		return okf.ProveEdit(old, nw, changes...)
	}
	ob, nb := okf.SplitFrontmatter(old).Body, okf.SplitFrontmatter(nw).Body
	if !bytes.HasPrefix(nb, ob) {
		return fmt.Errorf("%w: the body changed before what was appended", okf.ErrUnproven)
	}
	return okf.ProveFrontmatter(old, nw, changes...)
}

// conceptModel returns the concept at path p with its model: as loaded, or read again from its
// file when a Stream dropped it (okf.ParseConceptFrontmatter reads a file as the loader does, all
// but its body, which no fix reads). It is parsed once per file and fix run (memo: the finding's
// file's memo), from src when that is p's text already read (nil: read here). A file that can no
// longer be read gives the dropped concept, whose empty model is what the loader made of a file it
// could not read.
func conceptModel(b *okf.Bundle, p string, src []byte, memo map[string]any) *okf.Concept {
	c := b.ConceptAt(p)
	if c == nil || !c.Dropped() {
		return c
	}
	if m, ok := memo["model:"+p].(*okf.Concept); ok {
		return m
	}
	if src == nil {
		src, _ = b.ReadFile(p)
	}
	if src != nil {
		c = okf.ParseConceptFrontmatter(p, src) // the fixes read frontmatters only
	}
	memo["model:"+p] = c
	return c
}

// conceptAt returns the concept at path p when its frontmatter was read.
func conceptAt(b *okf.Bundle, p string, src []byte, memo map[string]any) *okf.Concept {
	c := conceptModel(b, p, src, memo)
	if c == nil || c.Frontmatter == nil || !c.Frontmatter.Present {
		return nil
	}
	return c
}

func fixTimestamp(b *okf.Bundle, d okf.Diagnostic, src []byte, memo map[string]any) (Fix, bool) {
	c := conceptAt(b, d.Pos.Path, src, memo)
	if c == nil {
		return Fix{}, false
	}
	// Bound: the file's fields are indexed by position once for all its findings (looking each
	// one up among all of them made n date-only timestamps cost n²).
	byPos, _ := memo["timestamps"].(map[okf.Position]namedTimestamp)
	if byPos == nil {
		byPos = map[okf.Position]namedTimestamp{}
		for _, f := range timestampFields(nil, c.Frontmatter) {
			if _, dup := byPos[f.ts.Pos]; !dup {
				byPos[f.ts.Pos] = f
			}
		}
		memo["timestamps"] = byPos
	}
	if f, ok := byPos[d.Pos]; ok {
		e, ok := okf.RetimeEdit(src, f.ts)
		if !ok {
			return Fix{}, false
		}
		text, _ := okf.DatetimeText(f.ts)
		return valueFix(src, memo, f.name()+" → "+text, d.Pos.Path, e)
	}
	return Fix{}, false
}

func fixTags(b *okf.Bundle, d okf.Diagnostic, src []byte, memo map[string]any) (Fix, bool) {
	c := conceptAt(b, d.Pos.Path, src, memo)
	if c == nil {
		return Fix{}, false
	}
	// An item YAML reads as a number or boolean: quoted as written (2026 → "2026").
	items, _ := memo["tags"].(map[okf.Position]okf.Value)
	if items == nil {
		items = map[okf.Position]okf.Value{}
		for _, it := range c.Frontmatter.Tags.Items {
			if _, dup := items[it.Pos]; !dup {
				items[it.Pos] = it
			}
		}
		memo["tags"] = items
	}
	if it, ok := items[d.Pos]; ok && it.Kind == okf.Scalar && !it.IsString() {
		s, e, q, ok := okf.ScalarSpan(src, it)
		if !ok || q != 0 {
			return Fix{}, false
		}
		nv := okf.Quote(it.Raw, '"')
		return valueFix(src, memo, "tag "+it.Raw+" → "+nv, d.Pos.Path, okf.Edit{Start: s, End: e, New: nv})
	}
	if c.Frontmatter.Tags.Pos != d.Pos {
		return Fix{}, false
	}
	e, ok := okf.TagsEdit(src, c.Frontmatter.Tags)
	if !ok {
		return Fix{}, false
	}
	tags, _ := okf.TagsFromString(c.Frontmatter.Tags.Raw)
	return Fix{Description: "tags → " + e.New, Path: d.Pos.Path, Edits: []okf.Edit{e},
		Changes: []okf.Change{{Path: []string{"tags"}, Value: okf.StrList(tags)}}}, true
}

func fixVersionKey(b *okf.Bundle, d okf.Diagnostic, src []byte, _ map[string]any) (Fix, bool) {
	x := b.RootIndex()
	if x == nil || x.Path != d.Pos.Path || x.Frontmatter == nil || !x.Frontmatter.Present {
		return Fix{}, false
	}
	fm := x.Frontmatter
	if _, ok := fm.Key("okf_version"); ok {
		return Fix{}, false
	}
	var only *okf.Key
	for i, k := range fm.Keys {
		if versionLookAlike(k.Name) {
			if only != nil {
				return Fix{}, false // two candidates: which one is meant is not mechanical
			}
			only = &fm.Keys[i]
		}
	}
	if only == nil || only.Pos != d.Pos {
		return Fix{}, false
	}
	s, e, ok := okf.KeySpan(src, only.Pos, only.Name)
	if !ok {
		return Fix{}, false
	}
	return Fix{Description: only.Name + " → okf_version", Path: d.Pos.Path, Edits: []okf.Edit{{Start: s, End: e, New: "okf_version"}},
		Changes: []okf.Change{{Path: []string{"okf_version"}, From: []string{only.Name}}}}, true
}

func fixRootRelative(b *okf.Bundle, d okf.Diagnostic, src []byte, memo map[string]any) (Fix, bool) {
	c := conceptAt(b, d.Pos.Path, src, memo)
	if c == nil {
		return Fix{}, false
	}
	byPos, _ := memo["paths"].(map[okf.Position]pathField)
	if byPos == nil {
		byPos = map[okf.Position]pathField{}
		for _, f := range pathFields(nil, c.Frontmatter) {
			if _, dup := byPos[f.v.Pos]; !dup {
				byPos[f.v.Pos] = f
			}
		}
		memo["paths"] = byPos
	}
	if f, ok := byPos[d.Pos]; ok {
		r := b.ResolvePath(c.Path, f.v.Raw)
		if !r.RootOnly {
			return Fix{}, false
		}
		s, e, q, ok := okf.ScalarSpan(src, f.v)
		if !ok {
			return Fix{}, false
		}
		nv := okf.Quote("/"+r.Target, q)
		return valueFix(src, memo, f.name()+" → /"+r.Target, d.Pos.Path, okf.Edit{Start: s, End: e, New: nv})
	}
	return Fix{}, false
}

// fixNotIndexed appends the entry the finding suggests to the end of the index: the concept path
// leads the message ("tables/orders.md is not listed in this index: …").
func fixNotIndexed(b *okf.Bundle, d okf.Diagnostic, src []byte, memo map[string]any) (Fix, bool) {
	p, _, ok := strings.Cut(d.Message, " is not listed in this index")
	if !ok {
		return Fix{}, false
	}
	c := conceptModel(b, p, nil, memo)
	if c == nil || path.Dir(c.Path) != path.Dir(d.Pos.Path) {
		return Fix{}, false
	}
	entry := indexEntryFor(c, c.Frontmatter.Title.Text(), c.Frontmatter.Description.Text())
	nl := okf.Newline(src)
	lead := ""
	if len(src) > 0 && !bytes.HasSuffix(src, []byte("\n")) {
		lead = nl
	}
	e := okf.Edit{Start: len(src), End: len(src), New: lead + entry + nl}
	// The entry must read as a link to the concept once appended (an index that is not UTF-8, or
	// whose frontmatter never closes, has no body to add to): else the fix would never settle.
	// Bound: parsing the index again for every finding made n findings cost n parses of an index
	// that grows with them (1,000 on a 200 KB index: 86 s). So the index is parsed once, with a
	// probe entry of the same shape appended (is an entry added at its end read as a link there?),
	// and each entry on its own (is it a link to this concept?).
	appends, seen := memo["appends-link"].(bool)
	if !seen {
		appends = appendsLink(d.Pos.Path, src, lead, nl)
		memo["appends-link"] = appends
	}
	if !appends || !utf8.ValidString(entry) {
		return Fix{}, false
	}
	found := false
	for _, l := range okf.ParseBody(d.Pos.Path, []byte(entry+nl), 0).Links {
		if r := b.ResolveLink(d.Pos.Path, l.Target); r.Kind == okf.RefLocal && r.Target == c.Path {
			found = true
		}
	}
	if !found {
		return Fix{}, false
	}
	return Fix{Description: "add " + entry, Path: d.Pos.Path, Edits: []okf.Edit{e}, Appends: true}, true
}

// appendsLink reports whether an index entry appended to the index text src (after lead) is read
// as a link: the text is UTF-8, its frontmatter closes, and a probe entry of the shape
// fixNotIndexed writes, appended, comes out of the parser as a link on the last line.
func appendsLink(p string, src []byte, lead, nl string) bool {
	const probe = "okf-probe-entry.md"
	out, err := okf.ApplyEdits(src, []okf.Edit{{Start: len(src), End: len(src), New: lead + "* [Probe](" + probe + ") - a probe" + nl}})
	if err != nil || !utf8.Valid(out) {
		return false
	}
	sp := okf.SplitFrontmatter(out)
	if sp.Status == okf.Unterminated {
		return false
	}
	last := bytes.Count(out, []byte("\n"))
	if !bytes.HasSuffix(out, []byte("\n")) {
		last++
	}
	for _, l := range okf.ParseBody(p, out, sp.BodyOffset).Links {
		if l.Target == probe && int(l.Pos.Line) == last {
			return true
		}
	}
	return false
}

// squash writes text on one line with single spaces, as an index entry shows it, and its control
// characters (C0, C1, DEL: YAML's "\e" is an ESC) as \xNN, as okf index does: raw in index.md they
// would drive the terminal of whoever runs cat or git diff on it.
func squash(s string) string {
	return escape.ControlHex(strings.Join(strings.Fields(s), " "))
}

// indexEntryFor is the index entry `* [Title](file.md) - description` for the concept c in its
// folder's index: what concept-not-indexed suggests and its fix appends, one text. The title (the
// file's base name when it has none) and description are on one line, the title escaped so it
// cannot close its link text, the file written so it reads back as itself (okf.LinkDestination).
func indexEntryFor(c *okf.Concept, title, desc string) string {
	if title = squash(title); title == "" {
		title = squash(path.Base(c.ID)) // a name may hold a line break: the entry is one line
	}
	dest := okf.LinkDestination(path.Base(c.Path))
	desc = squash(desc)
	build := func(text string) string {
		entry := "* [" + text + "](" + dest + ")"
		if desc != "" {
			entry += " - " + desc
		}
		return entry
	}
	text := escapeLinkText(title)
	if entry := build(text); !strings.Contains(entry, "`") || leadsTo(entry, dest) {
		return entry
	}
	// A backtick of the title opened a code span over `](…)` (one in the description closed it):
	// the title's backticks are escaped, its code spans shown as text.
	return build(strings.ReplaceAll(text, "`", "\\`"))
}

// leadsTo reports whether the entry's first link has the target dest has alone.
func leadsTo(entry, dest string) bool {
	want := okf.ParseBody("index.md", []byte("[x]("+dest+")\n"), 0).Links
	got := okf.ParseBody("index.md", []byte(entry+"\n"), 0).Links
	return len(want) == 1 && len(got) > 0 && got[0].Target == want[0].Target
}

// escapeLinkText keeps a title from closing its link text early.
func escapeLinkText(s string) string {
	return strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`).Replace(s)
}

// fixLooseDelimiter rewrites a frontmatter delimiter written with spaces or tabs around "---" (D2)
// as exactly "---": the finding's line, when it is such a line, and nothing else.
func fixLooseDelimiter(b *okf.Bundle, d okf.Diagnostic, src []byte, _ map[string]any) (Fix, bool) {
	start := okf.OffsetOf(src, int(d.Pos.Line), 1)
	if start < 0 {
		return Fix{}, false
	}
	if d.Pos.Line == 1 && bytes.HasPrefix(src, []byte("\xEF\xBB\xBF")) {
		start += 3
	}
	end := okf.LineEnd(src, start)
	line := src[start:end]
	line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
	if string(bytes.Trim(line, " \t")) != "---" || string(line) == "---" {
		return Fix{}, false
	}
	return Fix{Description: "delimiter → ---", Path: d.Pos.Path, Edits: []okf.Edit{{Start: start, End: start + len(line), New: "---"}}}, true
}

// isLink reports whether the bundle file at p is a symbolic link.
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

// MaxFixRounds bounds FixBundle: a fix left out because it overlapped another in the same file is
// applied in the next round, so one okf lint --fix does what --fix twice would.
const MaxFixRounds = 5

// FixResult is what FixBundle did.
type FixResult struct {
	// Fixed counts the findings fixed, in Files files (slash paths, sorted).
	Fixed int
	Files []string
	// Unproven are the files not rewritten because their new text would not mean what the fixes
	// said (FileFix.Unproven), in the order they were found, each once.
	Unproven []FileFix
	// Refused are the rewrites okf.ApplyChanges did not write (the file changed meanwhile, a link);
	// FixBundle stops at the round that had any.
	Refused []okf.ChangeRefused
	// Preview is, for a dry run, the first round's fixes: nothing is written.
	Preview []FileFix
}

// FixBundle is okf lint --fix on the bundle at root: load reads it (the caller opens it, okf.Open),
// the safe fixes of the findings Run reports with opts are written, and the bundle is read again,
// for up to MaxFixRounds rounds. Files are written the one way okf edits a bundle
// (okf.ApplyChanges: only when unchanged since read, never through a symbolic link, atomically),
// under the bundle's lock (okf.LockBundle, held as "okf lint --fix"). With dryRun nothing is
// locked or written: the first round's fixes come back in Preview. err is a failure (the lock is
// held, the bundle unreadable); what could not be fixed is in the result.
func FixBundle(root string, load func() (*okf.Bundle, error), opts Options, dryRun bool) (*FixResult, error) {
	res := &FixResult{}
	if !dryRun {
		unlock, err := okf.LockBundle(root, "okf lint --fix")
		if err != nil {
			return res, err
		}
		defer unlock()
	}
	files, unproven := map[string]bool{}, map[string]bool{}
	for round := 0; round < MaxFixRounds; round++ {
		b, err := load()
		if err != nil {
			return res, err
		}
		ds := Run(b, opts)
		var plan []FileFix
		for _, f := range PlanFixes(b, ds, Fixes(b, ds)) {
			if f.Unproven != nil {
				if !unproven[f.Path] {
					res.Unproven = append(res.Unproven, f)
				}
				unproven[f.Path] = true
				continue
			}
			plan = append(plan, f)
		}
		if len(plan) == 0 {
			break
		}
		if dryRun {
			res.Preview = plan
			return res, nil
		}
		var changes []okf.FileChange
		for _, f := range plan {
			changes = append(changes, f.FileChange)
		}
		written, refused, err := okf.ApplyChanges(root, changes)
		if err != nil {
			return res, err
		}
		done := map[string]bool{}
		for _, p := range written {
			done[p] = true
		}
		for _, f := range plan {
			if done[f.Path] {
				res.Fixed += len(f.Fixed)
				files[f.Path] = true
			}
		}
		if len(refused) > 0 {
			res.Refused = refused
			break
		}
	}
	for p := range files {
		res.Files = append(res.Files, p)
	}
	sort.Strings(res.Files)
	return res, nil
}
