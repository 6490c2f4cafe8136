package generate

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/okf-tools/okf/okf"
	"go.yaml.in/yaml/v3"
)

// Authors maps the author keys posts name (`authors: [key]`) to names.
type Authors map[string]string

// ParseAuthorsFile reads an authors file in Docusaurus's authors.yml form: a mapping of keys to
// `{name: …, title: …, url: …}` (a plain string is taken as the name).
func ParseAuthorsFile(src []byte) (Authors, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, fmt.Errorf("not valid YAML: %v", err)
	}
	a := Authors{}
	if len(doc.Content) == 0 {
		return a, nil
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: expected a mapping of author keys to authors", top.Line)
	}
	for i := 0; i+1 < len(top.Content); i += 2 {
		if name := authorOf(top.Content[i+1]); name != "" {
			a[strings.TrimSpace(top.Content[i].Value)] = name
		}
	}
	return a, nil
}

// readAuthors reads the authors from p (a path on disk): a file as ParseAuthorsFile, a folder as
// one Markdown document per author whose key is its path without extension and whose name is its
// frontmatter `name` (contentlayer's data/authors/<key>.mdx). Reads are confined to the file's
// folder or the folder itself. found is false when p does not exist.
func readAuthors(p string, maxSize int64) (a Authors, found bool, problems []PostProblem, err error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, false, nil, nil
	}
	if !fi.IsDir() {
		dir, err := openConfined(filepath.Dir(p), maxSize)
		if err != nil {
			return nil, true, nil, err
		}
		defer dir.Close()
		src, err := dir.ReadPost(filepath.Base(p))
		if err != nil {
			return nil, true, nil, fmt.Errorf("%s: %v", p, err)
		}
		a, err := ParseAuthorsFile(src)
		if err != nil {
			return nil, true, nil, fmt.Errorf("%s: %v", p, err)
		}
		return a, true, nil, nil
	}
	dir, err := openConfined(p, maxSize)
	if err != nil {
		return nil, true, nil, err
	}
	defer dir.Close()
	a = Authors{}
	var names []string
	err = fs.WalkDir(dir, ".", func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && authorDocExt(q) != "" && !strings.HasPrefix(d.Name(), ".") {
			names = append(names, q)
		}
		return nil
	})
	if err != nil {
		return nil, true, nil, err
	}
	sort.Strings(names)
	for _, q := range names {
		src, err := dir.ReadPost(q)
		if err != nil {
			problems = append(problems, PostProblem{Pos: okf.Position{Path: q}, Message: err.Error()})
			continue
		}
		ext := authorDocExt(q)
		data := src // a data file (Astro's src/content/authors/<key>.yaml or .json) is all YAML
		if ext == ".md" || ext == ".mdx" {
			sp := okf.SplitFrontmatter(src)
			data = nil
			if sp.Status == okf.FrontmatterOK {
				data = sp.YAML
			}
		}
		var m struct {
			Name string `yaml:"name"`
		}
		if data == nil || yaml.Unmarshal(data, &m) != nil || strings.TrimSpace(m.Name) == "" {
			problems = append(problems, PostProblem{Pos: okf.Position{Path: q, Line: 1, Col: 1}, Message: "an author document needs a name (in its frontmatter for Markdown)"})
			continue
		}
		key := strings.TrimSuffix(q, ext)
		a[key] = strings.TrimSpace(m.Name)
		if b := path.Base(key); b != key {
			if _, taken := a[b]; !taken {
				a[b] = a[key]
			}
		}
	}
	return a, true, problems, nil
}

// authorDocExt is the extension of an author document in an authors folder, "" for other files.
func authorDocExt(name string) string {
	for _, e := range []string{".mdx", ".md", ".yaml", ".yml", ".json"} {
		if strings.HasSuffix(name, e) {
			return e
		}
	}
	return ""
}

// authorEntry is one person a post's `author`/`authors` names: a name, or a key an authors file
// may resolve, with the affiliation written beside it for the byline.
type authorEntry struct {
	text, note string
	key        bool
	// credit is true for a value that is not a name (a URL, a bare e-mail address): the body
	// credits it as written, and it is never made an identity.
	credit bool
}

// person reports whether the entry names a person gen may make an actor for.
func (e authorEntry) person() bool { return !e.key && !e.credit }

var (
	mdLinkRE      = &lazyRegexp{Expr: `\[([^\[\]]*)\]\(([^()\s]*)\)`}
	affiliationRE = &lazyRegexp{Expr: `\(([^()]*)\)`}
	authorSepRE   = &lazyRegexp{Expr: `\s*(?:[,;&]|\band\b)\s*`}
	authorKeyRE   = &lazyRegexp{Expr: `^[a-z0-9][a-z0-9._-]*$`}
	emailRE       = &lazyRegexp{Expr: `<[^<>\s]*@[^<>\s]*>`}
)

// maxAuthors bounds how many people one post may credit, maxAuthorLine how much of one author
// value is read.
const (
	maxAuthors    = 64
	maxAuthorLine = 4096
)

// readAuthorList reads `author`/`authors`: a value or a list of values, each a name, a key, a
// mapping with `name`, or a line naming several people as Markdown links and/or names separated
// by commas, semicolons, "&" or "and", each maybe followed by an affiliation in parentheses
// ("[Ada](https://…) (IBM), [Alan](…) (Google)" is two people). A value is a key when the engine's
// authors are keys, or when it is written as one (lowercase letters, digits, ".", "_", "-" and no
// space: "default", "jane-doe"); a key no authors file resolves is never made a person.
func readAuthorList(n *yaml.Node, keysEngine bool) (names, keys []string, entries []authorEntry) {
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		items = n.Content
	}
	for _, c := range items {
		switch {
		case len(entries) >= maxAuthors:
		case c.Kind == yaml.MappingNode:
			if a := authorOf(c); a != "" {
				entries = append(entries, authorEntry{text: a, credit: notAName(a)})
			}
		case c.Kind == yaml.ScalarNode && c.Tag != "!!null":
			entries = append(entries, splitPeople(c.Value, keysEngine)...)
			if len(entries) > maxAuthors {
				entries = entries[:maxAuthors]
			}
		}
	}
	if len(entries) > maxAuthors {
		entries = entries[:maxAuthors]
	}
	for _, e := range entries {
		if e.key {
			keys = append(keys, e.text)
		} else if !e.credit {
			names = append(names, e.text)
		}
	}
	return names, keys, entries
}

// splitPeople splits one author value into the people it names.
func splitPeople(v string, keysEngine bool) []authorEntry {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil
	}
	if len(v) > maxAuthorLine { // no real author line is this long: read its start only
		v = strings.ToValidUTF8(v[:maxAuthorLine], "")
	}
	// Links become their text, remembered as the note; affiliations in parentheses become notes.
	var out []authorEntry
	// Each link becomes its text, and an e-mail address in <…> goes: neither is a name or part of
	// the identity.
	v = strings.ReplaceAll(v, linkMark, "")
	v = mdLinkRE.Get().ReplaceAllString(v, linkMark+"$1")
	v = emailRE.Get().ReplaceAllString(v, "")
	type note struct {
		at   int
		text string
	}
	var notes []note
	var b strings.Builder
	last := 0
	for _, loc := range affiliationRE.Get().FindAllStringSubmatchIndex(v, -1) {
		b.WriteString(v[last:loc[0]])
		notes = append(notes, note{b.Len(), strings.TrimSpace(v[loc[2]:loc[3]])})
		last = loc[1]
	}
	b.WriteString(v[last:])
	flat := b.String()
	// Split, attaching each note to the person it follows; a suffix ("PhD", "Jr.") stays with the
	// name before it, and a line is split only when every part stands alone (see splitsClean).
	parts := joinSuffixes(flat, splitKeep(flat))
	if !splitsClean(flat, parts) {
		parts = []part{{0, len(flat)}}
	}
	for pi, part := range parts {
		start, limit := part.start, len(flat)+1
		if pi+1 < len(parts) {
			limit = parts[pi+1].start
		}
		name := strings.TrimSpace(flat[start:part.end])
		nt := ""
		for len(notes) > 0 && notes[0].at < start {
			notes = notes[1:] // notes are in order: each is looked at once
		}
		if len(notes) > 0 && notes[0].at < limit {
			nt = notes[0].text
		}
		link := strings.Contains(name, linkMark)
		name = strings.TrimSpace(strings.ReplaceAll(name, linkMark, ""))
		if name == "" {
			continue
		}
		if !link && notAName(name) {
			out = append(out, authorEntry{text: name, note: nt, credit: true})
			continue
		}
		out = append(out, authorEntry{text: name, note: nt, key: keysEngine || authorKeyRE.Get().MatchString(name)})
	}
	return out
}

type part struct{ start, end int }

// splitKeep splits s at author separators, returning each part's byte range.
func splitKeep(s string) []part {
	var parts []part
	last := 0
	for _, loc := range authorSepRE.Get().FindAllStringIndex(s, -1) {
		parts = append(parts, part{last, loc[0]})
		last = loc[1]
	}
	return append(parts, part{last, len(s)})
}

// linkMark marks, while a line is split, where a Markdown link's text was: a link is one person.
const linkMark = "\x00"

// nameSuffixes are what follows a name after a comma without being another person.
var nameSuffixes = map[string]bool{
	"phd": true, "ph.d.": true, "ph.d": true, "md": true, "m.d.": true, "jr": true, "jr.": true, "sr": true, "sr.": true,
	"ii": true, "iii": true, "iv": true, "esq": true, "esq.": true, "mba": true, "msc": true, "bsc": true, "ma": true,
	"dds": true, "rn": true, "cpa": true,
}

// joinSuffixes merges a part that is a name suffix into the part before it.
func joinSuffixes(s string, parts []part) []part {
	var out []part
	for _, p := range parts {
		if len(out) > 0 && nameSuffixes[strings.ToLower(strings.TrimSpace(s[p.start:p.end]))] {
			out[len(out)-1].end = p.end
			continue
		}
		out = append(out, p)
	}
	return out
}

// splitsClean reports whether a line may be split at its separators: every part is a Markdown
// link, a full name (two or more words), an author key, or not a name at all (a URL, an e-mail
// address). "Doe, Jane" and "Procter & Gamble Editorial" are one value each: splitting them would
// make up people.
func splitsClean(s string, parts []part) bool {
	if len(parts) < 2 {
		return true
	}
	for _, p := range parts {
		t := strings.TrimSpace(s[p.start:p.end])
		switch {
		case t == "":
		case strings.Contains(t, linkMark):
		case len(strings.Fields(t)) >= 2:
		case authorKeyRE.Get().MatchString(t):
		case notAName(t):
		default:
			return false
		}
	}
	return true
}

var bareEmailRE = &lazyRegexp{Expr: `^<?[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>?$`}

// notAName reports whether an author value is a URL or a bare e-mail address: it is credited as
// written, and a link's address never goes into an identity.
func notAName(s string) bool {
	l := strings.ToLower(s)
	return strings.Contains(l, "://") || strings.HasPrefix(l, "www.") || strings.HasPrefix(l, "mailto:") || bareEmailRE.Get().MatchString(s)
}
