package generate

import (
	"fmt"
	"sort"
	"strings"
)

// Engine is a blog engine's conventions: where a post's URL comes from, whether .md posts are MDX,
// and how authors are named. The generic engine is plain Markdown/MDX with the URL {site}/{slug}.
type Engine struct {
	Name string
	// URL is the default URL template.
	URL string
	// MarkdownIsMDX is true when the engine compiles .md posts as MDX (import/export lines and
	// {expressions} are code, not text).
	MarkdownIsMDX bool
	// DatePath is true when a date at the start of a post's file or folder name moves into its
	// URL as YYYY/MM/DD and leaves the slug (Docusaurus: 2024-01-02-hello.md is /2024/01/02/hello).
	DatePath bool
	// SlugIsPath is true when a frontmatter slug replaces the whole {path} (Docusaurus, Astro);
	// otherwise it replaces the last part (Hugo and the others).
	SlugIsPath bool
	// LowerPath lowercases {path} (Astro's ids are slugified).
	LowerPath bool
	// AuthorKeys is true when `authors:` lists keys of an authors file rather than names.
	AuthorKeys bool
	// Authors are the default authors files or folders, relative to the posts folder, the first
	// that exists being used.
	Authors []string
	// ListPages are file names that are list pages, never posts (Hugo's _index.md).
	ListPages []string
	// StripDate drops a date at the start of a file or folder name from the slug and {path}
	// without moving it into the URL (Jekyll, Zola, Eleventy).
	StripDate bool
	// PathKeepsDate keeps the date in {path} when StripDate drops it from the slug (Eleventy: the
	// default permalink keeps the file name as written, only page.fileSlug drops the date).
	PathKeepsDate bool
	// NameDateTime accepts "_" after a file name's date, and a time (Zola:
	// 2024-01-02T10:00:00_hello.md); other engines take "-" or "/" only.
	NameDateTime bool
	// NumericPrefix drops "N." ordering prefixes from each part of the path (Nuxt Content).
	NumericPrefix bool
	// SiteAuthors are authors files relative to the site's folder (when DetectSite found it),
	// tried after Authors.
	SiteAuthors []string
}

// Engines are the engines gen knows, by name.
var Engines = map[string]Engine{
	"generic": {Name: "generic", URL: "{site}/{slug}"},
	"docusaurus": {Name: "docusaurus", URL: "{site}/blog/{path}", MarkdownIsMDX: true, DatePath: true, SlugIsPath: true,
		AuthorKeys: true, Authors: []string{"authors.yml", "authors.yaml"}},
	"hugo":   {Name: "hugo", URL: "{site}/posts/{path}/", ListPages: []string{"_index.md", "_index.mdx"}},
	"astro":  {Name: "astro", URL: "{site}/blog/{path}/", SlugIsPath: true, LowerPath: true, Authors: []string{"../authors"}},
	"nextjs": {Name: "nextjs", URL: "{site}/blog/{path}", AuthorKeys: true, Authors: []string{"../authors"}},
	"remix":  {Name: "remix", URL: "{site}/blog/{path}"},
	// The URLs of these are built from the post's place in the site (see siteURLs); the
	// templates are what is left when the site's folder is unknown.
	"jekyll": {Name: "jekyll", URL: "{site}/{path}.html", StripDate: true, SiteAuthors: []string{"_data/authors.yml", "_data/authors.yaml"}},
	"zola":   {Name: "zola", URL: "{site}/{path}/", StripDate: true, NameDateTime: true, ListPages: []string{"_index.md"}},
	"eleventy": {Name: "eleventy", URL: "{site}/{path}/", StripDate: true, PathKeepsDate: true,
		SiteAuthors: []string{"_data/authors.json", "_data/authors.yaml", "_data/authors.yml"}},
	"nuxt":      {Name: "nuxt", URL: "{site}/{path}", NumericPrefix: true},
	"gatsby":    {Name: "gatsby", URL: "{site}/{path}/"},
	"vitepress": {Name: "vitepress", URL: "{site}/{path}.html"},
}

// DefaultEngine is the engine when none is named.
const DefaultEngine = "generic"

// EngineNames lists the engines, sorted.
func EngineNames() []string {
	var names []string
	for n := range Engines {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// LookupEngine returns the named engine ("contentlayer" is nextjs, "11ty" eleventy,
// "nuxt-content" nuxt).
func LookupEngine(name string) (Engine, error) {
	if name == "" {
		name = DefaultEngine
	}
	switch name {
	case "contentlayer":
		name = "nextjs"
	case "11ty":
		name = "eleventy"
	case "nuxt-content":
		name = "nuxt"
	}
	e, ok := Engines[name]
	if !ok {
		return Engine{}, fmt.Errorf("engine %q: expected one of %s", name, strings.Join(EngineNames(), ", "))
	}
	return e, nil
}
