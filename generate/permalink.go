package generate

import (
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	_ "time/tzdata" // Jekyll's timezone: the same zones, and so the same URLs, on every machine

	"github.com/okf-tools/okf/okf"
	"go.yaml.in/yaml/v3"
)

// The engines whose URLs are built from the post's place in the site, not a template: each takes
// a post and what DetectSite found, and returns the site-relative path ("/…") the engine
// publishes the post at, or "" to fall back to the URL template. They run only when the site's
// folder is known and --url is not given.
var siteURLs = map[string]func(p *Post, s *Site) string{
	"jekyll":    jekyllURL,
	"zola":      zolaURL,
	"eleventy":  eleventyURL,
	"nuxt":      nuxtURL,
	"vitepress": vitepressURL,
	"hugo":      hugoURL,
}

// siteSkip says why a file the engine does not publish is not a post ("" when it is one):
// Jekyll reads no folder starting with "_" but _posts, _drafts and its collections, and leaves
// out node_modules and vendor (its default exclude); a post in _drafts is a draft.
//
// Eleventy ignores node_modules and its _includes, _data and _site (output) folders (the
// defaults; a JavaScript config that moves them is not read). Hugo, Zola and Nuxt Content read
// pages from their content folders only: with the site's folder known, a file outside them (a
// theme's exampleSite, archetypes) is not a post.
func siteSkip(engine string, p *Post, s *Site) string {
	switch engine {
	case "eleventy":
		segs := strings.Split(siteRel(p, s), "/")
		for _, seg := range segs[:len(segs)-1] {
			switch seg {
			case "node_modules", "_includes", "_data", "_site":
				return fmt.Sprintf("in %s/, which Eleventy does not publish", seg)
			}
		}
		return ""
	case "hugo", "zola", "nuxt":
		if s.Root == "" {
			return ""
		}
		dirs := []string{"content"}
		if engine == "hugo" {
			dirs = nil
			for _, d := range s.HugoContent {
				dirs = append(dirs, d.Dir)
			}
			if len(dirs) == 0 {
				dirs = []string{"content"}
			}
		}
		for _, d := range dirs {
			if _, ok := contentRel(p, s, d); ok {
				return ""
			}
		}
		return fmt.Sprintf("outside the site's content folder (%s/), which the engine does not read as pages", dirs[0])
	}
	if engine != "jekyll" || s.Root == "" {
		return ""
	}
	segs := strings.Split(siteRel(p, s), "/")
	for _, seg := range segs[:len(segs)-1] {
		c, collection := s.Jekyll.collections()[strings.TrimPrefix(seg, "_")]
		collection = collection && strings.HasPrefix(seg, "_")
		switch {
		case seg == "_drafts":
			p.Draft = true
		case seg == "_posts":
			if !jekyllPostNameRE.Get().MatchString(path.Base(p.Path)) {
				return "in _posts/ without a dated name (YYYY-MM-DD-title), which Jekyll does not publish"
			}
		case seg == "node_modules" || seg == "vendor":
			return fmt.Sprintf("in %s/, which Jekyll leaves out", seg)
		case collection && !c.Output:
			return fmt.Sprintf("in the collection %s, which Jekyll does not publish (no output: true)", seg)
		case strings.HasPrefix(seg, "_") && !collection:
			return fmt.Sprintf("in %s/, which Jekyll does not publish", seg)
		}
	}
	return ""
}

// jekyllPostNameRE is the file name Jekyll reads as a post in _posts (Document's DATE_FILENAME_MATCHER).
var jekyllPostNameRE = &lazyRegexp{Expr: `^\d{2,4}-\d{1,2}-\d{1,2}-.+\.[^.]+$`}

func (j *jekyllConfig) collections() map[string]jekyllCollection {
	if j == nil {
		return nil
	}
	return j.Collections
}

// siteRel is the post's file path relative to the site's folder.
func siteRel(p *Post, s *Site) string {
	if s.PostsRel == "" || s.PostsRel == "." {
		return p.Path
	}
	return path.Join(s.PostsRel, p.Path)
}

// stem is the site-relative path without extension and without a final "index" (a page bundle
// or folder index is its folder); "" for the site's own index.
func stem(rel string) string {
	s := trimPostExt(rel)
	if path.Base(s) == "index" {
		s = path.Dir(s)
	}
	if s == "." {
		return ""
	}
	return s
}

// contentRel is the post's path relative to dir below the site's folder (Hugo's, Zola's and Nuxt
// Content's content/), ok false when the post is not below it.
func contentRel(p *Post, s *Site, dir string) (string, bool) {
	rel := siteRel(p, s)
	if !strings.HasPrefix(rel, dir+"/") {
		return "", false
	}
	return strings.TrimPrefix(rel, dir+"/"), true
}

// slugify is the common default of the engines (Zola's slugify, Eleventy's slugify filter,
// Jekyll's default mode): lowercase, every run of characters other than letters and digits
// becomes "-", and "-" is trimmed from the ends. Letters keep their accents (gen does not
// transliterate; Zola's and Eleventy's defaults do, so give such posts a slug).
func slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	return b.String()
}

// hugoURL: a post below content/ is published at /<its path below content>/ (the section and the
// slug), unless it names its own url.
func hugoURL(p *Post, s *Site) string {
	if p.Permalink != "" {
		return ""
	}
	dirs := s.HugoContent
	if len(dirs) == 0 {
		dirs = []hugoContent{{Dir: "content"}}
	}
	for _, d := range dirs {
		rel, ok := contentRel(p, s, d.Dir)
		if !ok {
			continue
		}
		if r, prefix, _, ok := translation(p, s, rel); ok {
			rel = r
			if d.Prefix == "" {
				d.Prefix = prefix
			}
		}
		sections := strings.Split(path.Dir(stem(rel)), "/")
		var u string
		if pattern := s.HugoPermalinks[sections[0]]; pattern != "" && sections[0] != "." {
			u = hugoPermalink(pattern, p, rel, sections)
		} else {
			// The path below the content folder; a frontmatter slug replaces its last part.
			below := stem(rel)
			if slug := strings.Trim(path.Clean("/"+p.fieldText("slug")), "/"); slug != "" {
				below = path.Join(path.Dir(below), slug)
			}
			u = "/" + strings.Trim(below, "/") + "/"
		}
		u = hugoMakePath(u, !s.HugoKeepCase)
		if d.Prefix != "" {
			u = "/" + d.Prefix + u
		}
		return u
	}
	return ""
}

// hugoPermalink expands a Hugo permalink pattern ([permalinks] in the site config) for a page:
// the date tokens from its date, :section(s) from its folders below content/, :title and :slug
// (its slug, else its title) urlized, :filename and :contentbasename from its file (a page
// bundle's folder).
func hugoPermalink(pattern string, p *Post, rel string, sections []string) string {
	t := p.PublishedAt
	file := path.Base(stem(rel))
	slug := p.fieldText("slug")
	val := map[string]string{
		"year": fmt.Sprintf("%04d", t.Year()), "month": fmt.Sprintf("%02d", int(t.Month())), "monthname": t.Format("January"),
		"day": fmt.Sprintf("%02d", t.Day()), "weekday": strconv.Itoa(int(t.Weekday())), "weekdayname": t.Format("Monday"),
		"yearday": strconv.Itoa(t.YearDay()), "section": sections[0], "sections": strings.Join(sections, "/"),
		"title": hugoUrlize(p.Title), "filename": file, "contentbasename": file,
	}
	val["slug"], val["slugorfilename"], val["slugorcontentbasename"] = hugoUrlize(p.Title), file, file
	if slug != "" {
		val["slug"], val["slugorfilename"], val["slugorcontentbasename"] = slug, slug, slug
	}
	out := hugoTokenRE.Get().ReplaceAllStringFunc(pattern, func(m string) string {
		if v, ok := val[m[1:]]; ok {
			return v
		}
		return m
	})
	for strings.Contains(out, "//") {
		out = strings.ReplaceAll(out, "//", "/")
	}
	return "/" + strings.TrimLeft(out, "/")
}

// hugoMakePath is Hugo's path sanitizing (paths.MakePathSanitized): spaces and runs of "-"
// become one "-", characters other than letters, marks, digits and ./\_#+~@ (and %XX escapes)
// are dropped, and the path is lowercased unless disablePathToLower is set.
func hugoMakePath(s string, lower bool) string {
	if lower {
		s = strings.ToLower(s)
	}
	var b strings.Builder
	hyphen := false
	for i, r := range s {
		switch {
		case r == '-' || unicode.IsSpace(r):
			hyphen = true
			continue
		case unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) || strings.ContainsRune("./\\_#+~@", r),
			r == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
		default:
			continue
		}
		if hyphen && b.Len() > 0 {
			b.WriteByte('-')
		}
		hyphen = false
		b.WriteRune(r)
	}
	if hyphen && b.Len() > 0 {
		b.WriteByte('-')
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

var hugoTokenRE = &lazyRegexp{Expr: `:[a-z]+`}

// hugoUrlize is Hugo's urlize for a path part: lowercased (Hugo's default), spaces to "-",
// characters other than letters, digits, "-", "_" and "." dropped.
func hugoUrlize(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		switch {
		case unicode.IsSpace(r):
			b.WriteByte('-')
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.':
			b.WriteRune(r)
		}
	}
	return b.String()
}

var zolaPathDateRE = &lazyRegexp{Expr: `(?:^|/)(\d{4})[/-](\d{2})[/-](\d{2})(?:/|-|_|$)`}

// zolaURL: `path` in the frontmatter is the whole path; otherwise the section's path below
// content/ and the page's slug (frontmatter slug, else the file name without its date), each
// slugified. Pages end in "/".
func zolaURL(p *Post, s *Site) string {
	if zp := strings.Trim(p.fieldText("path"), "/"); zp != "" {
		return "/" + zp + "/"
	}
	rel, ok := contentRel(p, s, "content")
	if !ok {
		return ""
	}
	prefix, base := "", p.Slug
	if r, pre, b, ok := translation(p, s, rel); ok {
		rel, prefix, base = r, pre, b
	}
	dir := path.Dir(stem(rel))
	var parts []string
	if dir != "." {
		for _, d := range strings.Split(dir, "/") {
			parts = append(parts, slugify(d))
		}
	}
	slug := slugify(base)
	if fs := p.fieldText("slug"); fs != "" {
		slug = slugify(fs)
	}
	parts = append(parts, slug)
	if prefix != "" {
		parts = append([]string{prefix}, parts...)
	}
	return "/" + strings.Join(parts, "/") + "/"
}

// translation reads a translation by file name (Hugo, Zola): rel (below the content folder)
// whose name ends in .<lang> before its extension, lang one the configuration declares. It
// returns rel without the language, the language's URL prefix and the untranslated slug; the
// post's slug (its concept's name) becomes the
// untranslated name, with "-<lang>" for a language other than the default (hello.fr.md is the
// concept hello-fr; index.fr.md is its bundle's).
func translation(p *Post, s *Site, rel string) (string, string, string, bool) {
	if len(s.Languages) == 0 {
		return rel, "", "", false
	}
	ext := postExt(rel)
	noExt := strings.TrimSuffix(rel, ext)
	i := strings.LastIndexByte(noExt, '.')
	if i < 0 || strings.Contains(noExt[i:], "/") {
		return rel, "", "", false
	}
	lang := strings.ToLower(noExt[i+1:])
	prefix, ok := s.Languages[lang]
	if !ok {
		return rel, "", "", false
	}
	if p.fieldText("slug") == "" {
		pp := p.Path
		if j := strings.LastIndexByte(trimPostExt(pp), '.'); j >= 0 {
			pp = pp[:j] + postExt(pp)
		}
		slug, urlPath, _ := nameParts(pp, Engines[s.Engine])
		p.Slug, p.URLPath = slug, urlPath
	}
	base := p.Slug
	if lang != s.DefaultLang {
		p.Slug += "-" + lang
	}
	return noExt[:i] + ext, prefix, base, true
}

// eleventyURL: Eleventy's default permalink, the file's path below the input folder with its
// name as written (a date in it stays: only page.fileSlug drops it), as a folder (/blog/hello/);
// index.md and a file named like its folder (blog/x/x.md) are the folder (/blog/x/). The input
// folder is the project's folder (Eleventy's documented default; a JavaScript config that moves
// it is not read: use --url). A frontmatter permalink is used when it is a plain path or uses only
// page.fileSlug, page.filePathStem or `title | slugify`.
func eleventyURL(p *Post, s *Site) string {
	rel := siteRel(p, s)
	if pl := p.Permalink; pl != "" {
		expanded, ok := eleventyPermalink(pl, p, p.Slug, "/"+trimPostExt(rel))
		if ok {
			return "/" + strings.TrimLeft(expanded, "/")
		}
		p.Warnings = append(p.Warnings, PostProblem{Pos: posOf(p, "permalink"), Message: fmt.Sprintf("permalink %q is a template gen cannot evaluate; the default URL is used (set --url)", pl)})
	}
	st := stem(rel)
	if dir := path.Dir(st); dir != "." && path.Base(dir) == path.Base(st) {
		st = dir // Eleventy's same-name folder rule: dir/x/x.md is dir/x/
	}
	if st == "" {
		return "/"
	}
	return "/" + st + "/"
}

var eleventyVarRE = &lazyRegexp{Expr: `\{\{-?\s*([^{}]*?)\s*-?\}\}`}

func eleventyPermalink(pl string, p *Post, fileSlug, filePathStem string) (string, bool) {
	if strings.Contains(pl, "{%") {
		return "", false
	}
	ok := true
	out := eleventyVarRE.Get().ReplaceAllStringFunc(pl, func(m string) string {
		expr := strings.Join(strings.Fields(eleventyVarRE.Get().FindStringSubmatch(m)[1]), " ")
		switch expr {
		case "page.fileSlug":
			return fileSlug
		case "page.filePathStem":
			return filePathStem
		case "title | slugify", "title | slug", "title|slugify", "title|slug":
			return slugify(p.Title)
		}
		ok = false
		return ""
	})
	if strings.HasSuffix(out, "/index.html") {
		out = strings.TrimSuffix(out, "index.html")
	}
	return out, ok
}

var nuxtPrefixRE = &lazyRegexp{Expr: `^\d+\.`}

// nuxtURL: Nuxt Content's path, the file's path below content/ with the numeric ordering
// prefixes (36.v4.md), the extension and a final index dropped, no trailing slash.
func nuxtURL(p *Post, s *Site) string {
	rel, ok := contentRel(p, s, "content")
	if !ok {
		return ""
	}
	var parts []string
	for _, seg := range strings.Split(trimPostExt(rel), "/") {
		parts = append(parts, nuxtPart(seg))
	}
	if parts[len(parts)-1] == "index" {
		parts = parts[:len(parts)-1]
	}
	return "/" + strings.Join(parts, "/")
}

// nuxtPart is one part of a Nuxt Content path: its numeric ordering prefix dropped, then
// slugified and lowercased (respectPathCase defaults to false): spaces become "-", characters
// slugify removes are dropped. Letters keep their accents (slugify would transliterate them).
func nuxtPart(seg string) string {
	seg = nuxtPrefixRE.Get().ReplaceAllString(seg, "")
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(strings.TrimSpace(seg)) {
		switch {
		case unicode.IsSpace(r) || r == '-':
			hyphen = true
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("$*_+~.()'\"!:@", r):
		default:
			continue
		}
		if hyphen && b.Len() > 0 {
			b.WriteByte('-')
		}
		hyphen = false
		b.WriteRune(r)
	}
	return b.String()
}

// nuxtPartial reports whether a file is a Nuxt Content partial: a part of its path starts with "_".
func nuxtPartial(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if strings.HasPrefix(seg, "_") {
			return true
		}
	}
	return false
}

// vitepressURL: VitePress publishes a page at its path below the docs folder (the folder of
// .vitepress) with .html, a folder's index.md at the folder (cleanUrls is off by default).
func vitepressURL(p *Post, s *Site) string {
	rel := siteRel(p, s)
	noExt := trimPostExt(rel)
	if path.Base(noExt) == "index" {
		if d := path.Dir(noExt); d != "." {
			return "/" + d + "/"
		}
		return "/"
	}
	return "/" + noExt + ".html"
}

// jekyllConfig is what gen reads of a Jekyll _config.yml: the site's permalink style, the
// front matter defaults that set permalinks, and the collections.
type jekyllConfig struct {
	Permalink   string
	Defaults    []jekyllDefault
	Collections map[string]jekyllCollection // by label
	// Timezone is the site's `timezone` (UTC when unset or unknown, as on GitHub Pages).
	Timezone *time.Location
}

// jekyllCollection is a collection of _config.yml: its permalink ("" when it sets none) and
// whether Jekyll writes its documents out (`output`, default false).
type jekyllCollection struct {
	Permalink string
	Output    bool
}

type jekyllDefault struct {
	Path, Type, Permalink string
}

func parseJekyllConfig(conf map[string]any) *jekyllConfig {
	j := &jekyllConfig{Collections: map[string]jekyllCollection{}}
	j.Permalink, _ = conf["permalink"].(string)
	j.Timezone = time.UTC
	if tz, _ := conf["timezone"].(string); tz != "" {
		if loc, err := time.LoadLocation(tz); err == nil {
			j.Timezone = loc
		}
	}
	if ds, ok := conf["defaults"].([]any); ok {
		for _, d := range ds {
			m, _ := d.(map[string]any)
			scope, _ := m["scope"].(map[string]any)
			values, _ := m["values"].(map[string]any)
			pl, _ := values["permalink"].(string)
			if pl == "" {
				continue
			}
			p, _ := scope["path"].(string)
			t, _ := scope["type"].(string)
			j.Defaults = append(j.Defaults, jekyllDefault{Path: strings.Trim(p, "/"), Type: t, Permalink: pl})
		}
	}
	switch cs := conf["collections"].(type) {
	case map[string]any:
		for k, v := range cs {
			m, _ := v.(map[string]any)
			pl, _ := m["permalink"].(string)
			out, _ := m["output"].(bool)
			j.Collections[k] = jekyllCollection{Permalink: pl, Output: out}
		}
	case []any:
		for _, v := range cs {
			if k, ok := v.(string); ok {
				j.Collections[k] = jekyllCollection{}
			}
		}
	}
	return j
}

// jekyllStyles are Jekyll's built-in permalink styles.
var jekyllStyles = map[string]string{
	"date":     "/:categories/:year/:month/:day/:title:output_ext",
	"pretty":   "/:categories/:year/:month/:day/:title/",
	"ordinal":  "/:categories/:year/:y_day/:title:output_ext",
	"weekdate": "/:categories/:year/W:week/:short_day/:title:output_ext",
	"none":     "/:categories/:title:output_ext",
}

var jekyllDateRE = &lazyRegexp{Expr: `:(year|month|i_month|day|i_day|short_year|hour|minute|second|y_day|short_month|long_month|short_day|long_day|week)`}

var jekyllPlaceholderRE = &lazyRegexp{Expr: `:([a-z_]+)`}

// jekyllURL builds a post's URL as Jekyll does: the permalink pattern from the post's own
// frontmatter, else the last matching front matter default (longest scope path), else its
// collection's, else the site's `permalink` (default "date"), with the placeholders filled from
// the post's date, file name, slug and categories (the folders above _posts and the frontmatter
// `categories`/`category`, lowercased).
func jekyllURL(p *Post, s *Site) string {
	rel := siteRel(p, s)
	segs := strings.Split(rel, "/")
	collection, inner := "posts", p.Path
	var cats []string
	j := s.Jekyll
	if j == nil {
		j = &jekyllConfig{}
	}
	found := s.Root == "" // an unknown site: the posts folder is taken to be _posts
	for i, seg := range segs[:len(segs)-1] {
		if seg == "_posts" {
			cats, inner, found = segs[:i], strings.Join(segs[i+1:], "/"), true
			break
		}
		if _, ok := j.Collections[strings.TrimPrefix(seg, "_")]; ok && strings.HasPrefix(seg, "_") {
			collection, inner, found = seg[1:], strings.Join(segs[i+1:], "/"), true
			break
		}
	}
	if !found && p.Permalink == "" {
		// A page (neither in _posts nor in a collection): its path, as a folder with a pretty
		// permalink style, else with .html; index.md is its folder.
		st := j.Permalink
		pretty := st == "pretty" || strings.HasSuffix(st, "/")
		noExt := trimPostExt(rel)
		switch {
		case path.Base(noExt) == "index":
			return "/" + strings.TrimPrefix(path.Dir(noExt)+"/", "./")
		case pretty:
			return "/" + noExt + "/"
		}
		return "/" + noExt + ".html"
	}
	cats = append(append([]string(nil), cats...), p.Categories...)
	pattern := p.Permalink
	if pattern == "" {
		best := -1
		for _, d := range j.Defaults {
			if (d.Path == "" || rel == d.Path || strings.HasPrefix(rel, d.Path+"/")) && (d.Type == "" || d.Type == collection) && len(d.Path) >= best {
				pattern, best = d.Permalink, len(d.Path)
			}
		}
	}
	style := j.Permalink
	if style == "" {
		style = "date"
	}
	if st, ok := jekyllStyles[style]; ok {
		style = st
	}
	if pattern == "" && collection != "posts" {
		pattern = j.Collections[collection].Permalink
		if pattern == "" {
			pattern = "/:collection/:path:output_ext"
			if strings.HasSuffix(style, "/") {
				pattern = "/:collection/:path/"
			}
		}
	}
	if pattern == "" {
		pattern = style
	}
	if st, ok := jekyllStyles[pattern]; ok {
		pattern = st
	}
	t := p.PublishedAt
	if p.publishedOffset {
		loc := j.Timezone
		if loc == nil {
			loc = time.UTC
		}
		t = t.In(loc) // Jekyll's Utils.parse_date: Time.parse(date).localtime, in the site's zone
	}
	if t.IsZero() && jekyllDateRE.Get().MatchString(pattern) {
		// Jekyll dates such a document by the build's time: no URL can be known.
		p.NotPost = fmt.Sprintf("without a date, and its permalink %q needs one (Jekyll would use the build's time)", pattern)
		return ""
	}
	name := p.Slug
	if fs := p.fieldText("slug"); fs != "" {
		name = fs
	}
	lower := make([]string, 0, len(cats))
	seen := map[string]bool{}
	for _, c := range cats {
		if c = strings.ToLower(c); c != "" && !seen[c] {
			seen[c] = true
			lower = append(lower, c)
		}
	}
	val := map[string]string{
		"year": fmt.Sprintf("%04d", t.Year()), "month": fmt.Sprintf("%02d", int(t.Month())), "i_month": strconv.Itoa(int(t.Month())),
		"day": fmt.Sprintf("%02d", t.Day()), "i_day": strconv.Itoa(t.Day()), "short_year": fmt.Sprintf("%02d", t.Year()%100),
		"hour": fmt.Sprintf("%02d", t.Hour()), "minute": fmt.Sprintf("%02d", t.Minute()), "second": fmt.Sprintf("%02d", t.Second()),
		"y_day": fmt.Sprintf("%03d", t.YearDay()), "short_month": t.Format("Jan"), "long_month": t.Format("January"),
		"short_day": t.Format("Mon"), "long_day": t.Format("Monday"),
		"title": jekyllPretty(name), "slug": slugify(name), "name": slugify(path.Base(trimPostExt(p.Path))),
		"path": trimPostExt(inner), "basename": path.Base(trimPostExt(p.Path)), "collection": collection,
		"categories": strings.Join(lower, "/"), "output_ext": ".html",
	}
	_, week := t.ISOWeek()
	val["week"] = fmt.Sprintf("%02d", week)
	var sc []string
	for _, c := range lower {
		sc = append(sc, slugify(c))
	}
	val["slugified_categories"] = strings.Join(sc, "/")
	keys := make([]string, 0, len(val))
	for k := range val {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool { return len(keys[a]) > len(keys[b]) }) // :i_month before :month
	out := jekyllPlaceholderRE.Get().ReplaceAllStringFunc(pattern, func(m string) string {
		k := m[1:]
		for _, key := range keys {
			if strings.HasPrefix(k, key) {
				return val[key] + k[len(key):]
			}
		}
		return m
	})
	for strings.Contains(out, "//") {
		out = strings.ReplaceAll(out, "//", "/")
	}
	return "/" + strings.TrimLeft(out, "/")
}

// jekyllPretty is Jekyll's slugify in "pretty" mode keeping case (what :title uses): runs of
// characters other than letters, digits and ._~!$&'()+,;=@ become "-".
func jekyllPretty(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("._~!$&'()+,;=@", r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	return b.String()
}

// fieldText is a top-level frontmatter string ("" when absent or not a string).
func (p *Post) fieldText(key string) string {
	if n := p.fields[strings.ToLower(key)]; n != nil && n.Kind == yaml.ScalarNode && n.Tag != "!!null" {
		return strings.TrimSpace(n.Value)
	}
	return ""
}

// posOf is the position of a frontmatter key of p.
func posOf(p *Post, key string) okf.Position {
	return okf.Position{Path: p.Path, Line: int32(p.keyLine[key]), Col: 1}
}

// zolaDate reads a date from Zola's `path` (2024/01/02/slug).
func zolaDate(zp string) (time.Time, bool) {
	m := zolaPathDateRE.Get().FindStringSubmatch(zp)
	if m == nil {
		return time.Time{}, false
	}
	t, err := time.Parse("2006-01-02", m[1]+"-"+m[2]+"-"+m[3])
	return t, err == nil
}
