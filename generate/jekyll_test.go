package generate

import (
	"strings"
	"testing"
)

// TestJekyllNotPublished: what Jekyll never renders is not a post: `published: false`, a file in
// _posts without a dated name (Jekyll's posts are YYYY-MM-DD-title.EXT), a document of a collection
// without `output: true` (Jekyll's default is false). A URL pattern needing a date the document
// does not have is not filled with year 0001.
func TestJekyllNotPublished(t *testing.T) {
	site := t.TempDir()
	writeFiles(t, site, map[string]string{
		"_config.yml":                 "url: https://j.example\ncollections:\n  guides:\n    output: true\n    permalink: /g/:year/:title/\n  notes:\n    permalink: /n/:title/\n  recipes:\n    output: true\n",
		"_posts/2024-01-02-hidden.md": "---\ntitle: Hidden\npublished: false\n---\nText.\n",
		"_posts/nodate.md":            "---\ntitle: No date\n---\nText.\n",
		"_posts/2024-01-03-ok.md":     "---\ntitle: OK\n---\nText.\n",
		"_notes/n.md":                 "---\ntitle: Note\n---\nText.\n",
		"_guides/undated.md":          "---\ntitle: Undated\n---\nText.\n",
		"_guides/dated.md":            "---\ntitle: Dated\ndate: 2024-05-06\n---\nText.\n",
		"_recipes/pho.md":             "---\ntitle: Pho\n---\nText.\n",
	})
	plan := run(t, Options{Posts: site, Out: t.TempDir(), All: true, Now: t0})
	got := actionsOf(plan)
	for _, c := range []string{"hidden", "nodate", "n"} {
		if _, ok := got[c]; ok {
			t.Errorf("%s became a concept: %v", c, got)
		}
	}
	for _, c := range []string{"ok", "dated", "pho"} {
		if got[c] != "created" {
			t.Errorf("%s: %q, want created: %v", c, got[c], got)
		}
	}
	for _, w := range plan.Warnings {
		if strings.Contains(w.Message, "published") && strings.Contains(w.Message, "not a date") {
			t.Errorf("published: false read as a date: %s", w)
		}
	}
	var all strings.Builder
	for _, f := range plan.Files {
		all.Write(f.New)
	}
	if strings.Contains(all.String(), "0001") {
		t.Errorf("a URL with year 0001:\n%s", all.String())
	}
	for _, want := range []string{"https://j.example/2024/01/03/ok.html", "https://j.example/g/2024/dated/", "https://j.example/recipes/pho.html"} {
		if !strings.Contains(all.String(), "  - resource: "+want+"\n") {
			t.Errorf("no resource %s", want)
		}
	}
}

// TestJekyllTimezone: Jekyll puts a post's date in the site's time zone (`timezone:` in
// _config.yml; GitHub Pages and an unset one are UTC) before filling :year/:month/:day, so a
// date written with another offset can land on another day; a date without an offset is the
// site's own wall clock (https://jekyllrb.com/docs/configuration/options/, "Time Zone").
func TestJekyllTimezone(t *testing.T) {
	for _, tc := range []struct{ tz, date, want string }{
		{"", "2024-01-02 23:30:00 -0500", "https://j.example/2024/01/03/p.html"},
		{"America/New_York", "2024-01-02 23:30:00 -0500", "https://j.example/2024/01/02/p.html"},
		{"Asia/Tokyo", "2024-01-02T23:30:00Z", "https://j.example/2024/01/03/p.html"},
		{"America/New_York", "2024-01-05", "https://j.example/2024/01/05/p.html"},
		{"America/New_York", "2024-01-05 23:00:00", "https://j.example/2024/01/05/p.html"},
	} {
		site := t.TempDir()
		conf := "url: https://j.example\n"
		if tc.tz != "" {
			conf += "timezone: " + tc.tz + "\n"
		}
		writeFiles(t, site, map[string]string{"_config.yml": conf, "_posts/2024-01-01-p.md": "---\ntitle: P\ndate: " + tc.date + "\n---\nText.\n"})
		plan := run(t, Options{Posts: site, Out: t.TempDir(), All: true, Now: t0})
		if got := fileOf(plan, "concepts/p.md"); !strings.Contains(got, "  - resource: "+tc.want+"\n") {
			t.Errorf("timezone %q, date %q: want %s in\n%s", tc.tz, tc.date, tc.want, got)
		}
	}
}
