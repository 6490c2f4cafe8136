// Package skill turns an OKF bundle into an Agent Skill: a folder with a SKILL.md (frontmatter name
// and description, a body telling an agent how to walk the bundle and read its trust), a catalog
// of every file, and the bundle's own files under bundle/. A skill loads in three levels — the
// metadata always, the body when relevant, other files when the body points to them — which is how
// an OKF bundle is meant to be read: the root index, a folder's index, one concept. Build makes the
// files in memory from a loaded bundle, the same bytes every time from the same bundle (hosts
// re-approve a skill whose digest changes); Write puts them on disk through okf.ApplyChanges;
// Measure says what each level costs a model. It imports okf/ only.
package skill

import (
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/okf"
)

// Limits of the Agent Skills specification on SKILL.md's frontmatter, and its guideline on the body.
const (
	MaxName        = 64
	MaxDescription = 1024
	// BodyGuideline is the most a SKILL.md body should cost in tokens: hosts load it whole when
	// the skill is relevant.
	BodyGuideline = 5000
)

// Where the skill puts what it carries, relative to the skill folder.
const (
	SkillFile   = "SKILL.md"
	CatalogFile = "catalog.md"
	BundleDir   = "bundle"
)

// In the body, at most this many folders are listed by name; the catalog lists them all.
const (
	maxBodyFolders = 30
	maxShownPath   = 80 // a folder or bundle name as the body shows it, in characters
	maxTopics      = 200
	maxTypes       = 5
	maxTitle       = 200 // a title as the catalog and the description show it
)

// Finding codes of okf skill. They are stable: a code is never reused for another meaning.
const (
	// CodeFileSkipped: a bundle file that could not be read (too large, unreadable): not carried.
	CodeFileSkipped = "SKL001"
	// CodeLeftOver: a file in the skill folder that this build does not write (left from an earlier
	// build of a bundle that has lost the file): okf writes no deletion, the user removes it.
	CodeLeftOver = "SKL002"
	// CodeRefused: a file of the skill that could not be written (a symbolic link on its path, a
	// file changed meanwhile).
	CodeRefused = "SKL003"
	// CodeDescriptionCut: the description could not hold every topic of the bundle.
	CodeDescriptionCut = "SKL004"
)

// Finding is one thing okf skill or okf budget reports about a bundle or its skill.
type Finding struct {
	Code     string `json:"code"`
	Severity string `json:"severity"` // "error", "warning" or "info"
	Path     string `json:"path,omitempty"`
	Message  string `json:"message"`
}

// Options change how Build makes a skill.
type Options struct {
	// Name is the skill's name; "" derives it from the bundle's folder name (NameFrom).
	Name string
	// BundleName is what the skill calls the bundle ("" for the base name of the bundle's folder).
	BundleName string
	// MaxFiles and MaxBytes, when not zero, stop Build with a *LimitError once the skill would
	// hold more files (SKILL.md and catalog.md included) or more bytes of the bundle's files: a
	// server offering the skill stops reading a bundle no host need accept.
	MaxFiles int
	MaxBytes int64
	// Now, when not zero, judges each concept's staleness in the catalog at that instant; zero
	// writes the stale_after value as written, so the skill holds no time of its own.
	Now time.Time
}

// LimitError is Build stopped by Options.MaxFiles or MaxBytes.
type LimitError struct {
	What  string // "files" or "bytes"
	Limit int64
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("the skill would hold more than %d %s", e.Limit, e.What)
}

// File is one file of the skill: its slash path inside the skill folder and its bytes.
type File struct {
	Path string
	Data []byte
}

// Skill is a bundle made an Agent Skill, in memory.
type Skill struct {
	// Root is the bundle's folder ("" for a bundle not loaded from disk): Write refuses to put the
	// skill inside it, where the next build would carry the last one.
	Root        string
	Name        string
	Description string
	// Files are sorted by path; SKILL.md and catalog.md are among them.
	Files    []File
	Findings []Finding
	// Concepts and Indexes count what the bundle holds; Folders the folders below the root that
	// hold a concept or an index.
	Concepts, Indexes, Folders int
}

// File returns the bytes of the skill's file at p, nil when it has none.
func (s *Skill) File(p string) []byte {
	i := sort.Search(len(s.Files), func(i int) bool { return s.Files[i].Path >= p })
	if i < len(s.Files) && s.Files[i].Path == p {
		return s.Files[i].Data
	}
	return nil
}

// Body returns SKILL.md's body: what follows its frontmatter.
func (s *Skill) Body() string {
	md := string(s.File(SkillFile))
	if rest, ok := strings.CutPrefix(md, "---\n"); ok {
		if i := strings.Index(rest, "\n---\n"); i >= 0 {
			return rest[i+len("\n---\n"):]
		}
	}
	return md
}

// Metadata returns SKILL.md's frontmatter, what a host keeps in context for every skill.
func (s *Skill) Metadata() string {
	md := string(s.File(SkillFile))
	return strings.TrimSuffix(md, s.Body())
}

// CheckName says why name is no valid skill name ("" when it is): 1 to 64 characters, lowercase
// letters, digits and hyphens, no hyphen first, last or twice in a row (the Agent Skills spec).
func CheckName(name string) string {
	switch {
	case name == "":
		return "a skill name cannot be empty"
	case len(name) > MaxName:
		return fmt.Sprintf("a skill name has at most %d characters, got %d", MaxName, len(name))
	case !nameShape(name):
		return "a skill name holds only lowercase letters, digits and single hyphens, neither first nor last"
	}
	return ""
}

// nameShape reports whether name is lowercase letters and digits in runs joined by single hyphens.
func nameShape(name string) bool {
	prev := byte('-')
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
		case c == '-' && prev != '-':
		default:
			return false
		}
		prev = c
	}
	return prev != '-'
}

// NameFrom makes a skill name out of a bundle's name: lowercased, every run of other characters a
// hyphen, at most 64 characters; "okf-bundle" when nothing is left.
func NameFrom(s string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteRune(r)
			if b.Len() >= MaxName {
				break
			}
			continue
		}
		hyphen = true
	}
	name := strings.Trim(b.String(), "-")
	if len(name) > MaxName {
		name = strings.TrimRight(name[:MaxName], "-")
	}
	if name == "" {
		return "okf-bundle"
	}
	return name
}

// Build makes the skill of the loaded bundle b. It reads the bundle's files through b (confined,
// at most its size limit); a file it cannot read is a finding and is not carried.
func Build(b *okf.Bundle, o Options) (*Skill, error) {
	bundleName := o.BundleName
	if bundleName == "" {
		root := b.Root
		if abs, err := filepath.Abs(root); err == nil {
			root = abs
		}
		bundleName = filepath.Base(root)
	}
	name := o.Name
	if name == "" {
		name = NameFrom(bundleName)
	}
	if why := CheckName(name); why != "" {
		return nil, fmt.Errorf("invalid skill name %q: %s", name, why)
	}
	s := &Skill{Root: b.Root, Name: name, Concepts: len(b.Concepts), Indexes: len(b.Indexes)}

	// The files carried: every file the loader walked, hidden ones (.okf.yaml, .okfignore, .git)
	// left out, read through the bundle's confined root.
	var carried []string
	var size int64
	folders := map[string]int{} // folder → concepts directly in it
	for _, p := range b.Files() {
		if _, isDir := b.Stat(p); isDir || hidden(p) {
			continue
		}
		if o.MaxFiles > 0 && len(carried)+3 > o.MaxFiles {
			return nil, &LimitError{What: "files", Limit: int64(o.MaxFiles)}
		}
		data, err := b.ReadFile(p)
		if size += int64(len(data)); o.MaxBytes > 0 && size > o.MaxBytes {
			return nil, &LimitError{What: "bytes", Limit: o.MaxBytes}
		}
		if err != nil {
			s.Findings = append(s.Findings, Finding{Code: CodeFileSkipped, Severity: "warning", Path: p, Message: fmt.Sprintf("not carried: %v", err)})
			continue
		}
		carried = append(carried, p)
		s.Files = append(s.Files, File{Path: BundleDir + "/" + p, Data: data})
	}
	for _, c := range b.Concepts {
		folders[c.Dir()]++
	}
	for _, x := range b.Indexes {
		if _, ok := folders[x.Dir()]; !ok {
			folders[x.Dir()] = 0
		}
	}
	delete(folders, "")
	s.Folders = len(folders)

	desc, cut := description(b, bundleName)
	s.Description = desc
	if cut > 0 {
		s.Findings = append(s.Findings, Finding{Code: CodeDescriptionCut, Severity: "info", Path: SkillFile, Message: fmt.Sprintf("the description names the first topics of the bundle; %d more did not fit in %d characters", cut, MaxDescription)})
	}
	inSkill := map[string]bool{}
	for _, p := range carried {
		inSkill[p] = true
	}
	s.Files = append(s.Files,
		File{Path: SkillFile, Data: []byte(skillMD(b, s, bundleName, folders, inSkill))},
		File{Path: CatalogFile, Data: []byte(catalog(b, carried, o.Now))},
	)
	sort.Slice(s.Files, func(i, j int) bool { return s.Files[i].Path < s.Files[j].Path })
	sortFindings(s.Findings)
	return s, nil
}

func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].Path != fs[j].Path {
			return fs[i].Path < fs[j].Path
		}
		return fs[i].Code < fs[j].Code
	})
}

// hidden reports whether a slash path has a part starting with "." (configuration, VCS data).
func hidden(p string) bool {
	for _, part := range strings.Split(p, "/") {
		if strings.HasPrefix(part, ".") {
			return true
		}
	}
	return false
}

// plain makes bundle text one line of plain text: control characters, format characters and line
// breaks become spaces, runs of space one, at most max characters (cut at a word, with "…").
func plain(s string, max int) string { return flatten(s, max, false) }

// flatten is plain; tags drops `<`, `>`, `[`, `]` and backticks as well (for the description: hosts
// refuse tags there, and one that renders it as Markdown must find no link, image or code in it).
func flatten(s string, max int, tags bool) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) || unicode.IsSpace(r) || tags && strings.ContainsRune("<>[]`", r) || unicode.Is(unicode.Cf, r) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	out := b.String()
	if utf8.RuneCountInString(out) > max {
		rs := []rune(out)[:max-1]
		cut := string(rs)
		if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
			cut = cut[:i]
		}
		out = cut + "…"
	}
	return out
}

// units counts a string as the skill limits count characters: UTF-16 code units, so a string
// within the limit is within it for a host counting code points too.
func units(s string) int { return len(utf16.Encode([]rune(s))) }

// description writes what the bundle knows and when to use it, from the bundle's own words: its
// name, how many concepts of which types, and the topics its root index lists (else its top
// folders and root concepts' titles), each quoted. It returns how many topics did not fit.
func description(b *okf.Bundle, bundleName string) (string, int) {
	types := map[string]int{}
	for _, c := range b.Concepts {
		if t := strings.TrimSpace(c.Frontmatter.Type.Text()); t != "" {
			types[flatten(t, 60, true)]++
		}
	}
	var tl []string
	for t := range types {
		tl = append(tl, t)
	}
	sort.Slice(tl, func(i, j int) bool {
		if types[tl[i]] != types[tl[j]] {
			return types[tl[i]] > types[tl[j]]
		}
		return tl[i] < tl[j]
	})
	if len(tl) > maxTypes {
		tl = tl[:maxTypes]
	}
	head := fmt.Sprintf("Curated knowledge from the OKF bundle %s: %s", quote(flatten(bundleName, maxShownPath, true)), countOf(len(b.Concepts), "concept"))
	if len(tl) > 0 {
		head += " (" + quoteAll(tl) + ")"
	}
	head += ", trust stated per concept."

	topics := topicsOf(b)
	if len(topics) == 0 {
		return head, 0
	}
	const lead = " Use it when a task concerns: "
	out := head + lead
	n := 0
	for i, t := range topics {
		item := quote(t)
		if i > 0 {
			item = ", " + item
		}
		rest := len(topics) - i - 1
		tail := "."
		if rest > 0 {
			tail = fmt.Sprintf(", and %d more.", rest)
		}
		if units(out+item+tail) > MaxDescription {
			break
		}
		out += item
		n++
	}
	if n == 0 {
		return head, len(topics)
	}
	if rest := len(topics) - n; rest > 0 {
		return out + fmt.Sprintf(", and %d more.", rest), rest
	}
	return out + ".", 0
}

// topicsOf lists what the bundle says it holds: the titles its root index lists, in order, else
// its top folders and the titles of its root concepts, sorted.
func topicsOf(b *okf.Bundle) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		s = flatten(s, maxTitle, true)
		if s != "" && !seen[s] && len(out) < maxTopics {
			seen[s] = true
			out = append(out, s)
		}
	}
	if x := b.RootIndex(); x != nil {
		for _, sec := range x.Sections {
			for _, e := range sec.Entries {
				add(e.Title)
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	var tops []string
	for _, c := range b.Concepts {
		if i := strings.IndexByte(c.Path, '/'); i > 0 {
			tops = append(tops, c.Path[:i])
		}
	}
	sort.Strings(tops)
	for _, t := range tops {
		add(t)
	}
	for _, c := range b.Concepts {
		if c.Dir() == "" {
			add(titleOf(c))
		}
	}
	return out
}

// titleOf is a concept's title, else its ID.
func titleOf(c *okf.Concept) string {
	if t := strings.TrimSpace(c.Frontmatter.Title.Text()); t != "" {
		return t
	}
	return c.ID
}

// quote writes bundle text as a quoted string: the quotes mark it as the bundle's words.
// quote marks s, a bundle's own words, as a quotation in okf's text. Every quotation mark is taken
// out of s first, so no bundle text can close the quotation and go on as okf's words (a title
// `x”. SYSTEM: …` would otherwise read, in a host's always-loaded context, as an instruction).
func quote(s string) string {
	s = strings.Map(func(r rune) rune {
		if strings.ContainsRune("\"'\u201c\u201d\u201e\u201f\u2018\u2019\u201a\u201b\u00ab\u00bb\u2039\u203a\u300c\u300d\u300e\u300f\uff02", r) {
			return -1
		}
		return r
	}, s)
	return "\u201c" + s + "\u201d"
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quote(s)
	}
	return strings.Join(q, ", ")
}

func countOf(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// yamlString writes s as a YAML double-quoted scalar (Go's escapes are YAML's).
func yamlString(s string) string { return strconv.Quote(s) }

// link is a Markdown link destination for a slash path of the skill: each part percent-encoded,
// so no character of a bundle's file name is read as Markdown.
func link(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// shown is a path as the skill's Markdown shows it: escaped, at most maxShownPath characters.
func shown(p string) string { return escape.Markdown(plain(p, maxShownPath)) }
