package generate

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, data := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func warningsOf(p *Plan) string {
	var b strings.Builder
	for _, w := range p.Warnings {
		b.WriteString(w.String() + "\n")
	}
	return b.String()
}

// TestGitDateFallback: a post with no date in its frontmatter or name takes the date of the last
// commit that touched it (git log -1 --format=%cI on the checkout's own repository), so a fresh
// clone and a touch change nothing. Outside a repository, one warning says the posts have no date.
func TestGitDateFallback(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := t.TempDir()
	posts := filepath.Join(repo, "blog")
	writeFiles(t, posts, map[string]string{
		"undated.md":     "---\ntitle: Undated\n---\nText.\n",
		"dated.md":       "---\ntitle: Dated\ndate: 2020-01-01\n---\nText.\n",
		"uncommitted.md": "---\ntitle: New\n---\nText.\n",
	})
	git := func(env []string, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), append([]string{"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com"}, env...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git(nil, "init", "-q")
	git([]string{"GIT_AUTHOR_DATE=2024-02-03T04:05:06+02:00", "GIT_COMMITTER_DATE=2024-02-03T04:05:06+02:00"}, "add", "blog/undated.md", "blog/dated.md")
	git([]string{"GIT_AUTHOR_DATE=2024-02-03T04:05:06+02:00", "GIT_COMMITTER_DATE=2024-02-03T04:05:06+02:00"}, "commit", "-q", "-m", "posts")

	opts := Options{Posts: posts, Out: filepath.Join(t.TempDir(), "out"), Site: "https://x.example", All: true, Now: t0}
	plan := run(t, opts)
	src, _ := os.ReadFile(filepath.Join(opts.Out, "concepts", "undated.md"))
	if !strings.Contains(string(src), "    last_modified: 2024-02-03T02:05:06Z\n") {
		t.Errorf("undated post: want the commit date in UTC:\n%s", src)
	}
	src, _ = os.ReadFile(filepath.Join(opts.Out, "concepts", "dated.md"))
	if !strings.Contains(string(src), "    last_modified: 2020-01-01T00:00:00Z\n") {
		t.Errorf("dated post: the frontmatter date wins over git:\n%s", src)
	}
	src, _ = os.ReadFile(filepath.Join(opts.Out, "concepts", "uncommitted.md"))
	if strings.Contains(string(src), "last_modified") {
		t.Errorf("uncommitted post: no date is known:\n%s", src)
	}
	if w := warningsOf(plan); w != ".: 1 post(s) have no date in frontmatter or file name and git has no commit for them: their sources carry no last_modified\n" {
		t.Errorf("warnings:\n%s", w)
	}

	// Outside a repository: one warning for all undated posts, not one per post.
	plain := t.TempDir()
	writeFiles(t, plain, map[string]string{"a.md": "---\ntitle: A\n---\n", "b.md": "---\ntitle: B\n---\n"})
	plan, err := MakePlan(Options{Posts: plain, Out: t.TempDir(), Site: "https://x.example", All: true, Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	if w := warningsOf(plan); !strings.HasPrefix(w, ".: 2 post(s) have no date in frontmatter or file name and the posts folder is not in a git repository") || strings.Count(w, "\n") != 1 {
		t.Errorf("warnings:\n%s", w)
	}
}

// TestScheduledPosts: a post published after --now is reported; --skip-future leaves it out.
func TestScheduledPosts(t *testing.T) {
	posts := t.TempDir()
	writeFiles(t, posts, map[string]string{
		"soon.md": "---\ntitle: Soon\ndate: 2027-01-01\n---\nText.\n",
		"past.md": "---\ntitle: Past\ndate: 2020-01-01\n---\nText.\n",
	})
	opts := Options{Posts: posts, Out: t.TempDir(), Site: "https://x.example", All: true, Now: t0}
	plan, err := MakePlan(opts)
	if err != nil {
		t.Fatal(err)
	}
	if w := warningsOf(plan); w != "soon.md: scheduled post: published 2027-01-01T00:00:00Z, after now (2026-11-30T12:00:00Z)\n" {
		t.Errorf("warnings:\n%s", w)
	}
	if k := kinds(plan); k["soon"] != Created || k["past"] != Created {
		t.Errorf("without --skip-future both are made: %v", k)
	}
	opts.SkipFuture = true
	plan, err = MakePlan(opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range plan.Actions {
		if a.Name == "soon" && (a.Kind != Skipped || a.Reason != `post "soon.md" is scheduled for 2027-01-01T00:00:00Z, after --now (--skip-future)`) {
			t.Errorf("soon: %s %q", a.Kind, a.Reason)
		}
	}
}

// TestMapLookups: a concept map may name a post by slug, by {path} or by its file path; a file
// name below a folder gets a skip message naming the slug that file has; a post with broken frontmatter is reported as such; --all
// takes no README and no file without frontmatter.
func TestMapLookups(t *testing.T) {
	posts := t.TempDir()
	writeFiles(t, posts, map[string]string{
		"2021-08-01-hello.md":        "---\ntitle: Hello\n---\nText.\n",
		"guides/2022-02-02-setup.md": "---\ntitle: Setup\n---\nText.\n",
		"broken.md":                  "---\ntitle: [unclosed\n---\nText.\n",
		"README.md":                  "---\ntitle: Readme\n---\nThe folder.\n",
		"notes.md":                   "Just notes, no frontmatter.\n",
	})
	specs, err := ParseConceptMap([]byte("a: hello\nb: guides/2022/02/02/setup\nc: 2021-08-01-hello.md\nd: broken\ne: 2022-02-02-setup\n"))
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Posts: posts, Out: t.TempDir(), Site: "https://x.example", Engine: "docusaurus", Concepts: specs, Now: t0}
	plan, err := MakePlan(opts)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"a": "created",
		"b": "created",
		"c": "created", // a post named by its path
		"e": `skipped: no post with slug "2022-02-02-setup"; the file "guides/2022-02-02-setup.md" has the slug "setup"`,
		"d": `skipped: post "broken.md" could not be read (see the warning for it)`,
	}
	for _, a := range plan.Actions {
		got := a.Kind.String()
		if a.Kind == Skipped {
			got += ": " + a.Reason
		}
		if got != want[a.Name] {
			t.Errorf("%s: %s, want %s", a.Name, got, want[a.Name])
		}
	}
	var b string
	for _, f := range plan.Files {
		if f.Path == "concepts/b.md" {
			b = string(f.New)
		}
	}
	if !strings.Contains(b, "resource: https://x.example/blog/guides/2022/02/02/setup\n") {
		t.Errorf("b's URL:\n%s", b)
	}

	opts.Concepts, opts.All = nil, true
	plan, err = MakePlan(opts)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range plan.Actions {
		names = append(names, a.Name)
	}
	if strings.Join(names, " ") != "hello setup" {
		t.Errorf("--all made %v, want hello and setup only (no README, no file without frontmatter)", names)
	}
}

// TestDateOrder: the update date wins over the publish date, the frontmatter over the file name.
func TestDateOrder(t *testing.T) {
	for _, tc := range []struct{ path, fm, want string }{
		{"2020-01-01-a.md", "", "2020-01-01T00:00:00Z"},
		{"2020-01-01-a.md", "date: 2021-05-05", "2021-05-05T00:00:00Z"},
		{"a.md", "pubDate: 2021-05-05\nupdatedDate: 2021-06-06", "2021-06-06T00:00:00Z"},
		{"a.md", "publishDate: 2021-05-05T10:00:00-05:00", "2021-05-05T15:00:00Z"},
		{"a.md", "published: 2019-01-01\nlastUpdated: 2019-03-03", "2019-03-03T00:00:00Z"},
		{"a.md", "date: 2019-01-01\nmodified: 2019-02-02 10:00:00 +0100", "2019-02-02T09:00:00Z"},
		{"a.md", "pubDate: Jul 08 2022", "2022-07-08T00:00:00Z"},
	} {
		p, prob := ParsePost(tc.path, []byte("---\ntitle: x\n"+tc.fm+"\n---\n"), Engines["generic"])
		if prob != nil {
			t.Fatal(prob)
		}
		if got := FormatTime(p.Date); got != tc.want {
			t.Errorf("%s %q: %s, want %s", tc.path, tc.fm, got, tc.want)
		}
	}
}
