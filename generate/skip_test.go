package generate

import "testing"

// TestEngineSkips: files an engine never renders are not posts. Eleventy ignores node_modules
// and its _includes, _data and output (_site) folders (https://www.11ty.dev/docs/ignores/);
// Hugo, Zola and Nuxt Content read pages from their content folders only, so with --posts at the
// site's folder a theme's exampleSite is not a post.
func TestEngineSkips(t *testing.T) {
	for _, tc := range []struct {
		engine string
		files  map[string]string
		keep   []string
		skip   []string
	}{
		{"eleventy", map[string]string{"eleventy.config.js": "export default function () {}\n",
			"blog/post.md": "", "node_modules/pkg/guide.md": "", "_includes/partial.md": "", "_data/d.md": "", "_site/blog/post/index.md": ""},
			[]string{"post"}, []string{"guide", "partial", "d", "index"}},
		{"hugo", map[string]string{"hugo.toml": "baseURL = 'https://h.example/'\n",
			"content/posts/post.md": "", "themes/t/exampleSite/content/posts/demo.md": "", "archetypes/default.md": ""},
			[]string{"post"}, []string{"demo", "default"}},
		{"zola", map[string]string{"config.toml": "base_url = 'https://z.example'\n",
			"content/blog/post.md": "", "themes/t/content/demo.md": ""},
			[]string{"post"}, []string{"demo"}},
	} {
		t.Run(tc.engine, func(t *testing.T) {
			site := t.TempDir()
			files := map[string]string{}
			for p, c := range tc.files {
				if c == "" {
					c = "---\ntitle: T\ndate: 2024-01-02\n---\nText.\n"
				}
				files[p] = c
			}
			writeFiles(t, site, files)
			plan := run(t, Options{Posts: site, Site: "https://x.example", Out: t.TempDir(), All: true, Now: t0})
			got := actionsOf(plan)
			for _, c := range tc.keep {
				if got[c] != "created" {
					t.Errorf("%s: %q, want created: %v", c, got[c], got)
				}
			}
			for _, c := range tc.skip {
				if _, ok := got[c]; ok {
					t.Errorf("%s became a concept: %v", c, got)
				}
			}
		})
	}
}
