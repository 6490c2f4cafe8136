package generate

import (
	"strings"
	"testing"
)

// TestNuxtPaths: Nuxt Content slugifies and lowercases each part of a path after dropping its
// numeric prefix (respectPathCase defaults to false: docs/01.Getting Started is
// /docs/getting-started), and a file or folder whose name starts with "_" is a partial, not a
// page (https://content.nuxt.com, "Path" and "Partials").
func TestNuxtPaths(t *testing.T) {
	site := t.TempDir()
	writeFiles(t, site, map[string]string{
		"nuxt.config.ts":                           "export default defineNuxtConfig({})\n",
		"content/blog/My Post.md":                  "---\ntitle: P\n---\nText.\n",
		"content/Guides/Install.md":                "---\ntitle: I\n---\nText.\n",
		"content/docs/01.Getting Started/index.md": "---\ntitle: G\n---\nText.\n",
		"content/blog/_partial.md":                 "---\ntitle: Partial\n---\nText.\n",
		"content/_snippets/x.md":                   "---\ntitle: X\n---\nText.\n",
	})
	plan := run(t, Options{Posts: site + "/content", Site: "https://n.example", Out: t.TempDir(), All: true, Now: t0})
	var all strings.Builder
	for _, f := range plan.Files {
		all.Write(f.New)
	}
	for _, want := range []string{"https://n.example/blog/my-post", "https://n.example/guides/install", "https://n.example/docs/getting-started"} {
		if !strings.Contains(all.String(), "  - resource: "+want+"\n") {
			t.Errorf("no resource %s", want)
		}
	}
	for _, c := range []string{"partial", "x"} {
		if _, ok := actionsOf(plan)[c]; ok {
			t.Errorf("the partial %s became a concept: %v", c, actionsOf(plan))
		}
	}
}
