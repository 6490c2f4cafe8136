package generate

import (
	"strings"
	"testing"
)

// TestEleventyURLs: Eleventy's default permalink is the file's path below the input folder with
// the file name as written (a date in it stays: only page.fileSlug drops it), as a folder; a file
// named like its folder (dir/x/x.md) and dir/x/index.md publish at /dir/x/
// (https://www.11ty.dev/docs/permalinks/). When every post is below content/ and the configuration
// is code, a warning says the input folder may be content/ (eleventy-base-blog's).
func TestEleventyURLs(t *testing.T) {
	site := t.TempDir()
	writeFiles(t, site, map[string]string{
		"eleventy.config.js":             "export default function () {}\n",
		"posts/2024-03-04-dated.md":      "---\ntitle: Dated\n---\nText.\n",
		"blog/2024-01-02-hello/index.md": "---\ntitle: Hello\n---\nText.\n",
		"posts/same/same.md":             "---\ntitle: Same\n---\nText.\n",
		"posts/2024-05-06-own.md":        "---\ntitle: Own\npermalink: \"/p/{{ page.fileSlug }}/\"\n---\nText.\n",
		"posts/plain.md":                 "---\ntitle: Plain\n---\nText.\n",
	})
	plan := run(t, Options{Posts: site, Site: "https://e.example", Out: t.TempDir(), All: true, Now: t0})
	var all strings.Builder
	for _, f := range plan.Files {
		all.Write(f.New)
	}
	for _, want := range []string{"https://e.example/posts/2024-03-04-dated/", "https://e.example/blog/2024-01-02-hello/",
		"https://e.example/posts/same/", "https://e.example/p/own/", "https://e.example/posts/plain/"} {
		if !strings.Contains(all.String(), "  - resource: "+want+"\n") {
			t.Errorf("no resource %s", want)
		}
	}
	if w := warningsOf(plan); strings.Contains(w, "content/") {
		t.Errorf("a content/ warning with posts outside content/:\n%s", w)
	}

	base := t.TempDir()
	writeFiles(t, base, map[string]string{
		"eleventy.config.js":         "export default function () { return {dir: {input: 'content'}} }\n",
		"content/blog/first-post.md": "---\ntitle: First\n---\nText.\n",
		"content/about.md":           "---\ntitle: About\n---\nText.\n",
	})
	plan = run(t, Options{Posts: base, Site: "https://e.example", Out: t.TempDir(), All: true, Now: t0})
	if w := warningsOf(plan); !strings.Contains(w, "every post is below content/") {
		t.Errorf("no warning about content/:\n%s", w)
	}
}

// TestEleventyTemplatePath: without the site's folder, {path} keeps the date too; the slug (the
// concept's name, page.fileSlug) drops it.
func TestEleventyTemplatePath(t *testing.T) {
	slug, urlPath, _ := nameParts("blog/2024-01-02-hello.md", Engines["eleventy"])
	if slug != "hello" || urlPath != "blog/2024-01-02-hello" {
		t.Errorf("slug %q, path %q; want hello, blog/2024-01-02-hello", slug, urlPath)
	}
}
