package generate

import (
	"strings"
	"testing"
)

func actionsOf(p *Plan) map[string]string {
	m := map[string]string{}
	for _, a := range p.Actions {
		got := a.Kind.String()
		if a.Kind == Skipped {
			got += ": " + a.Reason
		}
		m[a.Name] = got
	}
	return m
}

func fileOf(p *Plan, path string) string {
	for _, f := range p.Files {
		if f.Path == path {
			return string(f.New)
		}
	}
	return ""
}

// TestNoPostLost: posts that share a slug in different folders all become concepts under --all,
// named by their folder and slug; every Markdown extension Jekyll reads is a post; a concept map
// names any post by its path (with or without extension), and a shared slug alone is refused with
// the paths that share it.
func TestNoPostLost(t *testing.T) {
	posts := t.TempDir()
	writeFiles(t, posts, map[string]string{
		"travel/hanoi.md":     "---\ntitle: Hanoi trip\n---\nText.\n",
		"food/hanoi/index.md": "---\ntitle: Hanoi food\n---\nText.\n",
		"notes.markdown":      "---\ntitle: Notes\n---\nText.\n",
		"older.mkd":           "---\ntitle: Older\n---\nText.\n",
		"unique.md":           "---\ntitle: Unique\n---\nText.\n",
	})
	opts := Options{Posts: posts, Out: t.TempDir(), Site: "https://x.example", Engine: "generic", All: true, Now: t0}
	plan := run(t, opts)
	want := map[string]string{"food-hanoi": "created", "travel-hanoi": "created", "notes": "created", "older": "created", "unique": "created"}
	if got := actionsOf(plan); !mapsEqual(got, want) {
		t.Errorf("--all: %v, want %v", got, want)
	}
	if len(plan.Problems) != 0 {
		t.Errorf("problems: %v", plan.Problems)
	}
	specs, err := ParseConceptMap([]byte("a: travel/hanoi.md\nb: food/hanoi\nc: hanoi\nd: notes.markdown\ne: unique\n"))
	if err != nil {
		t.Fatal(err)
	}
	opts.All, opts.Concepts, opts.Out = false, specs, t.TempDir()
	plan = run(t, opts)
	want = map[string]string{"a": "created", "b": "created", "d": "created", "e": "created",
		"c": `skipped: slug "hanoi" is used by 2 posts ("food/hanoi/index.md", "travel/hanoi.md"); name one by its path`}
	if got := actionsOf(plan); !mapsEqual(got, want) {
		t.Errorf("map: %v, want %v", got, want)
	}
	if a := fileOf(plan, "concepts/a.md"); !strings.Contains(a, "title: Hanoi trip\n") {
		t.Errorf("a is not the travel post:\n%s", a)
	}
	if b := fileOf(plan, "concepts/b.md"); !strings.Contains(b, "title: Hanoi food\n") {
		t.Errorf("b is not the food post:\n%s", b)
	}
}

// TestStripTemplates: every engine's template and component syntax goes, the prose stays.
func TestStripTemplates(t *testing.T) {
	for in, want := range map[string]string{
		"Hi {% youtubeEmbed \"abc\" %} there.":                            "Hi there.",
		"A {{ site.title }} B.":                                           "A B.",
		"Keep {% highlight go %}x := 1{% endhighlight %} this.":           "Keep this.",
		"Ok {# a comment #} yes.":                                         "Ok yes.",
		"## Why it works {#why}":                                          "## Why it works",
		"Use :icon{name=\"mdi:home\"} and :badge[New]{type=info} now.":    "Use and New now.",
		"Text {: .lead} here.":                                            "Text here.",
		"Code `{{ keep }}` stays.":                                        "Code `{{ keep }}` stays.",
		"A {{< figure src=x >}} B {{% notice %}}hidden{{% /notice %}} C.": "A B C.",
		"http://example.com:8080{x} is text.":                             "http://example.com:8080{x} is text.",
	} {
		got := strings.Join(strings.Fields(StripMDX(in, false)), " ")
		want = strings.Join(strings.Fields(want), " ")
		if got != want {
			t.Errorf("StripMDX(%q) = %q, want %q", in, got, want)
		}
	}
	body := "::important{title=\"x\"}\nHidden callout.\n::\n\n::: tip\nA tip.\n:::\n\nThe prose.\n"
	if got := StripMDX(body, false); got != "The prose." {
		t.Errorf("blocks: %q", got)
	}
	vue := "Hello.\n\n<script setup>\nimport { ref } from \"vue\"\nconst count = ref(0)\n</script>\n\n<style>\n.a { color: red }\n</style>\n\nThe prose.\n"
	if got := StripMDX(vue, false); got != "Hello.\n\nThe prose." {
		t.Errorf("script and style: %q", got)
	}
	if got := CleanInline("Title {{< ref x >}} with {% raw %}x{% endraw %} end {#id}", false); got != "Title with end" {
		t.Errorf("CleanInline: %q", got)
	}
}

// TestAuthorsSplit: Markdown links and comma/"and" lists are one person each; a key-shaped value
// that no authors file resolves is never an identity, with the default engine too.
func TestAuthorsSplit(t *testing.T) {
	posts := t.TempDir()
	writeFiles(t, posts, map[string]string{
		"a.md": "---\ntitle: A\nauthor: \"[Guangya Liu](https://github.com/gyliu513) (IBM), [Sujay Solomon](https://github.com/sujay) (Google)\"\n---\nText.\n",
		"b.md": "---\ntitle: B\nauthors: ['default']\n---\nText.\n",
		"c.md": "---\ntitle: C\nauthors: Ada Lovelace <ada@example.com> and Alan Turing\n---\nText.\n",
	})
	plan := run(t, Options{Posts: posts, Out: t.TempDir(), Site: "https://x.example", Engine: "generic", All: true, Now: t0})
	a, b, c := fileOf(plan, "concepts/a.md"), fileOf(plan, "concepts/b.md"), fileOf(plan, "concepts/c.md")
	if !strings.Contains(a, "author: human:guangya-liu\n") || !strings.Contains(a, `(author: Guangya Liu \(IBM\), Sujay Solomon \(Google\))`) || strings.Contains(a, "github.com") {
		t.Errorf("a:\n%s", a)
	}
	if strings.Contains(b, "human:default") || !strings.Contains(b, "(author: default)") {
		t.Errorf("b:\n%s", b)
	}
	if !strings.Contains(c, "author: human:ada-lovelace\n") || !strings.Contains(c, "Ada Lovelace, Alan Turing") {
		t.Errorf("c:\n%s", c)
	}
}

// TestSiteURLs: each engine's own URL rules, from its configuration where it is declarative.
func TestSiteURLs(t *testing.T) {
	type post struct{ path, fm, want string }
	for _, tc := range []struct {
		engine, config, configName, posts string
		posts_                            []post
	}{
		{"jekyll", "url: https://j.example\npermalink: pretty\ncollections:\n  guides:\n    output: true\n  recipes:\n    output: true\n    permalink: /r/:title:output_ext\ndefaults:\n  - scope: {path: \"blog/_posts\"}\n    values: {permalink: /b/:year/:slug/}\n", "_config.yml", ".",
			[]post{
				{"_posts/2024-01-02-Hello-World.md", "", "https://j.example/2024/01/02/Hello-World/"},
				{"_posts/2024-01-03-cats.md", "categories: [Pets, Cats]", "https://j.example/pets/cats/2024/01/03/cats/"},
				{"_posts/2024-01-04-own.md", "permalink: /own/:i_month/:title", "https://j.example/own/1/own"},
				{"blog/_posts/2024-02-05-Deep-Post.md", "", "https://j.example/b/2024/deep-post/"},
				{"news/_posts/2024-02-06-n.md", "", "https://j.example/news/2024/02/06/n/"},
				{"_guides/setup/install.md", "", "https://j.example/guides/setup/install/"},
				{"_recipes/Pho.md", "", "https://j.example/r/Pho.html"},
				{"about.md", "title: About", "https://j.example/about/"},
				{"docs/index.md", "title: Docs", "https://j.example/docs/"},
				{"_includes/snippet.md", "title: Snippet", ""},
				{"vendor/bundle/gems/x/doc.md", "title: Gem", ""},
				{"_drafts/wip.md", "title: WIP", ""},
			}},
		{"hugo", "baseURL = 'https://h.example/'\n[permalinks]\nposts = '/:year/:month/:slug/'\n", "hugo.toml", "content",
			[]post{
				{"posts/hello.md", "title: Hello There\ndate: 2024-03-04", "https://h.example/2024/03/hello-there/"},
				{"posts/b/index.md", "title: B\nslug: bee\ndate: 2024-05-06", "https://h.example/2024/05/bee/"},
				{"docs/x.md", "title: X", "https://h.example/docs/x/"},
			}},
		{"hugo", "baseURL: https://d.example\ndefaultContentLanguage: en\nlanguages:\n  en: {contentDir: content/en}\n  vi: {contentDir: content/vi}\n", "hugo.yaml", "content",
			[]post{
				{"en/blog/2024/news.md", "title: News", "https://d.example/blog/2024/news/"},
				{"vi/blog/tin.md", "title: Tin", "https://d.example/vi/blog/tin/"},
			}},
		{"zola", "base_url = 'https://z.example'\n", "config.toml", "content",
			[]post{
				{"blog/2024-01-02_Hello World.md", "title: x", "https://z.example/blog/hello-world/"},
				{"blog/x.md", "path: /a/2020/01/02/x\ntitle: x", "https://z.example/a/2020/01/02/x/"},
			}},
	} {
		t.Run(tc.engine, func(t *testing.T) {
			site := t.TempDir()
			files := map[string]string{tc.configName: tc.config}
			for _, p := range tc.posts_ {
				files[tc.posts+"/"+p.path] = "---\n" + p.fm + "\n---\nText.\n"
			}
			writeFiles(t, site, files)
			opts := Options{Posts: site + "/" + tc.posts, Out: t.TempDir(), All: true, Now: t0}
			plan := run(t, opts)
			var got []string
			for _, f := range plan.Files {
				if i := strings.Index(string(f.New), "  - resource: "); i >= 0 {
					got = append(got, strings.SplitN(string(f.New)[i+len("  - resource: "):], "\n", 2)[0])
				}
			}
			if tc.engine == "jekyll" && len(plan.Actions) != 10 {
				t.Errorf("%d actions, want 10 (the draft skipped, _includes and vendor not posts): %v", len(plan.Actions), actionsOf(plan))
			}
			for _, p := range tc.posts_ {
				if p.want == "" {
					continue
				}
				found := false
				for _, g := range got {
					found = found || g == p.want
				}
				if !found {
					t.Errorf("%s: no concept with resource %s; got %v", p.path, p.want, got)
				}
			}
		})
	}
}

// TestListingPages: pagination pages, `permalink: false` and Eleventy's excluded pages are not
// posts; a concept map naming one is told why.
func TestListingPages(t *testing.T) {
	posts := t.TempDir()
	writeFiles(t, posts, map[string]string{
		"blog.md":   "---\ntitle: Blog\npagination:\n  data: collections.posts\n  size: 10\n---\nList.\n",
		"feed.md":   "---\npermalink: false\n---\nNot written.\n",
		"hidden.md": "---\ntitle: Hidden\neleventyExcludeFromCollections: true\n---\nText.\n",
		"post.md":   "---\ntitle: A post\n---\nText.\n",
	})
	plan := run(t, Options{Posts: posts, Out: t.TempDir(), Site: "https://x.example", Engine: "eleventy", All: true, Now: t0})
	if got := actionsOf(plan); !mapsEqual(got, map[string]string{"post": "created"}) {
		t.Errorf("--all: %v", got)
	}
	specs, _ := ParseConceptMap([]byte("b: blog\n"))
	plan = run(t, Options{Posts: posts, Out: t.TempDir(), Site: "https://x.example", Engine: "eleventy", Concepts: specs, Now: t0})
	if got := actionsOf(plan)["b"]; got != `skipped: "blog.md" is a listing page (it paginates), not a post` {
		t.Errorf("b: %s", got)
	}
}
