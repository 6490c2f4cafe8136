// Package generate builds OKF concepts from a blog's posts (`okf gen`) and keeps a bundle's index.md
// files current (`okf index`). It never destroys what people add: only the frontmatter keys and the
// marked body block gen owns are rewritten, a file gen did not write is left alone, and every write
// is atomic.
package generate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing/fstest"
	"time"

	"github.com/okf-tools/okf/internal/escape"
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
	// Site is the site's base URL; URL the template of a post's URL ({site}, {slug}, {path}); the
	// engine's template when empty.
	Site, URL string
	// Engine names the blog engine whose conventions are followed (DefaultEngine when empty).
	Engine string
	// MarkdownIsMDX, when set, overrides the engine's reading of .md posts as MDX.
	MarkdownIsMDX *bool
	// Authors is the authors file or folder (a path on disk); the engine's default when empty.
	Authors string
	// SkipFuture leaves out posts published after Now (scheduled posts).
	SkipFuture bool
	// MaxFileSize is the largest post or authors file read, in bytes (MaxPostSize when <= 0).
	MaxFileSize int64
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
	// SiteInfo is what DetectSite found around Posts; MakePlan looks when it is nil. With Engine
	// empty its engine is used, with Site empty its URL.
	SiteInfo *Site

	urlSet bool // URL was given, so it wins over the engine's own URL rules
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

	post *Post // the post it was made from
}

// Plan is everything a run would do, computed without writing.
type Plan struct {
	Actions []Action
	// Files are the writes, concepts first, then indexes, then log.md last.
	Files []FileChange
	// Problems are posts that could not be read.
	Problems []PostProblem
	// Warnings are things about readable posts a person should know (an ignored date, a
	// scheduled post, an unknown author key, no date at all); the posts are still used.
	Warnings []PostProblem
	// Recovered are the log entries of a killed run that this run records (see JournalFile).
	Recovered []string
	// IgnoredJournal says why a journal found in the bundle was not read as a killed run's (it is
	// in the repository's index, or git could not say); "" when there was none or it was read.
	IgnoredJournal string

	journal      []byte   // this run's journal, written before anything else
	stray        []string // temporary files a killed run left, removed first
	clearJournal bool     // a killed run's journal is there, removed at the end
	oldJournal   []byte   // what that journal held (nil: none), for okf.ApplyChanges's check
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

// CheckOptions reports what is wrong with opts before anything is read or written.
func CheckOptions(opts Options) error {
	_, _, err := normalize(opts)
	return err
}

// normalize fills in opts' defaults and checks them.
func normalize(opts Options) (Options, Engine, error) {
	if opts.Layout == "" {
		opts.Layout = DefaultLayout
	}
	if opts.Actor == "" {
		opts.Actor = DefaultActor
	}
	if okf.ClassifyActor(opts.Actor) == okf.ActorUnknown {
		return opts, Engine{}, fmt.Errorf("actor %q: expected process:<id>, human:<id> or <producer>/<version> (§7)", opts.Actor)
	}
	if opts.Type == "" {
		opts.Type = DefaultType
	}
	if opts.SiteInfo == nil && opts.Posts != "" {
		site, err := DetectSite(opts.Posts, opts.Engine, opts.MaxFileSize)
		if err != nil {
			return opts, Engine{}, err
		}
		opts.SiteInfo = site
	}
	if opts.Engine == "" && opts.SiteInfo != nil {
		opts.Engine = opts.SiteInfo.Engine
	}
	if opts.Site == "" && opts.SiteInfo != nil {
		opts.Site = opts.SiteInfo.URL
	}
	if opts.Site == "" {
		return opts, Engine{}, errors.New("no site URL: give --site (the engine's configuration names none)")
	}
	eng, err := LookupEngine(opts.Engine)
	if err != nil {
		return opts, eng, err
	}
	if opts.MarkdownIsMDX != nil {
		eng.MarkdownIsMDX = *opts.MarkdownIsMDX
	}
	opts.urlSet = opts.URL != ""
	if opts.URL == "" {
		opts.URL = eng.URL
	}
	if err := CheckURLTemplate(opts.URL); err != nil {
		return opts, eng, err
	}
	if opts.DescriptionLength <= 0 {
		opts.DescriptionLength = DefaultDescriptionLength
	}
	if _, err := ConceptPath(opts.Layout, "name", "slug"); err != nil {
		return opts, eng, err
	}
	if opts.Now.IsZero() {
		return opts, eng, errors.New("no clock: Options.Now is zero")
	}
	if opts.Posts != "" && opts.Out != "" {
		switch {
		case within(opts.Out, opts.Posts):
			return opts, eng, fmt.Errorf("--out %q is inside --posts %q: gen would read the concepts it writes as posts", opts.Out, opts.Posts)
		case within(opts.Posts, opts.Out):
			return opts, eng, fmt.Errorf("--posts %q is inside --out %q: the bundle would read the posts as its concepts", opts.Posts, opts.Out)
		}
	}
	return opts, eng, nil
}

// within reports whether the folder p is dir or below it, symbolic links resolved as far as p
// exists (the bundle folder may not exist yet), and not in a hidden folder of it.
func within(p, dir string) bool {
	real := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			return ""
		}
		rest := ""
		for q := a; ; q = filepath.Dir(q) {
			if e, err := filepath.EvalSymlinks(q); err == nil {
				return filepath.Join(e, rest)
			}
			if filepath.Dir(q) == q {
				return a
			}
			rest = filepath.Join(filepath.Base(q), rest)
		}
	}
	rp, rd := real(p), real(dir)
	if rp == "" || rd == "" {
		return false
	}
	rel, err := filepath.Rel(rd, rp)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if len(part) > 1 && part[0] == '.' {
			return false // a hidden folder: neither the posts nor the bundle reader goes in (D5)
		}
	}
	return true
}

// MakePlan reads the posts and the existing bundle and works out every file gen would write.
func MakePlan(opts Options) (*Plan, error) {
	opts, eng, err := normalize(opts)
	if err != nil {
		return nil, err
	}
	dir, err := openConfined(opts.Posts, opts.MaxFileSize)
	if err != nil {
		return nil, fmt.Errorf("reading posts %q: %w", opts.Posts, err)
	}
	defer dir.Close()
	ps, err := ReadPosts(dir, eng)
	if err != nil {
		return nil, fmt.Errorf("reading posts %q: %w", opts.Posts, err)
	}
	var siteWarnings []PostProblem
	if build := siteURLs[eng.Name]; build != nil && !opts.urlSet {
		site := opts.SiteInfo
		if site == nil || site.Engine != eng.Name {
			site = &Site{Engine: eng.Name}
		}
		kept := ps.List[:0]
		for _, p := range ps.List {
			if why := siteSkip(eng.Name, p, site); why != "" {
				ps.NotPosts[p.Path] = why
				continue
			}
			p.EnginePath = build(p, site)
			if p.NotPost != "" { // the engine's rules found no URL it would publish the post at
				ps.NotPosts[p.Path] = p.NotPost
				continue
			}
			kept = append(kept, p)
		}
		ps.List = kept
		ps.reindex()
		if eng.Name == "eleventy" && site.Code && allBelow(ps.List, site, "content") {
			siteWarnings = append(siteWarnings, PostProblem{Pos: okf.Position{Path: "."}, Message: "every post is below content/ and the Eleventy configuration is code, which gen does not run: " +
				"if it sets dir.input to \"content\" (as eleventy-base-blog does), the URLs carry a /content/ Eleventy does not publish; set --url"})
		}
	}
	warnings, err := finishPosts(ps, eng, opts)
	if err != nil {
		return nil, err
	}
	warnings = append(siteWarnings, warnings...)
	posts := ps.BySlug
	bundle, err := readTree(opts.Out, opts.MaxFileSize)
	if err != nil {
		return nil, fmt.Errorf("reading bundle %q: %w", opts.Out, err)
	}
	// What a killed run left: its journal (the log entries it had not recorded yet) and temporary
	// files. Neither is part of the bundle.
	var killed *journal
	_, hadJournal := bundle[JournalFile]
	var oldJournal []byte
	var ignoredJournal string
	if hadJournal {
		oldJournal = bundle[JournalFile].Data
		killed = parseJournal(oldJournal)
		// A journal is what a killed run on this machine left. One in the repository's index came
		// with the checkout: its entries are whoever wrote them, and are not recorded.
		if killed != nil {
			repo, err := okf.OpenGitRepo(opts.Out)
			if err == nil {
				var tracked bool
				if tracked, err = repo.Tracked(JournalFile); err == nil && tracked {
					killed = nil
					ignoredJournal = JournalFile + " is in the repository (committed or staged), so no killed run of okf gen left it: its entries are not recorded in log.md, and it is removed"
				}
			}
			// When git cannot answer, or the checkout's repository is not one okf asks (a folder
			// that looks like a planted repository), a committed journal cannot be told from a
			// killed run's: its entries are not taken on trust.
			if err != nil && (errors.Is(err, okf.ErrPlantedRepo) || !errors.Is(err, okf.ErrNoGit) && !errors.Is(err, okf.ErrNoCheckout)) {
				killed = nil
				ignoredJournal = "okf gen cannot tell whether " + JournalFile + " was committed (" + err.Error() + "): its entries are not recorded in log.md, and it is removed"
			}
		}
	}
	delete(bundle, JournalFile)
	delete(bundle, LockFile)
	var stray []string
	for p := range bundle {
		if isStray(p) {
			stray = append(stray, p)
			delete(bundle, p)
		}
	}
	sort.Strings(stray)
	var recoveredItems []string
	if killed != nil {
		onDisk := map[string][]byte{}
		for _, e := range killed.Entries {
			if f, ok := bundle[e.Path]; ok {
				onDisk[e.Path] = f.Data
			}
		}
		var oldLog []byte
		if f, ok := bundle["log.md"]; ok {
			oldLog = f.Data
		}
		recoveredItems = recovered(killed, onDisk, oldLog)
	}
	specs := opts.Concepts
	if opts.All {
		specs = nil
		for name, file := range ps.AllNames() {
			specs = append(specs, ConceptSpec{Name: name, Slug: file})
		}
		sort.Slice(specs, func(i, j int) bool { return specs[i].Name < specs[j].Name })
	}
	plan := &Plan{Problems: ps.Problems, Warnings: warnings, Recovered: recoveredItems, IgnoredJournal: ignoredJournal, stray: stray, clearJournal: hadJournal, oldJournal: oldJournal}
	previous := map[string]Listing{}
	var concepts []FileChange
	seen := map[string]string{}
	for _, s := range specs {
		a := Action{Name: s.Name, Slug: s.Slug}
		post, missing := ps.Find(s.Slug)
		switch {
		case checkName(s.Name) != nil:
			a.Kind, a.Reason = Skipped, fmt.Sprintf("name %q cannot be a file name", s.Name)
		case post == nil:
			a.Kind, a.Reason = Skipped, missing
		case post.Draft:
			a.Kind, a.Reason = Skipped, fmt.Sprintf("post %q is a draft", post.Path)
		case opts.SkipFuture && post.Published.After(opts.Now):
			a.Kind, a.Reason = Skipped, fmt.Sprintf("post %q is scheduled for %s, after --now (--skip-future)", post.Path, FormatTime(post.Published))
		}
		if post != nil {
			a.Slug, a.post = post.Slug, post
		}
		if a.Kind == Skipped {
			plan.Actions = append(plan.Actions, a)
			continue
		}
		p, err := ConceptPath(opts.Layout, s.Name, post.Slug)
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
		data := conceptData(post, s, opts, eng)
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

	// The bundle as every command opens it (okf.OpenFS): what its .okf.yaml ignores is not in it,
	// so gen indexes exactly what okf index, okf lint and okf serve see.
	o, err := okf.OpenFS(bundle, opts.MaxFileSize)
	if err != nil {
		return nil, err
	}
	b, err := o.Load(okf.LoadOptions{})
	if err != nil {
		return nil, err
	}
	idx, err := Indexes(b, IndexOptions{GroupBy: opts.GroupBy, OKFVersion: "0.2", Previous: previous})
	if err != nil {
		return nil, err
	}
	plan.Files = append(plan.Files, idx...)

	items, itemOf := logItems(plan.Actions, posts, opts)
	if len(items) > 0 || len(recoveredItems) > 0 {
		var old []byte
		if f, ok := bundle["log.md"]; ok {
			old = f.Data
		}
		log := old
		if len(recoveredItems) > 0 {
			log = AddLogEntries(log, killed.Date, recoveredItems)
		}
		if len(items) > 0 {
			log = AddLogEntries(log, opts.Now, items)
		}
		plan.Files = append(plan.Files, FileChange{Path: "log.md", Old: old, New: log})
	}
	if len(itemOf) > 0 {
		j := journal{Date: opts.Now.UTC()}
		for _, f := range concepts {
			if item, ok := itemOf[f.Path]; ok {
				j.Entries = append(j.Entries, journalEntry{Path: f.Path, Item: item, SHA256: sha(f.New)})
			}
		}
		plan.journal, _ = json.Marshal(j)
		plan.journal = escape.JSONLog(plan.journal) // as all JSON okf writes
	}
	return plan, nil
}

// regenerate merges new data into an existing concept file. reason is set when the file is not
// gen's to change.
func regenerate(p string, old []byte, data *ConceptData, opts Options) (res MergeResult, verifiedBy []string, prev Listing, reason string) {
	c, diags := okf.ParseConcept(p, old)
	if !c.Frontmatter.Present {
		// A block that does not parse says nothing of who wrote it: say what is wrong with it.
		for _, d := range diags {
			if d.Severity == okf.Error && d.Pos.Line > 0 {
				return res, nil, prev, fmt.Sprintf("%s has frontmatter gen cannot read (line %d: %s); left alone", p, d.Pos.Line, d.Message)
			}
		}
	}
	if !c.Frontmatter.Present || c.Frontmatter.Generated == nil || strings.TrimSpace(c.Frontmatter.Generated.By.Text()) != opts.Actor {
		by := "absent"
		if c.Frontmatter.Generated != nil {
			by = fmt.Sprintf("%q", c.Frontmatter.Generated.By.Text())
		}
		return res, nil, prev, fmt.Sprintf("%s was not written by %s (generated.by is %s); left alone", p, opts.Actor, by)
	}
	res, err := data.Merge(old, opts.Now)
	if errors.Is(err, okf.ErrUnproven) {
		// The rewrite would change what it does not mean to: a person's file is never written so.
		return res, nil, prev, fmt.Sprintf("%s could not be regenerated without changing what a person wrote (%v); left alone", p, err)
	}
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

// missingReason says why a concept map's post was not found: its file could not be read, it was
// named by file name (and has another slug), or there is no such post.
func missingReason(ps *Posts, slug string) string {
	if p, ok := ps.Broken[slug]; ok {
		return fmt.Sprintf("post %q could not be read (see the warning for it)", p)
	}
	if p := ps.byFileName(slug); p != nil {
		return fmt.Sprintf("no post with slug %q; the file %q has the slug %q", slug, p.Path, p.Slug)
	}
	return fmt.Sprintf("no post with slug %q", slug)
}

// finishPosts completes what a post's own file cannot say: its author's name from the authors
// file, its date from git when it has none, and the warnings about scheduled posts.
func finishPosts(ps *Posts, eng Engine, opts Options) ([]PostProblem, error) {
	var warnings []PostProblem
	var authors Authors
	authorsFrom := ""
	candidates := eng.Authors
	var onDisk []string
	for _, c := range eng.Authors {
		onDisk = append(onDisk, filepath.Join(opts.Posts, filepath.FromSlash(c)))
	}
	if site := opts.SiteInfo; site != nil && site.Root != "" && site.Engine == eng.Name {
		for _, c := range eng.SiteAuthors {
			candidates = append(candidates, c)
			onDisk = append(onDisk, filepath.Join(site.Root, filepath.FromSlash(c)))
		}
	}
	if opts.Authors != "" {
		candidates, onDisk = []string{opts.Authors}, []string{opts.Authors}
	}
	for i, c := range candidates {
		p := onDisk[i]
		a, found, probs, err := readAuthors(p, opts.MaxFileSize)
		if err != nil {
			return nil, fmt.Errorf("reading authors: %w", err)
		}
		if !found {
			if opts.Authors != "" {
				return nil, fmt.Errorf("authors %q: %w", opts.Authors, fs.ErrNotExist)
			}
			continue
		}
		for _, pr := range probs {
			pr.Pos.Path = path.Join(filepath.ToSlash(c), pr.Pos.Path)
			warnings = append(warnings, pr)
		}
		authors, authorsFrom = a, filepath.ToSlash(c)
		break
	}
	unknown := map[string][]string{}
	var undated []*Post
	for _, p := range ps.List {
		warnings = append(warnings, p.Warnings...)
		if len(p.authorEntries) > 0 {
			// Each person: a value the authors file names is that author; a key it does not name
			// is credited in the body only, never made an identity; a name stays a name.
			p.Authors, p.AuthorKeys, p.Author = nil, nil, ""
			for i, e := range p.authorEntries {
				if name, ok := authors[e.text]; ok {
					p.authorEntries[i].text, p.authorEntries[i].key = name, false
					p.Authors = append(p.Authors, name)
				} else if e.key {
					p.AuthorKeys = append(p.AuthorKeys, e.text)
					unknown[e.text] = append(unknown[e.text], p.Path)
				} else if !e.credit {
					p.Authors = append(p.Authors, e.text)
				}
			}
			if e := p.authorEntries[0]; e.person() {
				p.Author = e.text
			}
		}
		if p.Date.IsZero() {
			undated = append(undated, p)
		}
		if !p.Published.IsZero() && p.Published.After(opts.Now) && !p.Draft {
			warnings = append(warnings, PostProblem{Pos: okf.Position{Path: p.Path}, Message: fmt.Sprintf("scheduled post: published %s, after now (%s)", FormatTime(p.Published), FormatTime(opts.Now))})
		}
	}
	keys := make([]string, 0, len(unknown))
	for k := range unknown {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		where := "no authors file was found"
		if authors != nil {
			where = fmt.Sprintf("%s does not name it", authorsFrom)
		}
		warnings = append(warnings, PostProblem{Pos: okf.Position{Path: unknown[k][0]}, Message: fmt.Sprintf(
			"author key %q (%d post(s)): %s; the concept credits the key in its body and sets no sources author", k, len(unknown[k]), where)})
	}
	if len(undated) > 0 {
		// The posts folder's checkout, through okf's one git door: never a repository planted in
		// the posts folder (a pull request can commit HEAD, objects/ and refs/ there), and no
		// program any config names.
		repo, why := okf.OpenGitRepo(opts.Posts)
		var failed error
		missing := 0
		for _, p := range undated {
			if repo != nil {
				t, ok, err := repo.LastCommitDate(p.Path)
				if ok {
					p.Date, p.DateFrom = t, "git"
					continue
				}
				if err != nil && failed == nil {
					failed = err
				}
			}
			missing++
		}
		if missing > 0 {
			reason := "git has no commit for them"
			switch {
			case failed != nil:
				reason = fmt.Sprintf("git could not tell (%v)", failed)
			case errors.Is(why, okf.ErrPlantedRepo):
				reason = why.Error()
			case why != nil:
				reason = "the posts folder is not in a git repository (or git is not installed)"
			}
			warnings = append(warnings, PostProblem{Pos: okf.Position{Path: "."}, Message: fmt.Sprintf(
				"%d post(s) have no date in frontmatter or file name and %s: their sources carry no last_modified", missing, reason)})
		}
	}
	return warnings, nil
}

// postURL is a post's published URL: where its engine publishes it (when gen builds that from
// the post's place in the site), else its permalink when it gives one, else the template.
func postURL(template, site string, post *Post) string {
	if ep := post.EnginePath; ep != "" {
		return strings.TrimRight(site, "/") + escapePath(ep)
	}
	if pl := post.Permalink; pl != "" {
		if u, err := url.Parse(pl); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
			return pl
		}
		return strings.TrimRight(site, "/") + "/" + escapePath(strings.TrimLeft(pl, "/"))
	}
	return ExpandURL(template, site, post.Slug, post.URLPath)
}

// conceptData is what a post and its map entry make.
func conceptData(post *Post, s ConceptSpec, opts Options, eng Engine) *ConceptData {
	title := s.Title
	if title == "" {
		title = post.Title
	}
	if title == "" {
		if h := Outline(post.Text); len(h) > 0 && h[0].Level == 1 {
			title = h[0].Text
		} else {
			title = post.Slug
		}
	}
	paras := Paragraphs(post.Text)
	desc := DescribeWhole(s.Description, opts.DescriptionLength)
	if desc == "" {
		desc = DescribeWhole(StripMDX(post.Description, strings.HasSuffix(post.Path, ".mdx") || eng.MarkdownIsMDX), opts.DescriptionLength)
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
		URL: postURL(opts.URL, opts.Site, post), SourceTitle: sourceTitle, Author: Actor(post.Author), Byline: byline(post),
		LastModified: post.Date, Actor: opts.Actor, Summary: summary, Outline: Outline(post.Text),
	}
}

// logItems are the log entry's lines (§9): what was created, updated and skipped, and the line of
// each created or updated concept by path. A run that creates and updates nothing writes no entry,
// so a second identical run changes no byte.
func logItems(actions []Action, posts map[string]*Post, opts Options) ([]string, map[string]string) {
	var created, updated, skipped []string
	itemOf := map[string]string{}
	link := func(a Action) string {
		return fmt.Sprintf("[%s](%s)", escapeLinkText(visible(oneLine(a.Title))), pathDest("/"+a.Path))
	}
	postLink := func(a Action) string {
		p := a.post
		t := p.Title
		if t == "" {
			t = p.Slug
		}
		return fmt.Sprintf("[%s](%s)", escapeLinkText(visible(oneLine(t))), linkDest(postURL(opts.URL, opts.Site, p)))
	}
	for _, a := range actions {
		switch a.Kind {
		case Created:
			created = append(created, fmt.Sprintf("**Creation**: %s, generated from the post %s.", link(a), postLink(a)))
			itemOf[a.Path] = created[len(created)-1]
		case Updated:
			s := fmt.Sprintf("**Update**: %s, regenerated because the post %s changed.", link(a), postLink(a))
			if len(a.VerifiedBy) > 0 {
				s += fmt.Sprintf(" It had been verified by %s; the change is not verified yet, so it shows as changed since verified (§5.3).", strings.Join(a.VerifiedBy, ", "))
			}
			updated = append(updated, s)
			itemOf[a.Path] = s
		case Skipped:
			skipped = append(skipped, fmt.Sprintf("**Skipped**: concept %q: %s.", a.Name, a.Reason))
		}
	}
	if len(created)+len(updated) == 0 {
		return nil, nil
	}
	return append(append(created, updated...), skipped...), itemOf
}

// readTree reads the bundle folder into memory (a missing folder is an empty bundle), so the plan
// can be worked out and loaded as a whole before anything is written: its .md files and okf's own
// files (.okfignore, .okf.yaml, gen's journal), through okf.FileSystem (no link out, regular files
// only, at most maxSize bytes each: a larger one stops the run, as gen could not tell whether it
// may rewrite it). Other files are listed with no content, never read. .git is skipped.
func readTree(root string, maxSize int64) (fstest.MapFS, error) {
	m := fstest.MapFS{}
	if err := okf.CheckLinkedOut(root); err != nil {
		return nil, err // a bundle folder linked out of its checkout is not gen's to write
	}
	r, err := okf.OpenFileSystem(root, maxSize)
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, err
	}
	defer r.Close()
	err = fs.WalkDir(r, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		var data []byte
		if strings.HasSuffix(p, ".md") || strings.HasPrefix(path.Base(p), ".okf") {
			if data, err = r.ReadFile(p); err != nil {
				return err
			}
			if data == nil {
				data = []byte{} // read, and empty: not a file that is absent (okf.FileChange.Old)
			}
		}
		m[p] = &fstest.MapFile{Data: data, Mode: 0o644}
		return nil
	})
	return m, err
}

// Apply writes the plan's files below out, in order: concepts, indexes, then log.md, so the log
// never records a change that was not written. It writes through okf.ApplyChangesWith, the one way
// okf edits a bundle: each file only if it still holds what the plan read, never through a link,
// atomically. It stops at the first file refused; each file is either fully written or untouched,
// and running gen again finishes the job.
//
// Before the first write it removes the temporary files a killed run left and writes this run's
// journal (JournalFile); after log.md it removes the journal. A run killed in between leaves the
// journal, and the next run records in log.md what this one wrote; its indexes are worked out from
// the concept files on disk, so they agree with them too. Hold the bundle's lock (okf.LockBundle)
// while planning and applying.
func (p *Plan) Apply(out string) (written int, err error) {
	return p.apply(out, nil)
}

// apply is Apply with the last step of each write replaced (tests: a write that fails, or a
// process killed half-way); nil is okf.WriteFileAtomic.
func (p *Plan) apply(out string, write func(string, []byte, fs.FileMode) error) (written int, err error) {
	// gen makes the bundle it was asked for (okf.LockBundle does too); never at a folder linked out
	// of its checkout.
	if err := okf.CheckLinkedOut(out); err != nil {
		return 0, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return 0, err
	}
	if err := p.cleanup(out); err != nil {
		return 0, fmt.Errorf("removing a temporary file a killed run left: %w", err)
	}
	if p.journal != nil {
		j := []FileChange{{Path: JournalFile, Old: p.oldJournal, New: p.journal}}
		if _, err := applyInOrder(out, j, write); err != nil {
			return 0, err
		}
	}
	n, err := applyInOrder(out, p.Files, write)
	if err != nil {
		return n, err
	}
	if p.journal != nil || p.clearJournal {
		jpath := filepath.Join(out, JournalFile)
		if err := os.Remove(jpath); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return n, fmt.Errorf("removing %s: %w", path.Join(filepath.ToSlash(out), JournalFile), err)
		}
	}
	return n, nil
}

// ApplyChanges writes changes below root through okf.ApplyChangesWith, in order, stopping at the
// first one refused (okf index writes its indexes so). written is how many of them were written.
func ApplyChanges(root string, changes []FileChange) (written int, err error) {
	return applyInOrder(root, changes, nil)
}

func applyInOrder(root string, changes []FileChange, write func(string, []byte, fs.FileMode) error) (int, error) {
	done, refused, err := okf.ApplyChangesWith(root, changes, okf.ApplyOptions{InOrder: true, WriteFile: write})
	if err != nil {
		return 0, err
	}
	if len(refused) > 0 {
		r := refused[0]
		return len(done), fmt.Errorf("writing %s: %s", path.Join(filepath.ToSlash(root), r.Path), r.Why)
	}
	return len(done), nil
}

// byline is the plain-text credit for a post whose author keys no authors file resolved, or
// that credits several people (each with the affiliation or link written beside them).
func byline(post *Post) string {
	if post.Author == "" && len(post.AuthorKeys) > 0 && len(post.authorEntries) <= 1 {
		return strings.Join(post.AuthorKeys, ", ")
	}
	if len(post.authorEntries) == 1 && post.authorEntries[0].credit {
		return post.authorEntries[0].text
	}
	if len(post.authorEntries) < 2 {
		return ""
	}
	var parts []string
	for _, e := range post.authorEntries {
		if e.note != "" {
			parts = append(parts, e.text+" ("+e.note+")")
		} else {
			parts = append(parts, e.text)
		}
	}
	return strings.Join(parts, ", ")
}

// allBelow reports whether there are posts and every one is below the site's folder dir.
func allBelow(posts []*Post, s *Site, dir string) bool {
	for _, p := range posts {
		if !strings.HasPrefix(siteRel(p, s), dir+"/") {
			return false
		}
	}
	return len(posts) > 0
}
