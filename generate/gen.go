// Package generate builds OKF concepts from a blog's posts (`okf gen`) and keeps a bundle's index.md
// files current (`okf index`). It never destroys what people add: only the frontmatter keys and the
// marked body block gen owns are rewritten, a file gen did not write is left alone, and every write
// is atomic.
package generate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing/fstest"
	"time"

	"github.com/okf-tools/okf/okf"
)

// DefaultActor is generated.by when no --actor is given (§7: process:<id>).
const DefaultActor = "process:okf-gen"

// DefaultType is a concept's type when neither the concept map nor --type names one (§4.1).
const DefaultType = "Concept"

// SummaryLength caps the summary paragraph of a concept body, in characters.
const SummaryLength = 600

// Options are the inputs of a gen run.
type Options struct {
	// Posts is the folder of .md/.mdx posts; Out the bundle folder (created when missing).
	Posts, Out string
	// Site is the site's base URL; URL the template of a post's URL ({site}, {slug}).
	Site, URL string
	// Concepts are the concepts to make; All makes one per post (named by slug) instead.
	Concepts []ConceptSpec
	All      bool
	// Layout places a concept in the bundle ({name}, {slug}); Actor is generated.by; Type the
	// default type.
	Layout, Actor, Type string
	// Now is generated.at for changed concepts and the date of the log entry.
	Now time.Time
	// DescriptionLength caps descriptions (DefaultDescriptionLength when zero).
	DescriptionLength int
	// GroupBy groups index entries (GroupByDirectory when empty).
	GroupBy string
}

// ActionKind is what happened to one concept.
type ActionKind int

// The outcomes for a concept.
const (
	Created ActionKind = iota
	Updated
	Unchanged
	Skipped
)

var actionNames = [...]string{"created", "updated", "unchanged", "skipped"}

// String names the outcome as the summary prints it.
func (k ActionKind) String() string { return actionNames[k] }

// Action is the outcome for one concept of the map.
type Action struct {
	Name, Slug string
	// Title is the concept's title (empty when skipped before the post was read).
	Title string
	// Path is the concept's slash path in the bundle ("" when skipped before one was known).
	Path string
	Kind ActionKind
	// Reason says why a concept was skipped.
	Reason string
	// VerifiedBy lists the human actors who had verified an updated concept (§5.3, D12): their
	// verification now predates the content, so trust reports show "changed since verified".
	VerifiedBy []string
	// BodyKept is true when the concept's body had no gen markers and was left alone.
	BodyKept bool
}

// Plan is everything a run would do, computed without writing.
type Plan struct {
	Actions []Action
	// Files are the writes, concepts first, then indexes, then log.md last.
	Files []FileChange
	// Problems are posts that could not be read.
	Problems []PostProblem
}

// Count returns how many actions have kind k.
func (p *Plan) Count(k ActionKind) int {
	n := 0
	for _, a := range p.Actions {
		if a.Kind == k {
			n++
		}
	}
	return n
}

// MakePlan reads the posts and the existing bundle and works out every file gen would write.
func MakePlan(opts Options) (*Plan, error) {
	if opts.Layout == "" {
		opts.Layout = DefaultLayout
	}
	if opts.Actor == "" {
		opts.Actor = DefaultActor
	}
	if okf.ClassifyActor(opts.Actor) == okf.ActorUnknown {
		return nil, fmt.Errorf("actor %q: expected process:<id>, human:<id> or <producer>/<version> (§7)", opts.Actor)
	}
	if opts.Type == "" {
		opts.Type = DefaultType
	}
	if opts.URL == "" {
		opts.URL = DefaultURL
	}
	if opts.DescriptionLength <= 0 {
		opts.DescriptionLength = DefaultDescriptionLength
	}
	if _, err := ConceptPath(opts.Layout, "name", "slug"); err != nil {
		return nil, err
	}
	if opts.Now.IsZero() {
		return nil, errors.New("no clock: Options.Now is zero")
	}
	posts, problems, err := ReadPosts(os.DirFS(opts.Posts))
	if err != nil {
		return nil, fmt.Errorf("reading posts %q: %w", opts.Posts, err)
	}
	bundle, err := readTree(opts.Out)
	if err != nil {
		return nil, fmt.Errorf("reading bundle %q: %w", opts.Out, err)
	}
	specs := opts.Concepts
	if opts.All {
		specs = nil
		for slug := range posts {
			specs = append(specs, ConceptSpec{Name: slug, Slug: slug})
		}
		sort.Slice(specs, func(i, j int) bool { return specs[i].Name < specs[j].Name })
	}
	plan := &Plan{Problems: problems}
	previous := map[string]Listing{}
	var concepts []FileChange
	seen := map[string]string{}
	for _, s := range specs {
		a := Action{Name: s.Name, Slug: s.Slug}
		post := posts[s.Slug]
		switch {
		case checkName(s.Name) != nil:
			a.Kind, a.Reason = Skipped, fmt.Sprintf("name %q cannot be a file name", s.Name)
		case post == nil:
			a.Kind, a.Reason = Skipped, fmt.Sprintf("no post with slug %q", s.Slug)
		case post.Draft:
			a.Kind, a.Reason = Skipped, fmt.Sprintf("post %q is a draft", post.Path)
		}
		if a.Kind == Skipped {
			plan.Actions = append(plan.Actions, a)
			continue
		}
		p, err := ConceptPath(opts.Layout, s.Name, s.Slug)
		if err != nil {
			a.Kind, a.Reason = Skipped, err.Error()
			plan.Actions = append(plan.Actions, a)
			continue
		}
		a.Path = p
		if other, dup := seen[p]; dup {
			a.Kind, a.Reason = Skipped, fmt.Sprintf("%s is already made for concept %q", p, other)
			plan.Actions = append(plan.Actions, a)
			continue
		}
		seen[p] = s.Name
		data := conceptData(post, s, opts)
		a.Title = data.Title
		old, exists := bundle[p]
		if !exists {
			a.Kind = Created
			content := data.Render(opts.Now)
			concepts = append(concepts, FileChange{Path: p, New: content})
			bundle[p] = &fstest.MapFile{Data: content, Mode: 0o644}
			plan.Actions = append(plan.Actions, a)
			continue
		}
		res, verifiedBy, prev, reason := regenerate(p, old.Data, data, opts)
		switch {
		case reason != "":
			a.Kind, a.Reason = Skipped, reason
		case !res.Changed:
			a.Kind, a.BodyKept = Unchanged, res.BodyKept
		default:
			a.Kind, a.BodyKept, a.VerifiedBy = Updated, res.BodyKept, verifiedBy
			previous[p] = prev
			concepts = append(concepts, FileChange{Path: p, Old: old.Data, New: res.Content})
			bundle[p] = &fstest.MapFile{Data: res.Content, Mode: 0o644}
		}
		plan.Actions = append(plan.Actions, a)
	}
	sort.Slice(concepts, func(i, j int) bool { return concepts[i].Path < concepts[j].Path })
	plan.Files = append(plan.Files, concepts...)

	b, err := okf.Load(bundle, okf.LoadOptions{})
	if err != nil {
		return nil, err
	}
	idx, err := Indexes(b, IndexOptions{GroupBy: opts.GroupBy, OKFVersion: "0.2", Previous: previous})
	if err != nil {
		return nil, err
	}
	plan.Files = append(plan.Files, idx...)

	if items := logItems(plan.Actions, posts, opts); len(items) > 0 {
		var old []byte
		if f, ok := bundle["log.md"]; ok {
			old = f.Data
		}
		plan.Files = append(plan.Files, FileChange{Path: "log.md", Old: old, New: AddLogEntries(old, opts.Now, items)})
	}
	return plan, nil
}

// regenerate merges new data into an existing concept file. reason is set when the file is not
// gen's to change.
func regenerate(p string, old []byte, data *ConceptData, opts Options) (res MergeResult, verifiedBy []string, prev Listing, reason string) {
	c, _ := okf.ParseConcept(p, old)
	if !c.Frontmatter.Present || c.Frontmatter.Generated == nil || strings.TrimSpace(c.Frontmatter.Generated.By.Text()) != opts.Actor {
		by := "absent"
		if c.Frontmatter.Generated != nil {
			by = fmt.Sprintf("%q", c.Frontmatter.Generated.By.Text())
		}
		return res, nil, prev, fmt.Sprintf("%s was not written by %s (generated.by is %s); left alone", p, opts.Actor, by)
	}
	res, err := data.Merge(old, opts.Now)
	if err != nil {
		return res, nil, prev, fmt.Sprintf("%s has frontmatter gen cannot read (%v); left alone", p, err)
	}
	if res.Changed && okf.TierOf(c.Frontmatter.Verified) == okf.HumanReviewed {
		for _, e := range c.Frontmatter.Verified.Entries {
			if by := e.By.Text(); okf.ClassifyActor(by) == okf.ActorHuman && !contains(verifiedBy, by) {
				verifiedBy = append(verifiedBy, by)
			}
		}
	}
	return res, verifiedBy, ListingOf(c), ""
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// conceptData is what a post and its map entry make.
func conceptData(post *Post, s ConceptSpec, opts Options) *ConceptData {
	title := s.Title
	if title == "" {
		title = post.Title
	}
	if title == "" {
		title = s.Slug
	}
	paras := Paragraphs(post.Text)
	desc := Describe(s.Description, opts.DescriptionLength)
	if desc == "" {
		desc = Describe(StripMDX(post.Description, strings.HasSuffix(post.Path, ".mdx")), opts.DescriptionLength)
	}
	if desc == "" && len(paras) > 0 {
		desc = Describe(paras[0], opts.DescriptionLength)
	}
	if desc == "" {
		desc = title
	}
	summary := ""
	if len(paras) > 0 {
		summary = Cut(paras[0], SummaryLength)
	}
	tags := post.Tags
	if s.HasTags {
		tags = s.Tags
	}
	typ := s.Type
	if typ == "" {
		typ = opts.Type
	}
	sourceTitle := post.Title
	if sourceTitle == "" {
		sourceTitle = title
	}
	return &ConceptData{
		Type: typ, Title: title, Description: desc, Tags: tags,
		URL: PostURL(opts.URL, opts.Site, post.Slug), SourceTitle: sourceTitle, Author: Actor(post.Author),
		LastModified: post.Date, Actor: opts.Actor, Summary: summary, Outline: Outline(post.Text),
	}
}

// logItems are the log entry's lines (§9): what was created, updated and skipped. A run that
// creates and updates nothing writes no entry, so a second identical run changes no byte.
func logItems(actions []Action, posts map[string]*Post, opts Options) []string {
	var created, updated, skipped []string
	link := func(a Action) string {
		return fmt.Sprintf("[%s](%s)", escapeLinkText(a.Title), linkDest("/"+a.Path))
	}
	postLink := func(a Action) string {
		p := posts[a.Slug]
		t := p.Title
		if t == "" {
			t = p.Slug
		}
		return fmt.Sprintf("[%s](%s)", escapeLinkText(t), linkDest(PostURL(opts.URL, opts.Site, p.Slug)))
	}
	for _, a := range actions {
		switch a.Kind {
		case Created:
			created = append(created, fmt.Sprintf("**Creation**: %s, generated from the post %s.", link(a), postLink(a)))
		case Updated:
			s := fmt.Sprintf("**Update**: %s, regenerated because the post %s changed.", link(a), postLink(a))
			if len(a.VerifiedBy) > 0 {
				s += fmt.Sprintf(" It had been verified by %s; the change is not verified yet, so it shows as changed since verified (§5.3).", strings.Join(a.VerifiedBy, ", "))
			}
			updated = append(updated, s)
		case Skipped:
			skipped = append(skipped, fmt.Sprintf("**Skipped**: concept %q: %s.", a.Name, a.Reason))
		}
	}
	if len(created)+len(updated) == 0 {
		return nil
	}
	return append(append(created, updated...), skipped...)
}

// readTree reads every file of the bundle folder into memory (a missing folder is an empty
// bundle), so the plan can be worked out and loaded as a whole before anything is written. .git is
// skipped.
func readTree(root string) (fstest.MapFS, error) {
	m := fstest.MapFS{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root && errors.Is(err, fs.ErrNotExist) {
				return filepath.SkipAll
			}
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		m[filepath.ToSlash(rel)] = &fstest.MapFile{Data: data, Mode: 0o644}
		return nil
	})
	return m, err
}

// Apply writes the plan's files below out through w, in order: concepts, indexes, then log.md, so
// the log never records a change that was not written. It stops at the first failure; each file is
// either fully written or untouched (AtomicWriter), and running gen again finishes the job.
func (p *Plan) Apply(w Writer, out string) error {
	return ApplyChanges(w, out, p.Files)
}

// ApplyChanges writes changes below root through w, stopping at the first failure.
func ApplyChanges(w Writer, root string, changes []FileChange) error {
	for _, c := range changes {
		if err := w.WriteFile(filepath.Join(root, filepath.FromSlash(c.Path)), c.New); err != nil {
			return fmt.Errorf("writing %s: %w", path.Join(filepath.ToSlash(root), c.Path), err)
		}
	}
	return nil
}
