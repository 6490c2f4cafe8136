package generate

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/BurntSushi/toml"
	"github.com/okf-tools/okf/okf"
	"go.yaml.in/yaml/v3"
)

// Post is one blog post read from the content repository: the frontmatter fields gen uses and its
// text with MDX removed.
type Post struct {
	// Path is the slash path of the file below the posts directory.
	Path string
	// Slug names the post in a concept map and in {slug}: the frontmatter `slug`, else the file name
	// without its extension (the folder's name for an index file), without a leading date when the
	// engine moves dates into URLs.
	Slug string
	// URLPath is {path}: the post's folder path and slug as its engine builds the URL.
	URLPath string
	// Permalink is the URL or site-relative path the post gives itself (`permalink`, Hugo's
	// `url`); it wins over the URL template.
	Permalink string
	// Title, Description are the frontmatter values as text ("" when absent).
	Title, Description string
	// Author is an author's name; AuthorKeys are keys of an authors file still to resolve.
	Author     string
	AuthorKeys []string
	Tags       []string
	Draft      bool
	// HasFrontmatter is false for a file without a frontmatter block: --all does not take it.
	HasFrontmatter bool
	// Published is the publish date (zero when unknown).
	Published time.Time
	// Date is the post's last change (sources.last_modified): the update date, else the publish
	// date, else the date in the file name, else the last commit (set by the caller); zero when
	// none is known. DateFrom says where it came from.
	Date     time.Time
	DateFrom string
	// Text is the body with MDX removed (StripMDX).
	Text string
	// Warnings are things about the post a person should know; the post is still used.
	Warnings []PostProblem
	// Authors are every person `author`/`authors` names (Author is the first); AuthorNotes the
	// affiliation or link written beside each, for the byline.
	Authors []string
	// Categories are the frontmatter `categories`/`category` (Jekyll's :categories).
	Categories []string
	// PublishedAt is Published in the offset the post wrote it in (Jekyll's :year/:month/:day).
	PublishedAt time.Time
	// publishedOffset is true when the publish date was written with an offset (a wall clock
	// without one is the site's own time).
	publishedOffset bool
	// NotPost says why a file is a listing or pagination page, not a post ("" for a post).
	NotPost string
	// EnginePath is the site-relative path the engine publishes the post at ("" when the URL
	// template builds it).
	EnginePath string

	fields        map[string]*yaml.Node
	keyLine       map[string]int
	authorEntries []authorEntry
}

// PostProblem is a post that could not be read (the run goes on without it), or a warning about
// one.
type PostProblem struct {
	Pos     okf.Position
	Message string
}

// String renders the problem as path:line:col: message.
func (p PostProblem) String() string { return p.Pos.String() + ": " + p.Message }

// The frontmatter date fields, in the order they are read (keys compare case-insensitively). The
// first publish field that holds a date is the publish date; the first update field that holds one
// is the update date. Docusaurus's `last_update: {date: …}` counts as an update field.
var (
	PublishDateKeys = []string{"date", "pubDate", "publishDate", "published", "publishedAt", "created", "createdAt"}
	UpdateDateKeys  = []string{"lastmod", "updated", "updatedDate", "updatedAt", "lastUpdated", "last_update", "modified", "last_modified", "dateModified"}
)

// Posts is what ReadPosts found.
type Posts struct {
	// BySlug holds every readable post by slug (the first by path when several share one; Find
	// and AllNames tell them apart).
	BySlug map[string]*Post
	bySlug map[string][]*Post
	// List is every readable post, sorted by path.
	List []*Post
	// Problems are files that could not be read as posts; Broken maps the slug their file name
	// gives to their path, so a concept map naming one is told why it is missing.
	Problems []PostProblem
	Broken   map[string]string
	// NotPosts are the listing and pagination pages (path → why), which are never posts.
	NotPosts map[string]string

	// byFile maps each file path byFilePath accepts to the first post of List it names, built on
	// first use for the List of byFileLen posts: one lookup per concept, not a scan of List.
	byFile    map[string]*Post
	byFileLen int
}

// postExts are the file extensions of posts: MDX, and every Markdown extension Jekyll reads by
// default (markdown_ext: markdown, mkdown, mkdn, mkd, md).
var postExts = []string{".mdx", ".markdown", ".mkdown", ".mkdn", ".mkd", ".md"}

// postExt is the post extension name ends in, "" when it is not a post file.
func postExt(name string) string {
	for _, e := range postExts {
		if strings.HasSuffix(name, e) && len(name) > len(e) {
			return e
		}
	}
	return ""
}

// trimPostExt is p without its post extension.
func trimPostExt(p string) string { return strings.TrimSuffix(p, postExt(p)) }

// reindex rebuilds the slug maps after posts were taken out of List.
func (ps *Posts) reindex() {
	ps.BySlug, ps.bySlug, ps.byFile = map[string]*Post{}, map[string][]*Post{}, nil
	for _, p := range ps.List {
		if _, dup := ps.BySlug[p.Slug]; !dup {
			ps.BySlug[p.Slug] = p
		}
		ps.bySlug[p.Slug] = append(ps.bySlug[p.Slug], p)
	}
}

// byPath finds a post by its {path}.
func (ps *Posts) byPath(p string) *Post {
	p = strings.Trim(p, "/")
	for _, post := range ps.List {
		if post.URLPath == p {
			return post
		}
	}
	return nil
}

// byFileName finds a post whose file name (with or without extension) or path is name.
func (ps *Posts) byFileName(name string) *Post {
	for _, post := range ps.List {
		noExt := trimPostExt(post.Path)
		base := path.Base(noExt)
		if base == "index" {
			base = path.Base(path.Dir(noExt))
		}
		if name == post.Path || name == noExt || name == path.Base(post.Path) || name == base {
			return post
		}
	}
	return nil
}

// byFilePath finds the post whose file path below the posts folder is p: with its extension,
// without it, or (for an index file) its folder.
func (ps *Posts) byFilePath(p string) *Post {
	if ps.byFile == nil || ps.byFileLen != len(ps.List) {
		ps.byFile, ps.byFileLen = make(map[string]*Post, 2*len(ps.List)), len(ps.List)
		add := func(k string, post *Post) {
			if _, ok := ps.byFile[k]; !ok {
				ps.byFile[k] = post
			}
		}
		for _, post := range ps.List {
			noExt := trimPostExt(post.Path)
			add(post.Path, post)
			add(noExt, post)
			if path.Base(noExt) == "index" {
				add(path.Dir(noExt), post)
			}
		}
	}
	return ps.byFile[strings.Trim(p, "/")]
}

// Find resolves what a concept map names: a post's file path (with or without extension, an
// index file by its folder), else its slug when only one post has it, else its {path}. reason
// says why nothing was found.
func (ps *Posts) Find(key string) (post *Post, reason string) {
	if p := ps.byFilePath(key); p != nil {
		return p, ""
	}
	if same := ps.bySlug[key]; len(same) == 1 {
		return same[0], ""
	} else if len(same) > 1 {
		var paths []string
		for _, p := range same {
			paths = append(paths, fmt.Sprintf("%q", p.Path))
		}
		return nil, fmt.Sprintf("slug %q is used by %d posts (%s); name one by its path", key, len(same), strings.Join(paths, ", "))
	}
	if p := ps.byPath(key); p != nil {
		return p, ""
	}
	for p, why := range ps.NotPosts {
		if k := strings.Trim(key, "/"); k == p || k == trimPostExt(p) {
			return nil, fmt.Sprintf("%q is %s, not a post", p, why)
		}
	}
	return nil, missingReason(ps, key)
}

// AllNames names one concept per post for --all: its slug when no other post has that slug;
// otherwise the folders of its {path} and its slug joined by "-" (travel/hanoi.md and
// food/hanoi/index.md are travel-hanoi and food-hanoi), with -2, -3, … in path order should even those meet. It maps
// each name to its post's file path.
func (ps *Posts) AllNames() map[string]string {
	names := map[string]string{}
	taken := map[string]bool{}
	shared := map[string]int{} // slug → how many posts with frontmatter have it
	for _, p := range ps.List {
		if p.HasFrontmatter {
			shared[p.Slug]++
		}
	}
	var later []*Post
	for _, p := range ps.List {
		if !p.HasFrontmatter { // a README or notes file without frontmatter is not a post
			continue
		}
		if countWork != nil {
			*countWork++
		}
		if shared[p.Slug] == 1 {
			names[p.Slug], taken[p.Slug] = p.Path, true
			continue
		}
		later = append(later, p)
	}
	// next[base] is the first number worth trying for base: every one below it is taken (taken
	// only grows), so posts sharing a base do not try the numbers of the ones before them again.
	next := map[string]int{}
	for _, p := range later {
		dir := path.Dir(p.URLPath)
		base := p.Slug
		if dir != "." {
			base = strings.ReplaceAll(dir, "/", "-") + "-" + p.Slug
		}
		name := base
		if taken[name] {
			i := max(next[base], 2)
			for name = fmt.Sprintf("%s-%d", base, i); taken[name]; name = fmt.Sprintf("%s-%d", base, i) {
				if countWork != nil {
					*countWork++
				}
				i++
			}
			next[base] = i + 1
		}
		names[name], taken[name] = p.Path, true
	}
	return names
}

// PostFiles is how posts are found and read: a confined folder (see openPosts) or, in tests, any
// fs.FS.
type PostFiles interface {
	fs.FS
	// ReadPost returns a post file's bytes, refusing anything but a regular file of at most
	// MaxPostSize bytes.
	ReadPost(name string) ([]byte, error)
}

// ReadPosts reads every .md and .mdx file below the posts folder, keyed by slug. Hidden files and
// folders, README.md files and the engine's list pages are not posts. Posts that share a slug are
// all kept (see AllNames and Find).
func ReadPosts(files PostFiles, eng Engine) (*Posts, error) {
	var paths []string
	ps := &Posts{BySlug: map[string]*Post{}, bySlug: map[string][]*Post{}, Broken: map[string]string{}, NotPosts: map[string]string{}}
	err := fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return err
			}
			ps.Problems = append(ps.Problems, PostProblem{Pos: okf.Position{Path: p}, Message: err.Error()})
			return nil
		}
		name := d.Name()
		if p != "." && strings.HasPrefix(name, ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || postExt(name) == "" || isNotPost(name, eng) {
			return nil
		}
		if !d.Type().IsRegular() {
			ps.Problems = append(ps.Problems, PostProblem{Pos: okf.Position{Path: p}, Message: "not a regular file (a symbolic link, pipe or device); left out"})
			return nil
		}
		paths = append(paths, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	for _, p := range paths {
		src, err := files.ReadPost(p)
		if err != nil {
			ps.Problems = append(ps.Problems, PostProblem{Pos: okf.Position{Path: p}, Message: err.Error()})
			continue
		}
		post, prob := ParsePost(p, src, eng)
		if prob != nil {
			ps.Problems = append(ps.Problems, *prob)
			slug, _, _ := nameParts(p, eng)
			ps.Broken[slug] = p
			continue
		}
		if post.NotPost != "" {
			ps.NotPosts[p] = post.NotPost
			continue
		}
		if _, dup := ps.BySlug[post.Slug]; !dup {
			ps.BySlug[post.Slug] = post
		}
		ps.bySlug[post.Slug] = append(ps.bySlug[post.Slug], post)
		ps.List = append(ps.List, post)
	}
	return ps, nil
}

// isNotPost reports whether a file name is never a post: a README, or one of the engine's list
// pages.
func isNotPost(name string, eng Engine) bool {
	if strings.EqualFold(trimPostExt(name), "README") {
		return true
	}
	for _, l := range eng.ListPages {
		if name == l {
			return true
		}
	}
	return false
}

// The dates a file name may start with: YYYY-MM-DD then "-" or "/" (Jekyll, Eleventy, the
// default); Docusaurus's DATE_FILENAME_REGEX, where the separator is optional (2024-01-02_hello
// is _hello); Zola's, which also takes "_" and a time (Engine.NameDateTime).
var (
	nameDateRE           = &lazyRegexp{Expr: `^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[-/](.*))?$`}
	nameDateDocusaurusRE = &lazyRegexp{Expr: `^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[-/]?(.*))?$`}
	nameDateTimeRE       = &lazyRegexp{Expr: `^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:(?:T\d{2}:?\d{2}:?\d{2})?[-_/](.*))?$`}
)

var dateOffsetRE = &lazyRegexp{Expr: `(?:[zZ]|[+-]\d{2}(?::?\d{2})?)$`}

// nameDateREFor is the engine's file-name date.
func nameDateREFor(eng Engine) *lazyRegexp {
	switch {
	case eng.NameDateTime:
		return nameDateTimeRE
	case eng.DatePath:
		return nameDateDocusaurusRE
	}
	return nameDateRE
}

// nameParts reads a post's file path: the slug its name gives, the {path} it gives (before a
// frontmatter slug), and a date at the start of its file or folder name (Docusaurus's
// 2024-01-02-hello.md, 2024-01-02-hello/index.mdx and 2024/01/02/hello.md).
func nameParts(p string, eng Engine) (slug, urlPath string, date time.Time) {
	noExt := trimPostExt(p)
	if path.Base(noExt) == "index" && path.Dir(noExt) != "." {
		noExt = path.Dir(noExt)
	}
	// The date may start any part of the path: try each part boundary, first match wins.
	folder, rest := "", noExt
	for {
		if m := nameDateREFor(eng).Get().FindStringSubmatch(rest); m != nil {
			if t, err := time.Parse("2006-1-2", m[1]+"-"+m[2]+"-"+m[3]); err == nil {
				date = t.UTC()
				if eng.DatePath && m[4] != "" {
					slug = path.Base(m[4])
					urlPath = folder + fmt.Sprintf("%04d/%02d/%02d/", t.Year(), int(t.Month()), t.Day()) + m[4]
				} else if eng.StripDate && m[4] != "" {
					slug, urlPath = path.Base(m[4]), folder+m[4]
					if eng.PathKeepsDate {
						urlPath = noExt
					}
				}
				break
			}
		}
		i := strings.IndexByte(rest, '/')
		if i < 0 {
			break
		}
		folder, rest = folder+rest[:i+1], rest[i+1:]
	}
	if slug == "" {
		slug, urlPath = path.Base(noExt), noExt
	}
	if eng.NumericPrefix { // Nuxt Content's parts: 36.v4.md is v4, "01.Getting Started" getting-started
		parts := strings.Split(urlPath, "/")
		for i := range parts {
			parts[i] = nuxtPart(parts[i])
		}
		urlPath, slug = strings.Join(parts, "/"), nuxtPart(slug)
	}
	if eng.LowerPath {
		slug, urlPath = strings.ToLower(slug), strings.ToLower(urlPath)
	}
	return slug, urlPath, date
}

// ParsePost reads one post. p is its slash path below the posts folder.
func ParsePost(p string, src []byte, eng Engine) (*Post, *PostProblem) {
	post := &Post{Path: p}
	fields := map[string]*yaml.Node{}
	keyLine := map[string]int{}
	sp := okf.SplitFrontmatter(src)
	var tomlSrc []byte
	if bytes.HasPrefix(src, []byte("+++\n")) || bytes.HasPrefix(src, []byte("+++\r\n")) {
		// Hugo's TOML frontmatter: read as TOML, then as the YAML it would be.
		var body []byte
		var prob *PostProblem
		if tomlSrc, body, prob = splitTOML(p, src); prob != nil {
			return nil, prob
		}
		yml, prob := tomlAsYAML(p, tomlSrc)
		if prob != nil {
			return nil, prob
		}
		sp = okf.Split{Status: okf.FrontmatterOK, YAML: yml, Body: body, YAMLLine: 2}
	}
	switch sp.Status {
	case okf.Unterminated:
		return nil, &PostProblem{Pos: okf.Position{Path: p, Line: 1, Col: 1}, Message: "frontmatter never closes: expected a line with exactly ---"}
	case okf.FrontmatterOK:
		post.HasFrontmatter = true
		var doc yaml.Node
		if err := yaml.Unmarshal(sp.YAML, &doc); err != nil {
			return nil, &PostProblem{Pos: okf.Position{Path: p, Line: int32(sp.YAMLLine), Col: 1}, Message: "frontmatter is not valid YAML: " + err.Error()}
		}
		if len(doc.Content) > 0 {
			top := doc.Content[0]
			if top.Kind != yaml.MappingNode {
				return nil, &PostProblem{Pos: okf.Position{Path: p, Line: int32(sp.YAMLLine), Col: 1}, Message: "frontmatter is not a mapping of keys to values"}
			}
			for i := 0; i+1 < len(top.Content); i += 2 {
				k := strings.ToLower(top.Content[i].Value)
				if _, dup := fields[k]; !dup {
					fields[k] = top.Content[i+1]
					keyLine[k] = sp.YAMLLine + top.Content[i].Line - 1
				}
			}
		}
	}
	if tomlSrc != nil { // positions are the TOML key's own line
		for k := range keyLine {
			keyLine[k] = 0
		}
		for i, line := range strings.Split(string(tomlSrc), "\n") {
			if k, _, ok := strings.Cut(line, "="); ok {
				k = strings.ToLower(strings.Trim(strings.TrimSpace(k), `"'`))
				if _, known := keyLine[k]; known && keyLine[k] == 0 {
					keyLine[k] = i + 2
				}
			}
		}
	}
	post.fields, post.keyLine = fields, keyLine
	warn := func(key, format string, args ...any) {
		post.Warnings = append(post.Warnings, PostProblem{Pos: okf.Position{Path: p, Line: int32(keyLine[key]), Col: 1}, Message: fmt.Sprintf(format, args...)})
	}
	text := func(key string) string {
		if n := fields[key]; n != nil && n.Kind == yaml.ScalarNode && n.Tag != "!!null" {
			return strings.TrimSpace(n.Value)
		}
		return ""
	}
	mdx := strings.HasSuffix(p, ".mdx") || eng.MarkdownIsMDX
	switch n := fields["permalink"]; {
	case fields["pagination"] != nil:
		post.NotPost = "a listing page (it paginates)"
	case n != nil && n.Kind == yaml.ScalarNode && n.Tag == "!!bool" && strings.EqualFold(n.Value, "false"):
		post.NotPost = "not published (permalink: false)"
	case text("eleventyexcludefromcollections") == "true":
		post.NotPost = "left out of the collections (eleventyExcludeFromCollections)"
	case eng.Name == "nuxt" && nuxtPartial(p):
		post.NotPost = "a partial (a name starting with _), which Nuxt Content does not publish"
	case eng.Name == "jekyll" && isFalse(fields["published"]):
		post.NotPost = "not published (published: false)"
	}
	slug, urlPath, nameDate := nameParts(p, eng)
	post.Slug, post.URLPath = slug, urlPath
	// A slug is a path inside the site: "..", "." and empty parts are dropped (path.Clean from /).
	if s := strings.Trim(path.Clean("/"+text("slug")), "/"); s != "" {
		post.Slug = path.Base(s)
		if eng.SlugIsPath {
			post.URLPath = s
		} else if d := path.Dir(urlPath); d != "." {
			post.URLPath = d + "/" + s
		} else {
			post.URLPath = s
		}
	}
	for _, k := range []string{"permalink", "url"} {
		if v := text(k); v != "" && fields[k].Tag != "!!bool" && (k == "permalink" || eng.Name == "hugo") {
			post.Permalink = v
			break
		}
	}
	post.Title = CleanInline(text("title"), mdx)
	if post.Title == "" { // a title under another key (Eleventy's navigation), else the first heading
		for _, k := range []string{"headline", "heading"} {
			if post.Title = CleanInline(text(k), mdx); post.Title != "" {
				break
			}
		}
	}
	if nav := fields["eleventynavigation"]; post.Title == "" && nav != nil && nav.Kind == yaml.MappingNode {
		for _, k := range []string{"title", "key"} {
			if v, _ := mapGet(nav, k); v != nil && v.Kind == yaml.ScalarNode {
				if post.Title = CleanInline(v.Value, mdx); post.Title != "" {
					break
				}
			}
		}
	}
	post.Description = text("description")
	for _, k := range []string{"summary", "excerpt"} { // Hugo's summary, Jekyll's excerpt
		if post.Description == "" {
			post.Description = text(k)
		}
	}
	authorNode := fields["author"]
	if authorNode == nil {
		authorNode = fields["authors"]
	}
	if extra := fields["extra"]; authorNode == nil && extra != nil && extra.Kind == yaml.MappingNode { // Zola's [extra]
		if authorNode, _ = mapGet(extra, "author"); authorNode == nil {
			authorNode, _ = mapGet(extra, "authors")
		}
	}
	if authorNode != nil {
		post.Authors, post.AuthorKeys, post.authorEntries = readAuthorList(authorNode, eng.AuthorKeys)
		if len(post.authorEntries) > 0 && post.authorEntries[0].person() {
			post.Author = post.authorEntries[0].text
		}
	}
	post.Categories = append(listOf(fields["categories"], true), listOf(fields["category"], false)...)
	lists := [][]string{tagsOf(fields["tags"]), post.Categories, tagsOf(fields["keywords"])}
	if tax := fields["taxonomies"]; tax != nil && tax.Kind == yaml.MappingNode { // Zola's [taxonomies]
		for i := 1; i < len(tax.Content); i += 2 {
			lists = append(lists, tagsOf(tax.Content[i]))
		}
	}
	post.Tags = mergeTags(lists...)
	if len(post.Categories) > maxTags || len(post.Tags) > maxTags {
		post.Warnings = append(post.Warnings, PostProblem{Pos: okf.Position{Path: p, Line: 1, Col: 1},
			Message: fmt.Sprintf("%d tags and %d categories: the first %d are kept", len(post.Tags), len(post.Categories), maxTags)})
		post.Categories = post.Categories[:min(len(post.Categories), maxTags)]
		post.Tags = post.Tags[:min(len(post.Tags), maxTags)]
	}
	if n := fields["draft"]; n != nil && n.Kind == yaml.ScalarNode {
		post.Draft = n.Value == "true" || n.Value == "True" || n.Value == "TRUE"
	}
	dateOf := func(keys []string) (time.Time, string) {
		for _, key := range keys {
			key = strings.ToLower(key)
			n := fields[key]
			if n == nil {
				continue
			}
			if n.Kind == yaml.MappingNode { // Docusaurus last_update: {date: …, author: …}
				n, _ = mapGet(n, "date")
				if n == nil {
					continue
				}
			}
			if n.Kind != yaml.ScalarNode || n.Tag == "!!null" || strings.TrimSpace(n.Value) == "" {
				continue
			}
			switch strings.ToLower(strings.TrimSpace(n.Value)) {
			case "last modified", "created", "git last modified", "git created":
				continue // Eleventy's keywords for the file's own dates: git's date is used
			case "true", "false":
				if key == "published" {
					continue // Jekyll's published flag, not a date
				}
			}
			if t, ok := parseDate(n.Value); ok {
				return t, key
			}
			warn(key, "%s %q is not a date (expected YYYY-MM-DD or an RFC 3339 date-time); ignored", key, n.Value)
		}
		return time.Time{}, ""
	}
	pub, pubKey := dateOf(PublishDateKeys)
	upd, updKey := dateOf(UpdateDateKeys)
	post.Published, post.Date, post.DateFrom = pub, pub, "frontmatter "+pubKey
	if !pub.IsZero() {
		post.PublishedAt, _ = parseDateKeep(fields[pubKey].Value)
		v := strings.TrimSpace(fields[pubKey].Value)
		post.publishedOffset = strings.Contains(v, ":") && dateOffsetRE.Get().MatchString(v)
		if fields[pubKey].Kind == yaml.MappingNode || post.PublishedAt.IsZero() {
			post.PublishedAt = pub
		}
	}
	if pub.IsZero() && !nameDate.IsZero() {
		post.Published, post.PublishedAt, post.Date, post.DateFrom = nameDate, nameDate, nameDate, "file name"
	}
	if zp := text("path"); pub.IsZero() && nameDate.IsZero() && eng.Name == "zola" {
		if t, ok := zolaDate(zp); ok {
			post.Published, post.PublishedAt, post.Date, post.DateFrom = t, t, t, "frontmatter path"
		}
	}
	if !upd.IsZero() {
		if !post.Published.IsZero() && upd.Before(post.Published) {
			warn(updKey, "%s %s is before the publish date %s; ignored", updKey, FormatTime(upd), FormatTime(post.Published))
		} else {
			post.Date, post.DateFrom = upd, "frontmatter "+updKey
		}
	}
	if post.Date.IsZero() {
		post.DateFrom = ""
	}
	post.Text = StripMDX(string(sp.Body), mdx)
	return post, nil
}

// maxTOMLDepth bounds how deeply TOML frontmatter may nest arrays and tables: the TOML parser
// recurses once per level, so a post of nothing but "[" must be refused before it is parsed.
const maxTOMLDepth = 32

// splitTOML cuts a +++ TOML frontmatter block from a post.
func splitTOML(p string, src []byte) (toml, body []byte, prob *PostProblem) {
	rest := src[bytes.IndexByte(src, '\n')+1:]
	off := 0
	for off < len(rest) {
		end := bytes.IndexByte(rest[off:], '\n')
		line := rest[off:]
		if end >= 0 {
			line = rest[off : off+end]
		}
		if string(bytes.TrimRight(line, "\r")) == "+++" {
			next := len(rest)
			if end >= 0 {
				next = off + end + 1
			}
			return rest[:off], rest[next:], nil
		}
		if end < 0 {
			break
		}
		off += end + 1
	}
	return nil, nil, &PostProblem{Pos: okf.Position{Path: p, Line: 1, Col: 1}, Message: "TOML frontmatter never closes: expected a line with exactly +++"}
}

// tomlAsYAML reads TOML frontmatter and writes it as YAML, so the rest of the reading is the same.
func tomlAsYAML(p string, src []byte) ([]byte, *PostProblem) {
	depth, max := 0, 0
	for _, c := range src { // over-counts brackets inside strings: only odd posts are refused
		switch c {
		case '[', '{':
			depth++
			max = maxInt(max, depth)
		case ']', '}':
			depth--
		}
	}
	if max > maxTOMLDepth {
		return nil, &PostProblem{Pos: okf.Position{Path: p, Line: 2, Col: 1}, Message: fmt.Sprintf("TOML frontmatter nests deeper than %d levels; not read", maxTOMLDepth)}
	}
	var m map[string]any
	if _, err := toml.Decode(string(src), &m); err != nil {
		line := 2
		var pe toml.ParseError
		if errors.As(err, &pe) {
			line = 1 + pe.Position.Line
		}
		return nil, &PostProblem{Pos: okf.Position{Path: p, Line: int32(line), Col: 1}, Message: "frontmatter is not valid TOML: " + strings.ReplaceAll(err.Error(), "\n", " ")}
	}
	y, err := yaml.Marshal(m)
	if err != nil {
		return nil, &PostProblem{Pos: okf.Position{Path: p, Line: 2, Col: 1}, Message: "TOML frontmatter cannot be read: " + err.Error()}
	}
	return y, nil
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// parseDate reads a frontmatter date: RFC 3339 (with or without offset), a date alone, or the
// "2006-01-02 15:04:05 -0700" form Hugo and Jekyll write. Times without an offset are UTC.
func parseDate(s string) (time.Time, bool) {
	t, ok := parseDateKeep(s)
	return t.UTC(), ok
}

// parseDateKeep is parseDate keeping the offset the date was written in.
func parseDateKeep(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if len(s) >= 19 && s[10] == ' ' && s[4] == '-' { // "2024-01-02 10:00:00 +01:00"
		for _, l := range []string{"2006-01-02 15:04:05 -07:00", "2006-01-02 15:04:05 -0700", "2006-01-02 15:04:05"} {
			if t, err := time.Parse(l, s); err == nil {
				return t, true
			}
		}
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, true
	}
	if t, form := okf.ParseTimestamp(s); form == okf.Full || form == okf.DateOnly || form == okf.NoOffset {
		return t, true
	}
	for _, l := range []string{"2006-01-02 15:04:05 -0700", "2006-01-02 15:04:05 -07:00", "2006-01-02 15:04 -0700", "2006-01-02 15:04:05 -0700 MST",
		// What JavaScript's Date accepts and Astro's blog template writes (pubDate: 'Jul 08 2022'),
		// read as UTC.
		"Jan 02 2006", "Jan 2 2006", "Jan 2, 2006", "January 2, 2006", "January 2 2006", "2 January 2006", "2 Jan 2006", "2006/01/02", "2006/1/2"} {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// authorOf reads `author`: a name, a list of names (the first is used), or a mapping with `name`.
func authorOf(n *yaml.Node) string {
	if n == nil {
		return ""
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return ""
		}
		return strings.TrimSpace(n.Value)
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if a := authorOf(c); a != "" {
				return a
			}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i].Value; k == "name" || k == "id" {
				return authorOf(n.Content[i+1])
			}
		}
	}
	return ""
}

// listOf reads a list of strings, or one string (split at spaces when spaces is true: Jekyll's
// `categories: a b`).
func listOf(n *yaml.Node, spaces bool) []string {
	if n == nil {
		return nil
	}
	var out []string
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return nil
		}
		if spaces {
			return strings.Fields(n.Value)
		}
		if v := strings.TrimSpace(n.Value); v != "" {
			out = append(out, v)
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if c.Kind == yaml.ScalarNode && strings.TrimSpace(c.Value) != "" {
				out = append(out, strings.TrimSpace(c.Value))
			}
		}
	}
	return out
}

// isFalse reports whether a frontmatter value is the boolean false.
func isFalse(n *yaml.Node) bool {
	return n != nil && n.Kind == yaml.ScalarNode && n.Tag == "!!bool" && strings.EqualFold(strings.TrimSpace(n.Value), "false")
}

// maxTags bounds the tags and the categories one post keeps: no real post has more, and each is
// compared and written out.
const maxTags = 256

// mergeTags joins lists of tags, keeping the first spelling of each (compared case-insensitively),
// in one pass over a set.
func mergeTags(lists ...[]string) []string {
	var tags []string
	seen := map[string]bool{}
	for _, l := range lists {
		for _, t := range l {
			k := strings.ToLower(t)
			if !seen[k] {
				seen[k] = true
				tags = append(tags, t)
			}
		}
	}
	return tags
}

// tagsOf reads `tags`: a list of strings, or one comma-separated string.
func tagsOf(n *yaml.Node) []string {
	if n == nil {
		return nil
	}
	var raw []string
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag != "!!null" {
			raw = strings.Split(n.Value, ",")
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			switch c.Kind {
			case yaml.ScalarNode:
				raw = append(raw, c.Value)
			case yaml.MappingNode: // Docusaurus inline tags: {label: …, permalink: …}
				if l, _ := mapGet(c, "label"); l != nil && l.Kind == yaml.ScalarNode {
					raw = append(raw, l.Value)
				}
			}
		}
	}
	var tags []string
	seen := map[string]bool{}
	for _, t := range raw {
		t = strings.TrimSpace(t)
		if t != "" && !seen[t] {
			seen[t] = true
			tags = append(tags, t)
		}
	}
	return tags
}

var actorIDRE = &lazyRegexp{Expr: `[^\p{L}\p{N}._-]+`}

// Actor turns a post's author into an actor (§7): a value already in actor form (human:…,
// process:…, team:…, producer/version) is kept; a name becomes human:<id>, the name lowercased with
// runs of other characters replaced by "-" ("Ada Lovelace" is human:ada-lovelace). "" when there is
// nothing usable.
func Actor(author string) string {
	author = strings.TrimSpace(author)
	if author == "" {
		return ""
	}
	if okf.ClassifyActor(author) != okf.ActorUnknown {
		return author
	}
	id := strings.Trim(actorIDRE.Get().ReplaceAllString(strings.ToLower(author), "-"), "-._")
	if id == "" || !strings.ContainsFunc(id, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		return ""
	}
	return "human:" + id
}
