package okf

import (
	"fmt"
	"strings"
	"time"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Index is a parsed `index.md` (§8): sections of entries linking to concepts and subdirectories.
type Index struct {
	Path        string
	Frontmatter *Frontmatter
	Sections    []IndexSection
	// Body holds the links and headings found anywhere in the file.
	Body *Body
}

// Dir returns the slash path of the folder the index lists ("" for the root).
func (x *Index) Dir() string { return dirOf(x.Path) }

// IndexSection is one heading of an index and the entries under it. Entries before any heading
// are in a section with an empty Heading.
type IndexSection struct {
	Heading string
	Level   int
	Pos     Position
	Entries []IndexEntry
}

// IndexEntry is a list item that starts with a link: `* [Title](target) - description`.
type IndexEntry struct {
	Title       string
	Target      string
	Description string
	Pos         Position
}

// Log is a parsed `log.md` (§9): date groups, newest first.
type Log struct {
	Path        string
	Frontmatter *Frontmatter
	Groups      []LogGroup
	// Stray are the positions of entries or prose outside any date group (D8: warning).
	Stray []Position
}

// LogGroup is a `##` heading and the entries under it.
type LogGroup struct {
	Heading string
	Pos     Position
	// Valid is true when the heading begins with a real YYYY-MM-DD date (D8).
	Valid bool
	Date  time.Time
	// Extra is what follows the date in the heading ("" when the heading is just the date).
	Extra   string
	Entries []LogEntry
}

// LogEntry is one list item or paragraph in a date group.
type LogEntry struct {
	Text string
	Pos  Position
}

var logDateRE = &lazyRegexp{expr: `^(\d{4}-\d{2}-\d{2})(.*)$`}

// ParseLogDate reads the date a log heading begins with (§9: ISO 8601 YYYY-MM-DD). extra is the rest
// of the heading with separators trimmed.
func ParseLogDate(heading string) (date time.Time, extra string, ok bool) {
	m := logDateRE.get().FindStringSubmatch(strings.TrimSpace(heading))
	if m == nil {
		return time.Time{}, "", false
	}
	d, err := time.Parse("2006-01-02", m[1])
	if err != nil {
		return time.Time{}, "", false
	}
	rest := m[2]
	if rest != "" && (rest[0] >= '0' && rest[0] <= '9' || rest[0] == 'T') {
		// "2026-06-130" or a datetime is not a date followed by text.
		return time.Time{}, "", false
	}
	return d, strings.TrimSpace(strings.TrimLeft(rest, " \t,;:-–—|")), true
}

// Date forms a log heading is written in that are not §9's YYYY-MM-DD, for logHeadingMessage.
var (
	logYearFirstRE = &lazyRegexp{expr: `^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b`}
	logBasicRE     = &lazyRegexp{expr: `^(\d{4})(\d{2})(\d{2})\b`}
	logYearLastRE  = &lazyRegexp{expr: `^\d{1,2}[-/.]\d{1,2}[-/.]\d{4}\b`}
	logWordsRE     = &lazyRegexp{expr: `^(?:[A-Za-z]+\.? \d{1,2},? \d{4}|\d{1,2} [A-Za-z]+\.? \d{4})\b`}
)

// logWordLayouts read a date written with its month's name ("June 13, 2026", "13 Jun 2026").
var logWordLayouts = []string{"January 2, 2006", "January 2 2006", "Jan 2, 2006", "Jan 2 2006", "2 January 2006", "2 Jan 2006"}

// logHeadingMessage says why a `##` heading of a log is not a date group heading (D8), naming what
// is there instead of a date: a day that is not in the calendar (2026-02-30), a datetime, a date
// in another form (2026/06/13, 20260613, June 13, 2026, with the YYYY-MM-DD to write when it can be
// read unambiguously), or no date it can read.
func logHeadingMessage(heading string) string {
	h := strings.TrimSpace(heading)
	shown := escape.Quote(heading)
	if m := logDateRE.get().FindStringSubmatch(h); m != nil {
		d, err := time.Parse("2006-01-02", m[1])
		switch {
		case err != nil:
			return fmt.Sprintf("log heading %s has an invalid date %s: there is no such day; write a real YYYY-MM-DD date (§9)", shown, m[1])
		case strings.HasPrefix(m[2], "T") || strings.HasPrefix(m[2], "t"):
			return fmt.Sprintf("log heading %s is a datetime, not a date: write \"## %s\" and put the time in an entry; §9 groups a log by day (§9)", shown, d.Format("2006-01-02"))
		default:
			return fmt.Sprintf("log heading %s runs more digits into its date %s: write a YYYY-MM-DD date, then a space before any text (§9)", shown, m[1])
		}
	}
	notISO := func(date string, d time.Time) string {
		return fmt.Sprintf("log heading %s: date %q is not written YYYY-MM-DD: write \"## %s\" (§9)", shown, date, d.Format("2006-01-02"))
	}
	for _, re := range []*lazyRegexp{logYearFirstRE, logBasicRE} {
		if m := re.get().FindStringSubmatch(h); m != nil {
			if d, err := time.Parse("2006-1-2", m[1]+"-"+m[2]+"-"+m[3]); err == nil {
				return notISO(m[0], d)
			}
			return fmt.Sprintf("log heading %s: %q is no day of the calendar: write a real YYYY-MM-DD date (§9)", shown, m[0])
		}
	}
	if m := logYearLastRE.get().FindString(h); m != "" {
		return fmt.Sprintf("log heading %s: date %q is not written YYYY-MM-DD: write it year first, then month and day, as in ## 2026-06-13 (§9)", shown, m)
	}
	if m := logWordsRE.get().FindString(h); m != "" {
		for _, layout := range logWordLayouts {
			if d, err := time.Parse(layout, strings.ReplaceAll(m, ".", "")); err == nil {
				return notISO(m, d)
			}
		}
	}
	return fmt.Sprintf("log heading %s does not begin with a YYYY-MM-DD date: every ## heading of a log.md starts a date group, as in ## 2026-06-13; use ### for a heading inside a group (§9, D8)", shown)
}

// parseIndex reads the sections and entries of an index and its Body: by the Markdown fast path
// (okf/internal/fastmd; in bs, the loader worker's scratch, when not nil) when the body is in its
// subset, else from goldmark's tree.
func parseIndex(path string, file []byte, bodyOffset int, li *lineIndex, bs *bodyScratch) *Index {
	p := &bodyParser{path: path, src: file[bodyOffset:], offset: bodyOffset, lines: li, scratch: bs}
	if b, sections, ok := p.fastRead(true); ok {
		return &Index{Path: path, Sections: sections, Body: b}
	}
	return p.treeIndex()
}

// treeIndex is parseIndex by goldmark's tree.
func (p *bodyParser) treeIndex() *Index {
	path := p.path
	x := &Index{Path: path}
	doc := markdown().Parser().Parse(text.NewReader(p.src))
	cur := IndexSection{}
	flush := func() {
		if cur.Heading != "" || len(cur.Entries) > 0 {
			x.Sections = append(x.Sections, cur)
		}
	}
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch t := n.(type) {
		case *ast.Heading:
			flush()
			cur = IndexSection{Heading: inlineText(t, p.src), Level: t.Level, Pos: p.pos(t.Pos())}
		case *ast.List:
			for item := t.FirstChild(); item != nil; item = item.NextSibling() {
				if e, ok := p.indexEntry(item); ok {
					cur.Entries = append(cur.Entries, e)
				}
			}
		}
	}
	flush()
	x.Body = p.treeBody(doc) // the same tree: parsed once
	return x
}

// indexEntry reads a list item whose text starts with a link.
func (p *bodyParser) indexEntry(item ast.Node) (IndexEntry, bool) {
	block := item.FirstChild()
	if block == nil {
		return IndexEntry{}, false
	}
	first := block.FirstChild()
	link, ok := first.(*ast.Link)
	if !ok {
		return IndexEntry{}, false
	}
	e := IndexEntry{Title: inlineText(link, p.src), Target: string(link.Destination), Pos: p.pos(item.Pos())}
	var rest strings.Builder
	for c := link.NextSibling(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			// As written: the spaces around a code span or emphasis are the text's, and trimming
			// each piece ran "split `UIMessage` (state)" together as "splitUIMessage(state)".
			rest.Write(t.Segment.Value(p.src))
			if t.SoftLineBreak() || t.HardLineBreak() {
				rest.WriteByte(' ')
			}
			continue
		}
		rest.WriteString(inlineText(c, p.src))
	}
	e.Description = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(rest.String()), "-–—:"))
	return e, true
}

func parseLog(path string, file []byte, bodyOffset int, li *lineIndex) *Log {
	lg := &Log{Path: path}
	p := &bodyParser{path: path, src: file[bodyOffset:], offset: bodyOffset, lines: li}
	doc := markdown().Parser().Parse(text.NewReader(p.src))
	var cur *LogGroup
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			if h.Level == 1 && cur == nil {
				continue // the log's title
			}
			if h.Level == 2 {
				g := LogGroup{Heading: inlineText(h, p.src), Pos: p.pos(h.Pos())}
				g.Date, g.Extra, g.Valid = ParseLogDate(g.Heading)
				lg.Groups = append(lg.Groups, g)
				cur = &lg.Groups[len(lg.Groups)-1]
				continue
			}
			if h.Level < 2 {
				cur = nil
				lg.Stray = append(lg.Stray, p.pos(h.Pos()))
				continue
			}
		}
		if _, ok := n.(*ast.HTMLBlock); ok {
			continue // comments and directives are not entries
		}
		if cur == nil {
			lg.Stray = append(lg.Stray, p.pos(n.Pos()))
			continue
		}
		if l, ok := n.(*ast.List); ok {
			for item := l.FirstChild(); item != nil; item = item.NextSibling() {
				cur.Entries = append(cur.Entries, LogEntry{Text: inlineText(item, p.src), Pos: p.pos(item.Pos())})
			}
			continue
		}
		cur.Entries = append(cur.Entries, LogEntry{Text: inlineText(n, p.src), Pos: p.pos(n.Pos())})
	}
	return lg
}

func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}
