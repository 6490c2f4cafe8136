package generate

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/okf-tools/okf/okf"
	"go.yaml.in/yaml/v3"
)

// Post is one blog post read from the content repository: the frontmatter fields gen uses and its
// text with MDX removed.
type Post struct {
	// Path is the slash path of the file below the posts directory.
	Path string
	Slug string
	// Title, Description, Author are the frontmatter values as text ("" when absent).
	Title, Description, Author string
	Tags                       []string
	Draft                      bool
	// Date is the post's last change: `updated`/`lastmod`/`last_modified`, else `date`, else the
	// file's modification time (FromFile); zero when none is known.
	Date     time.Time
	FromFile bool
	// Text is the body with MDX removed (StripMDX).
	Text string
}

// PostProblem is a post that could not be read; the run goes on without it.
type PostProblem struct {
	Pos     okf.Position
	Message string
}

// String renders the problem as path:line:col: message.
func (p PostProblem) String() string { return p.Pos.String() + ": " + p.Message }

// ReadPosts reads every .md and .mdx file below fsys (the posts directory), keyed by slug. A post
// whose slug another post already has is reported and left out (the first by path wins).
func ReadPosts(fsys fs.FS) (map[string]*Post, []PostProblem, error) {
	var paths []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if p != "." && strings.HasPrefix(name, ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.IsDir() && (strings.HasSuffix(name, ".md") || strings.HasSuffix(name, ".mdx")) {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(paths)
	posts := map[string]*Post{}
	var problems []PostProblem
	for _, p := range paths {
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			problems = append(problems, PostProblem{Pos: okf.Position{Path: p}, Message: err.Error()})
			continue
		}
		var mod time.Time
		if fi, err := fs.Stat(fsys, p); err == nil {
			mod = fi.ModTime()
		}
		post, prob := ParsePost(p, src, mod)
		if prob != nil {
			problems = append(problems, *prob)
			continue
		}
		if prev, dup := posts[post.Slug]; dup {
			problems = append(problems, PostProblem{Pos: okf.Position{Path: p},
				Message: fmt.Sprintf("slug %q is already used by %q; this post is left out", post.Slug, prev.Path)})
			continue
		}
		posts[post.Slug] = post
	}
	return posts, problems, nil
}

// ParsePost reads one post. p is its slash path (for positions and the fallback slug) and mod its
// file modification time (the date of last resort).
func ParsePost(p string, src []byte, mod time.Time) (*Post, *PostProblem) {
	sp := okf.SplitFrontmatter(src)
	post := &Post{Path: p}
	fields := map[string]*yaml.Node{}
	switch sp.Status {
	case okf.Unterminated:
		return nil, &PostProblem{Pos: okf.Position{Path: p, Line: 1, Col: 1}, Message: "frontmatter never closes: expected a line with exactly ---"}
	case okf.FrontmatterOK:
		var doc yaml.Node
		if err := yaml.Unmarshal(sp.YAML, &doc); err != nil {
			return nil, &PostProblem{Pos: okf.Position{Path: p, Line: sp.YAMLLine, Col: 1}, Message: "frontmatter is not valid YAML: " + err.Error()}
		}
		if len(doc.Content) > 0 {
			top := doc.Content[0]
			if top.Kind != yaml.MappingNode {
				return nil, &PostProblem{Pos: okf.Position{Path: p, Line: sp.YAMLLine, Col: 1}, Message: "frontmatter is not a mapping of keys to values"}
			}
			for i := 0; i+1 < len(top.Content); i += 2 {
				fields[strings.ToLower(top.Content[i].Value)] = top.Content[i+1]
			}
		}
	}
	text := func(key string) string {
		if n := fields[key]; n != nil && n.Kind == yaml.ScalarNode && n.Tag != "!!null" {
			return strings.TrimSpace(n.Value)
		}
		return ""
	}
	post.Slug = text("slug")
	if post.Slug == "" {
		post.Slug = slugFromPath(p)
	}
	post.Title = Flatten(text("title"))
	post.Description = text("description")
	if post.Description == "" {
		post.Description = text("summary")
	}
	post.Author = authorOf(fields["author"])
	if post.Author == "" {
		post.Author = authorOf(fields["authors"])
	}
	post.Tags = tagsOf(fields["tags"])
	if n := fields["draft"]; n != nil && n.Kind == yaml.ScalarNode {
		post.Draft = n.Value == "true" || n.Value == "True" || n.Value == "TRUE"
	}
	for _, key := range []string{"updated", "lastmod", "last_modified", "modified", "date"} {
		if t, form := okf.ParseTimestamp(text(key)); form == okf.Full || form == okf.DateOnly || form == okf.NoOffset {
			post.Date = t
			break
		}
	}
	if post.Date.IsZero() && !mod.IsZero() {
		post.Date, post.FromFile = mod.UTC().Truncate(time.Second), true
	}
	post.Text = StripMDX(string(sp.Body), strings.HasSuffix(p, ".mdx"))
	return post, nil
}

// slugFromPath is the file name without its extension, or the folder name for an index file
// (posts/hello/index.mdx is "hello").
func slugFromPath(p string) string {
	base := path.Base(p)
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".mdx"), ".md")
	if (base == "index" || base == "README") && path.Dir(p) != "." {
		return path.Base(path.Dir(p))
	}
	return base
}

// authorOf reads `author`: a name, a list of names (the first is used), or a mapping with `name`.
func authorOf(n *yaml.Node) string {
	if n == nil {
		return ""
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return ""
		}
		return strings.TrimSpace(n.Value)
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if a := authorOf(c); a != "" {
				return a
			}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i].Value; k == "name" || k == "id" {
				return authorOf(n.Content[i+1])
			}
		}
	}
	return ""
}

// tagsOf reads `tags`: a list of strings, or one comma-separated string.
func tagsOf(n *yaml.Node) []string {
	if n == nil {
		return nil
	}
	var raw []string
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag != "!!null" {
			raw = strings.Split(n.Value, ",")
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if c.Kind == yaml.ScalarNode {
				raw = append(raw, c.Value)
			}
		}
	}
	var tags []string
	seen := map[string]bool{}
	for _, t := range raw {
		t = strings.TrimSpace(t)
		if t != "" && !seen[t] {
			seen[t] = true
			tags = append(tags, t)
		}
	}
	return tags
}

var actorIDRE = regexp.MustCompile(`[^\p{L}\p{N}._-]+`)

// Actor turns a post's author into an actor (§7): a value already in actor form (human:…,
// process:…, team:…, producer/version) is kept; a name becomes human:<id>, the name lowercased with
// runs of other characters replaced by "-" ("Ada Lovelace" is human:ada-lovelace). "" when there is
// nothing usable.
func Actor(author string) string {
	author = strings.TrimSpace(author)
	if author == "" {
		return ""
	}
	if okf.ClassifyActor(author) != okf.ActorUnknown {
		return author
	}
	id := strings.Trim(actorIDRE.ReplaceAllString(strings.ToLower(author), "-"), "-._")
	if id == "" || !strings.ContainsFunc(id, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		return ""
	}
	return "human:" + id
}
