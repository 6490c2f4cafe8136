package generate

import (
	"bytes"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/okf-tools/okf/okf"
)

var update = flag.Bool("update", false, "rewrite the golden bundle in ../testdata/bundles/gen")

var (
	contentDir = filepath.Join("..", "testdata", "content")
	goldenDir  = filepath.Join("..", "testdata", "bundles", "gen")
	t0         = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
)

// copyTree copies a folder, so a test can change posts or a bundle without touching testdata.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// readAll returns every file below root by slash path.
func readAll(t *testing.T, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func seedOptions(t *testing.T, posts, out string, now time.Time) Options {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(contentDir, "concepts.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	specs, err := ParseConceptMap(src)
	if err != nil {
		t.Fatal(err)
	}
	return Options{Posts: posts, Out: out, Site: "https://blog.example.com", Concepts: specs, Now: now}
}

func run(t *testing.T, opts Options) *Plan {
	t.Helper()
	plan, err := MakePlan(opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plan.Apply(opts.Out); err != nil {
		t.Fatal(err)
	}
	return plan
}

func kinds(p *Plan) map[string]ActionKind {
	m := map[string]ActionKind{}
	for _, a := range p.Actions {
		m[a.Name] = a.Kind
	}
	return m
}

// TestSeed is the seed case: a concept map naming four posts, one of which does not exist,
// makes three concepts, a root index.md with okf_version "0.2" and a log entry naming the skipped
// one. The bundle is compared with the golden files, which were checked by reading them.
func TestSeed(t *testing.T) {
	out := t.TempDir()
	plan := run(t, seedOptions(t, filepath.Join(contentDir, "posts"), out, t0))
	want := map[string]ActionKind{"ownership": Created, "lifetimes": Created, "kaffee": Created, "missing": Skipped}
	if got := kinds(plan); !mapsEqual(got, want) {
		t.Fatalf("actions = %v, want %v", got, want)
	}
	got := readAll(t, out)
	if *update {
		_ = os.RemoveAll(goldenDir)
		copyTree(t, out, goldenDir)
	}
	wantFiles := readAll(t, goldenDir)
	for p, w := range wantFiles {
		if got[p] != w {
			t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", p, got[p], w)
		}
	}
	for p := range got {
		if _, ok := wantFiles[p]; !ok {
			t.Errorf("unexpected file %s", p)
		}
	}
	if !strings.Contains(got["log.md"], `**Skipped**: concept "missing": no post with slug "not-written-yet".`) {
		t.Errorf("log.md does not name the skipped concept:\n%s", got["log.md"])
	}
	checkBundle(t, out, 3)
}

func mapsEqual[K comparable, V comparable](a, b map[K]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// checkBundle checks what the spec asks of a generated bundle, independently of lint: the loader
// finds nothing, every timestamp has an offset (§5, D10), every actor follows §7, descriptions are
// one sentence of at most 200 characters (§4.1), the root index frontmatter is exactly
// okf_version "0.2" (§8, §12), each concept is in its directory's index and in the root index, and
// the log's date groups are valid and newest first (§9, D8).
func checkBundle(t *testing.T, dir string, concepts int) {
	t.Helper()
	b, err := okf.LoadDir(dir, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range b.Diagnostics {
		t.Errorf("loader: %s", d)
	}
	if len(b.Concepts) != concepts {
		t.Errorf("%d concepts, want %d", len(b.Concepts), concepts)
	}
	full := func(c *okf.Concept, name string, ts okf.Timestamp) {
		if ts.Form != okf.Full {
			t.Errorf("%s: %s %q is %s, want a datetime with an offset", c.Path, name, ts.Raw, ts.Form)
		}
	}
	for _, c := range b.Concepts {
		f := c.Frontmatter
		if !c.Conformant() {
			t.Errorf("%s: not conformant", c.Path)
		}
		if f.Generated == nil {
			t.Fatalf("%s: no generated", c.Path)
		}
		full(c, "generated.at", f.Generated.At)
		if k := okf.ClassifyActor(f.Generated.By.Text()); k == okf.ActorUnknown || k == okf.ActorTeam {
			t.Errorf("%s: generated.by %q is not a §7 actor", c.Path, f.Generated.By.Text())
		}
		if len(f.Sources.Items) == 0 {
			t.Errorf("%s: no sources", c.Path)
		}
		for _, s := range f.Sources.Items {
			if !okf.IsURL(s.Resource.Text()) {
				t.Errorf("%s: source resource %q is not a URL", c.Path, s.Resource.Text())
			}
			if s.LastModified.Present() {
				full(c, "last_modified", s.LastModified)
			}
			if s.Author.Present() && okf.ClassifyActor(s.Author.Text()) == okf.ActorUnknown {
				t.Errorf("%s: source author %q is not an actor", c.Path, s.Author.Text())
			}
		}
		desc := f.Description.Text()
		// A post's own description is kept whole (issue 27), so it may hold several sentences.
		if desc == "" || strings.Contains(desc, "\n") || len([]rune(desc)) > DefaultDescriptionLength {
			t.Errorf("%s: description %q is not one line of at most %d characters", c.Path, desc, DefaultDescriptionLength)
		}
		if _, known := okf.StatusOf(f.Status); !known {
			t.Errorf("%s: status %q unknown", c.Path, f.Status.Raw)
		}
		if len(c.Body.FootnoteRefs) > 0 {
			t.Errorf("%s: footnote references without sources ids (D16)", c.Path)
		}
		for _, l := range c.Body.Links {
			if r := b.ResolveLink(c.Path, l.Target); r.Kind == okf.RefLocal && !r.Exists {
				t.Errorf("%s: broken link %q", c.Path, l.Target)
			}
		}
	}
	root := b.RootIndex()
	if root == nil {
		t.Fatal("no root index.md")
	}
	if keys := root.Frontmatter.Keys; len(keys) != 1 || keys[0].Name != "okf_version" || keys[0].Value.Text() != "0.2" || !keys[0].Value.IsString() {
		t.Errorf("root index frontmatter = %v, want only okf_version: \"0.2\"", keys)
	}
	listed := map[string]map[string]bool{} // index dir → concept paths
	for _, x := range b.Indexes {
		listed[x.Dir()] = map[string]bool{}
		for _, s := range x.Sections {
			for _, e := range s.Entries {
				r := b.ResolveLink(x.Path, e.Target)
				if !r.Exists {
					t.Errorf("%s: entry %q leads nowhere", x.Path, e.Target)
				}
				if base := path.Base(r.Target); base == "index.md" || base == "log.md" {
					t.Errorf("%s: lists reserved file %q", x.Path, e.Target)
				}
				listed[x.Dir()][r.Target] = true
				if c := b.ConceptAt(r.Target); c != nil && e.Description != c.Frontmatter.Description.Text() {
					t.Errorf("%s: entry %q has description %q, want the concept's %q (§8)", x.Path, e.Target, e.Description, c.Frontmatter.Description.Text())
				}
			}
		}
	}
	for _, c := range b.Concepts {
		if !listed[c.Dir()][c.Path] {
			t.Errorf("%s is not in its directory's index", c.Path)
		}
		if !listed[""][c.Path] {
			t.Errorf("%s is not in the root index", c.Path)
		}
	}
	for _, lg := range b.Logs {
		if len(lg.Stray) > 0 {
			t.Errorf("%s: entries outside date groups at %v", lg.Path, lg.Stray)
		}
		for i, g := range lg.Groups {
			if !g.Valid || g.Extra != "" {
				t.Errorf("%s: heading %q is not a bare YYYY-MM-DD date", lg.Path, g.Heading)
			}
			if i > 0 && !g.Date.Before(lg.Groups[i-1].Date) {
				t.Errorf("%s: group %q is not older than the one above it", lg.Path, g.Heading)
			}
		}
	}
}

// TestSecondRunIdentical: the same input run again changes no byte, even with a later clock.
func TestSecondRunIdentical(t *testing.T) {
	out := t.TempDir()
	posts := filepath.Join(contentDir, "posts")
	run(t, seedOptions(t, posts, out, t0))
	first := readAll(t, out)
	plan := run(t, seedOptions(t, posts, out, t0.Add(48*time.Hour)))
	if len(plan.Files) != 0 {
		t.Errorf("second run writes %d files, want none", len(plan.Files))
	}
	if got := readAll(t, out); !mapsEqual(got, first) {
		t.Errorf("second run changed the bundle")
	}
}

// TestHumanEditsKept: after a person verifies a concept, changes its status, adds keys, comments
// and a section, a run with the same posts changes nothing; a run after the post changed moves
// generated.at, keeps every human addition and says in the log that a verified concept changed.
func TestHumanEditsKept(t *testing.T) {
	out := t.TempDir()
	posts := filepath.Join(t.TempDir(), "posts")
	copyTree(t, filepath.Join(contentDir, "posts"), posts)
	run(t, seedOptions(t, posts, out, t0))

	conceptFile := filepath.Join(out, "concepts", "ownership.md")
	src, _ := os.ReadFile(conceptFile)
	edited := strings.Replace(string(src), "status: draft\n",
		"status: stable # reviewed in December\nverified:\n  - { by: human:alice, at: 2026-12-01T09:00:00Z }\n\nstale_after: 2027-06-01T00:00:00Z\nowner: team:rust\n", 1)
	edited = strings.Replace(edited, "title:", "# keep the title short\ntitle:", 1)
	edited += "\n# Notes from the team\n\nWe teach this in week one.\n"
	if edited == string(src) {
		t.Fatal("the edit did not apply")
	}
	if err := os.WriteFile(conceptFile, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	plan := run(t, seedOptions(t, posts, out, t0.Add(24*time.Hour)))
	if k := kinds(plan)["ownership"]; k != Unchanged {
		t.Errorf("after human edits only: %s, want unchanged", k)
	}
	if got, _ := os.ReadFile(conceptFile); string(got) != edited {
		t.Errorf("the human-edited file changed:\n%s", got)
	}

	// The post changes.
	postFile := filepath.Join(posts, "rust-ownership.mdx")
	p, _ := os.ReadFile(postFile)
	p2 := strings.Replace(string(p), "Every value in Rust has exactly one", "Each value in Rust has a single", 1)
	if err := os.WriteFile(postFile, []byte(p2), 0o644); err != nil {
		t.Fatal(err)
	}
	later := t0.Add(72 * time.Hour)
	plan = run(t, seedOptions(t, posts, out, later))
	if k := kinds(plan)["ownership"]; k != Updated {
		t.Fatalf("after the post changed: %s, want updated", k)
	}
	got, _ := os.ReadFile(conceptFile)
	for _, keep := range []string{
		"status: stable # reviewed in December\n",
		"verified:\n  - { by: human:alice, at: 2026-12-01T09:00:00Z }\n\n",
		"stale_after: 2027-06-01T00:00:00Z\n",
		"owner: team:rust\n",
		"# keep the title short\ntitle:",
		"\n# Notes from the team\n\nWe teach this in week one.\n",
		"description: Each value in Rust has a single owner",
		"  at: 2026-12-03T12:00:00Z\n",
	} {
		if !strings.Contains(string(got), keep) {
			t.Errorf("regenerated concept lacks %q:\n%s", keep, got)
		}
	}
	c, diags := okf.ParseConcept("concepts/ownership.md", got)
	if len(diags) > 0 {
		t.Errorf("diagnostics: %v", diags)
	}
	if !okf.ChangedSinceVerified(c.Frontmatter) || okf.TierOf(c.Frontmatter.Verified) != okf.HumanReviewed {
		t.Errorf("want a human-reviewed concept changed since verified")
	}
	log, _ := os.ReadFile(filepath.Join(out, "log.md"))
	if !strings.HasPrefix(string(log), "# Update Log\n\n## 2026-12-03\n\n* **Update**: [Ownership in Rust: moves, borrows and drops](/concepts/ownership.md), regenerated because the post") {
		t.Errorf("log does not open with the update:\n%s", log)
	}
	if !strings.Contains(string(log), "verified by human:alice") || !strings.Contains(string(log), "changed since verified") {
		t.Errorf("log does not say a human-verified concept changed:\n%s", log)
	}
	idx, _ := os.ReadFile(filepath.Join(out, "index.md"))
	if !strings.Contains(string(idx), "(concepts/ownership.md) - Each value in Rust has a single owner") {
		t.Errorf("root index does not follow the new description:\n%s", idx)
	}
	checkBundle(t, out, 3)
}

// TestForeignFileLeftAlone: a concept file gen did not write is never overwritten, and a gen file
// whose markers a person removed keeps its body.
func TestForeignFileLeftAlone(t *testing.T) {
	out := t.TempDir()
	foreign := "---\ntype: Concept\ntitle: Kaffee\ngenerated: { by: human:bob, at: 2026-01-01T00:00:00Z }\n---\n\nBob's own words.\n"
	if err := os.MkdirAll(filepath.Join(out, "concepts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "concepts", "kaffee.md"), []byte(foreign), 0o644); err != nil {
		t.Fatal(err)
	}
	plan := run(t, seedOptions(t, filepath.Join(contentDir, "posts"), out, t0))
	var reason string
	for _, a := range plan.Actions {
		if a.Name == "kaffee" {
			reason = a.Reason
			if a.Kind != Skipped {
				t.Errorf("kaffee: %s, want skipped", a.Kind)
			}
		}
	}
	if want := `concepts/kaffee.md was not written by process:okf-gen (generated.by is "human:bob"); left alone`; reason != want {
		t.Errorf("reason = %q, want %q", reason, want)
	}
	if got, _ := os.ReadFile(filepath.Join(out, "concepts", "kaffee.md")); string(got) != foreign {
		t.Errorf("foreign file changed:\n%s", got)
	}

	// A person took over the body of lifetimes.md by removing the markers.
	lf := filepath.Join(out, "concepts", "lifetimes.md")
	src, _ := os.ReadFile(lf)
	sp := okf.SplitFrontmatter(src)
	mine := string(src[:sp.BodyOffset]) + "\nRewritten by hand.\n"
	mine = regexp.MustCompile(`(?m)^description: .*$`).ReplaceAllString(mine, "description: Old words.")
	if err := os.WriteFile(lf, []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	plan = run(t, seedOptions(t, filepath.Join(contentDir, "posts"), out, t0.Add(time.Hour)))
	got, _ := os.ReadFile(lf)
	if !strings.HasSuffix(string(got), "---\n\nRewritten by hand.\n") {
		t.Errorf("hand-written body lost:\n%s", got)
	}
	if !strings.Contains(string(got), "description: 'How Rust''s lifetimes keep references valid") {
		t.Errorf("owned key not regenerated:\n%s", got)
	}
	for _, a := range plan.Actions {
		if a.Name == "lifetimes" && (a.Kind != Updated || !a.BodyKept) {
			t.Errorf("lifetimes: %s (body kept %v), want updated with the body kept", a.Kind, a.BodyKept)
		}
	}
}

// TestAllSkipsDrafts: --all makes one concept per post and skips the draft; a long description is
// cut at a word boundary with an ellipsis.
func TestAllSkipsDrafts(t *testing.T) {
	out := t.TempDir()
	plan := run(t, Options{Posts: filepath.Join(contentDir, "posts"), Out: out, Site: "https://blog.example.com/", All: true, Now: t0})
	want := map[string]ActionKind{"rust-ownership": Created, "understanding-lifetimes": Created, "kaffee": Created, "style-guide": Created, "draft-post": Skipped}
	if got := kinds(plan); !mapsEqual(got, want) {
		t.Fatalf("actions = %v, want %v", got, want)
	}
	for _, a := range plan.Actions {
		if a.Name == "draft-post" && a.Reason != `post "draft-post.mdx" is a draft` {
			t.Errorf("draft reason = %q", a.Reason)
		}
	}
	b, err := okf.LoadDir(out, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := b.ConceptAt("concepts/style-guide.md")
	if c == nil {
		t.Fatal("no style-guide concept")
	}
	desc := c.Frontmatter.Description.Text()
	want200 := "A long description that goes on well past the default limit of two hundred characters, so that okf gen has to cut it at a word boundary and mark the cut with an ellipsis, rather than chopping a word…"
	if desc != want200 {
		t.Errorf("description = %q, want %q", desc, want200)
	}
	if n := len([]rune(desc)); n > 200 {
		t.Errorf("description has %d characters", n)
	}
	if got := c.Frontmatter.Sources.Items[0].Resource.Text(); got != "https://blog.example.com/style-guide" {
		t.Errorf("resource = %q", got)
	}
	if got := c.Frontmatter.Sources.Items[0].LastModified.Raw; got != "2026-01-15T17:00:00Z" {
		t.Errorf("last_modified = %q, want the post's updated date in UTC", got)
	}
	if got := c.Frontmatter.Sources.Items[0].Author.Text(); got != "team:docs" {
		t.Errorf("author = %q, want the actor as written", got)
	}
	checkBundle(t, out, 4)
}

// failOnWrite returns a write step for Plan.apply that fails on its nth call (the journal is the
// first), like a full disk, and otherwise writes as okf does.
func failOnWrite(n int) func(string, []byte, fs.FileMode) error {
	calls := 0
	return func(name string, data []byte, perm fs.FileMode) error {
		calls++
		if calls == n {
			return errors.New("disk full")
		}
		return okf.WriteFileAtomic(name, data, perm)
	}
}

// TestFailedWriteLeavesNoHalfFile: a run whose third write fails stops with an error; the files
// written before are complete, the failed one keeps its old content (here: does not exist), no
// temporary file remains, and the next run finishes the bundle.
func TestFailedWriteLeavesNoHalfFile(t *testing.T) {
	out := t.TempDir()
	opts := seedOptions(t, filepath.Join(contentDir, "posts"), out, t0)
	plan, err := MakePlan(opts)
	if err != nil {
		t.Fatal(err)
	}
	_, err = plan.apply(out, failOnWrite(4)) // the journal, two concepts, then the third fails
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("Apply = %v, want the disk-full error", err)
	}
	files := readAll(t, out)
	if _, ok := files[JournalFile]; !ok {
		t.Errorf("no %s after the failed run", JournalFile)
	}
	delete(files, JournalFile)
	for p, data := range files {
		if strings.HasPrefix(path.Base(p), ".") {
			t.Errorf("temporary file %s left behind", p)
		}
		var want []byte
		for _, f := range plan.Files {
			if f.Path == p {
				want = f.New
			}
		}
		if !bytes.Equal([]byte(data), want) {
			t.Errorf("%s is not the complete planned content", p)
		}
	}
	failed := plan.Files[2].Path
	if _, ok := files[failed]; ok {
		t.Errorf("%s exists after its write failed", failed)
	}
	if len(files) != 2 {
		t.Errorf("%d files written, want the 2 before the failure", len(files))
	}
	// The rerun finds the two concepts written and unchanged: it records them from the journal,
	// with the third it creates itself, and removes the journal.
	plan = run(t, opts)
	if len(plan.Recovered) != 2 {
		t.Errorf("recovered %q, want the 2 concepts the failed run wrote", plan.Recovered)
	}
	checkBundle(t, out, 3)
	after := readAll(t, out)
	if _, ok := after[JournalFile]; ok {
		t.Errorf("%s left after a complete run", JournalFile)
	}
	if n := strings.Count(after["log.md"], "* **Creation**: "); n != 3 {
		t.Errorf("log.md records %d creations, want 3:\n%s", n, after["log.md"])
	}
}

// TestPlanErrors: a bad actor or layout is refused before anything is read or written.
func TestPlanErrors(t *testing.T) {
	base := seedOptions(t, filepath.Join(contentDir, "posts"), t.TempDir(), t0)
	for _, tc := range []struct {
		name string
		edit func(*Options)
		want string
	}{
		{"actor", func(o *Options) { o.Actor = "okf gen" }, `actor "okf gen": expected`},
		{"layout", func(o *Options) { o.Layout = "../{name}.md" }, `layout "../{name}.md" gives "../name.md"`},
		{"reserved", func(o *Options) { o.Layout = "{name}/index.md" }, "reserved"},
		{"posts", func(o *Options) { o.Posts = filepath.Join(t.TempDir(), "none") }, "reading posts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := base
			tc.edit(&o)
			_, err := MakePlan(o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestDuplicatePaths: two concepts that land on one file are not both written.
func TestDuplicatePaths(t *testing.T) {
	out := t.TempDir()
	opts := Options{Posts: filepath.Join(contentDir, "posts"), Out: out, Site: "https://x.example", Now: t0, Layout: "concepts/{slug}.md",
		Concepts: []ConceptSpec{{Name: "a", Slug: "kaffee"}, {Name: "b", Slug: "kaffee"}}}
	plan := run(t, opts)
	got := kinds(plan)
	if got["a"] != Created || got["b"] != Skipped {
		t.Errorf("actions = %v", got)
	}
	if !slices.ContainsFunc(plan.Actions, func(a Action) bool { return strings.Contains(a.Reason, `already made for concept "a"`) }) {
		t.Errorf("no reason naming the first concept: %+v", plan.Actions)
	}

	// A concept whose name makes a reserved file is skipped; the others are made.
	opts.Out, opts.Layout = t.TempDir(), DefaultLayout
	opts.Concepts = []ConceptSpec{{Name: "log", Slug: "kaffee"}, {Name: "ok", Slug: "kaffee"}}
	plan = run(t, opts)
	if got := kinds(plan); got["log"] != Skipped || got["ok"] != Created {
		t.Errorf("actions = %v", got)
	}
}

// TestEditedBlockKept: a person who edits inside the generated block keeps their edit: the begin
// marker's hash no longer matches, so gen leaves the body alone and updates only its keys.
func TestEditedBlockKept(t *testing.T) {
	out := t.TempDir()
	posts := filepath.Join(t.TempDir(), "posts")
	copyTree(t, filepath.Join(contentDir, "posts"), posts)
	run(t, seedOptions(t, posts, out, t0))
	f := filepath.Join(out, "concepts", "ownership.md")
	src, _ := os.ReadFile(f)
	edited := strings.Replace(string(src), "* Drops\n", "* Drops (and why they matter)\n", 1)
	if edited == string(src) {
		t.Fatal("edit did not apply")
	}
	if err := os.WriteFile(f, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	plan := run(t, seedOptions(t, posts, out, t0.Add(time.Hour)))
	if got, _ := os.ReadFile(f); string(got) != edited || kinds(plan)["ownership"] != Unchanged {
		t.Errorf("edited block changed (%s):\n%s", kinds(plan)["ownership"], got)
	}
	postFile := filepath.Join(posts, "rust-ownership.mdx")
	p, _ := os.ReadFile(postFile)
	if err := os.WriteFile(postFile, []byte(strings.Replace(string(p), "Every value in Rust has exactly one", "Each value has one", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	plan = run(t, seedOptions(t, posts, out, t0.Add(2*time.Hour)))
	got, _ := os.ReadFile(f)
	if !strings.Contains(string(got), "* Drops (and why they matter)\n") || !strings.Contains(string(got), "description: Each value has one owner") {
		t.Errorf("want the edited body and the new description:\n%s", got)
	}
	for _, a := range plan.Actions {
		if a.Name == "ownership" && (a.Kind != Updated || !a.BodyKept) {
			t.Errorf("ownership: %s (body kept %v), want updated with the body kept", a.Kind, a.BodyKept)
		}
	}
}

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
