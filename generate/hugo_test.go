package generate

import (
	"strings"
	"testing"
)

// hugoResources runs gen on a Hugo site and returns every concept's resource.
func hugoResources(t *testing.T, config string, posts map[string]string) string {
	t.Helper()
	site := t.TempDir()
	files := map[string]string{"hugo.toml": config}
	for p, fm := range posts {
		files["content/"+p] = "---\n" + fm + "\n---\nText.\n"
	}
	writeFiles(t, site, files)
	plan := run(t, Options{Posts: site + "/content", Out: t.TempDir(), All: true, Now: t0})
	var got []string
	for _, f := range plan.Files {
		if i := strings.Index(string(f.New), "  - resource: "); i >= 0 {
			got = append(got, strings.SplitN(string(f.New)[i+len("  - resource: "):], "\n", 2)[0])
		}
	}
	return strings.Join(got, "\n") + "\n"
}

// TestHugoPathToLower: Hugo lowercases URLs unless disablePathToLower is set (default false) and
// makes spaces hyphens (paths.MakePathSanitized), for the content path and for an expanded
// [permalinks] pattern alike (https://gohugo.io/configuration/all/#disablepathtolower).
func TestHugoPathToLower(t *testing.T) {
	posts := map[string]string{
		"posts/Hello World.md":     "title: Hello",
		"posts/My-Bundle/index.md": "title: Bundle",
		"posts/own.md":             "title: Own\nslug: My Slug",
		"blog/My File.md":          "title: File\ndate: 2024-01-02",
	}
	got := hugoResources(t, "baseURL = 'https://h.example/'\n[permalinks]\nblog = '/:section/:year/:filename/'\n", posts)
	for _, want := range []string{"https://h.example/posts/hello-world/", "https://h.example/posts/my-bundle/",
		"https://h.example/posts/my-slug/", "https://h.example/blog/2024/my-file/"} {
		if !strings.Contains(got, want+"\n") {
			t.Errorf("no resource %s in\n%s", want, got)
		}
	}
	got = hugoResources(t, "baseURL = 'https://h.example/'\ndisablePathToLower = true\n", map[string]string{"posts/Hello World.md": "title: Hello"})
	if want := "https://h.example/posts/Hello-World/\n"; got != want {
		t.Errorf("disablePathToLower: %q, want %q", got, want)
	}
}
