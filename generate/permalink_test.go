package generate

import (
	"strings"
	"testing"
)

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
