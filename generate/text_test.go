package generate

import (
	"errors"
	"github.com/okf-tools/okf/okf"
	"strings"
	"testing"
	"time"
)

func TestStripMDX(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		md             bool
	}{
		{"imports and exports", "import A from './a'\nimport {\n  B,\n  C,\n} from './b'\nexport const meta = {\n  x: 1,\n}\nexport default function Layout() { return null }\n\nText.", "Text.", false},
		{"jsx keeps text children", "<Box type=\"warn\" title='x > y'>\nKeep **this**.\n</Box>", "Keep **this**.", false},
		{"callouts dropped whole", "<Callout type=\"warn\">\nBuy **this**.\n</Callout>\n\nProse.\n\n<details>\n<summary>More</summary>\nHidden.\n</details>\n\nEnd.", "Prose.\n\nEnd.", false},
		{"unclosed callout keeps its text", "<Note>\nStill text.", "Still text.", false},
		{"admonitions dropped whole", ":::note[Heads up]\nA callout.\n\n::::tip\nNested.\n::::\n:::\n\nThe prose.", "The prose.", false},
		{"hugo shortcodes", "{{< figure src=\"a.png\" >}}\n\n{{% notice tip %}}\nA tip.\n{{% /notice %}}\n\nText {{< kbd \"Ctrl\" >}} here.", "Text  here.", true},
		{"github alerts dropped whole", "> [!WARNING]\n> Careful **now**.\n>\n> Still the alert.\nThe prose.\n\n> A real quote.", "The prose.\n\n> A real quote.", true},
		{"self-closing over lines", "Before.\n\n<Chart\n  data={[1, 2]}\n  label=\"a > b\"\n/>\n\nAfter.", "Before.\n\nAfter.", false},
		{"inline jsx", "Use <Kbd>Ctrl</Kbd>+<Kbd>C</Kbd> to copy.", "Use Ctrl+C to copy.", false},
		{"fragments", "<>\nInside.\n</>", "Inside.", false},
		{"code fences", "A.\n\n```js\n<Foo />\n# not a heading\n```\n\n~~~~\ncode\n~~~~\n\nB.", "A.\n\nB.", false},
		{"inline code kept", "Write `<Foo>` and ``a ` b``.", "Write `<Foo>` and ``a ` b``.", false},
		{"math", "Cost $$O(n)$$ here.\n\n$$\nx^2\n$$\n\n$$ y $$\n\nEnd.", "Cost  here.\n\nEnd.", false},
		{"html comments", "A <!-- hidden --> B.\n\n<!--\nmulti\nline\n-->\nC.", "A  B.\n\nC.", false},
		{"mdx comments and expressions", "A {/* note */} B {props.name} C.", "A  B  C.", false},
		{"autolinks kept", "See <https://example.com/x> or <me@example.com>.", "See https://example.com/x or me@example.com.", false},
		{"less-than in prose", "a < b and 3<4.", "a < b and 3<4.", false},
		{"markdown keeps braces and import prose", "import this, said Tim.\n\nSets {a, b}.", "import this, said Tim.\n\nSets {a, b}.", true},
		{"markdown strips html", "Some <em>emphasis</em>.", "Some emphasis.", true},
		{"crlf", "import X from 'x'\r\n\r\nText.\r\n", "Text.", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := StripMDX(tc.in, !tc.md); got != tc.want {
				t.Errorf("StripMDX(%q) =\n%q\nwant\n%q", tc.in, got, tc.want)
			}
		})
	}
}

func TestFirstSentence(t *testing.T) {
	for in, want := range map[string]string{
		"One. Two.":                        "One.",
		"Is it? Yes.":                      "Is it?",
		"Version 3.5 is out. Really.":      "Version 3.5 is out.",
		"See example.com today. Then go.":  "See example.com today.",
		"Use e.g. this one. Or that.":      "Use e.g. this one.",
		"Kaffee, z.B. Gouda. Neu.":         "Kaffee, z.B. Gouda.",
		"By J. R. R. Tolkien. Yes.":        "By J. R. R. Tolkien.",
		"He said \"stop.\" Then left.":     "He said \"stop.\"",
		"喫茶店の文化は長い。次の文。":                   "喫茶店の文化は長い。",
		"No end mark":                      "No end mark",
		"  Spaces\n across   lines. Next.": "Spaces across lines.",
	} {
		if got := FirstSentence(in); got != want {
			t.Errorf("FirstSentence(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCut(t *testing.T) {
	if got := Cut("short text", 200); got != "short text" {
		t.Errorf("fits: %q", got)
	}
	exact := strings.Repeat("a", 200)
	if got := Cut(exact, 200); got != exact {
		t.Errorf("exactly 200 characters must not be cut")
	}
	if got := Cut("one two three four", 12); got != "one two…" {
		t.Errorf("word boundary: %q, want %q", got, "one two…")
	}
	if got := Cut("one, two, three", 10); got != "one, two…" {
		t.Errorf("trailing comma dropped: %q", got)
	}
	if got := Cut("日本語の長い文章です", 5); got != "日本語の…" {
		t.Errorf("no spaces: %q", got)
	}
	if got := Cut("Ünïcödé wörds everywhere", 14); got != "Ünïcödé wörds…" || len([]rune(got)) > 14 {
		t.Errorf("runes, not bytes: %q", got)
	}
}

func TestFlatten(t *testing.T) {
	in := "A [link](https://x) and ![img](i.png) with **bold**, *em*, ~~gone~~ text[^1] and `co*de*` snake_case_name \\*not em\\* C:\\dir."
	want := "A link and with bold, em, text and `co*de*` snake_case_name *not em* C:\\dir."
	if got := Flatten(in); got != want {
		t.Errorf("Flatten =\n%q\nwant\n%q", got, want)
	}
}

func TestFlattenUnderscores(t *testing.T) {
	for in, want := range map[string]string{
		"_one_ and _two_ words":            "one and two words",
		"keep snake_case_name and a_b":     "keep snake_case_name and a_b",
		"__strong__ then _em_.":            "strong then em.",
		"before ~~withdrawn claim~~ after": "before after",
	} {
		if got := Flatten(in); got != want {
			t.Errorf("Flatten(%q) = %q, want %q", in, got, want)
		}
	}
	if got := CleanInline("Use `useEffect` &amp; <b>hooks</b> 🎣", true); got != "Use useEffect & hooks 🎣" {
		t.Errorf("CleanInline = %q", got)
	}
}

func TestOutlineAndParagraphs(t *testing.T) {
	md := "Intro line one\ncontinues here.\n\n# Title #\n\n> Quoted words.\n\nSetext\n------\n\n* a list\n\n| a | b |\n\n## [Linked](x) *heading*\n\nLast para.\n\n[^1]: a note\n"
	wantOutline := []OutlineItem{{1, "Title"}, {2, "Setext"}, {2, "Linked heading"}}
	got := Outline(md)
	if len(got) != len(wantOutline) {
		t.Fatalf("Outline = %v, want %v", got, wantOutline)
	}
	for i := range got {
		if got[i] != wantOutline[i] {
			t.Errorf("Outline[%d] = %v, want %v", i, got[i], wantOutline[i])
		}
	}
	paras := Paragraphs(md)
	want := []string{"Intro line one continues here.", "Quoted words.", "Last para."}
	if strings.Join(paras, "|") != strings.Join(want, "|") {
		t.Errorf("Paragraphs = %q, want %q", paras, want)
	}
}

func TestDescribe(t *testing.T) {
	if got := Describe("**Lifetimes** tell the [checker](x) things. More.", 200); got != "Lifetimes tell the checker things." {
		t.Errorf("Describe = %q", got)
	}
}

func TestParsePost(t *testing.T) {
	generic := Engines["generic"]
	for _, tc := range []struct {
		path, src string
		check     func(t *testing.T, p *Post)
	}{
		{"blog/hello/index.mdx", "---\ntitle: Hi\n---\nBody.", func(t *testing.T, p *Post) {
			if p.Slug != "hello" || p.URLPath != "blog/hello" {
				t.Errorf("slug %q path %q, want the folder name and blog/hello", p.Slug, p.URLPath)
			}
			if !p.Date.IsZero() || p.DateFrom != "" {
				t.Errorf("date %v from %q: a post without a date has none (never the file's time)", p.Date, p.DateFrom)
			}
		}},
		{"x/my-post.md", "---\nauthors: [Ada, Bob]\ntags: \"a, b, a\"\ndraft: true\ndate: 2026-01-02\nlastmod: 2026-02-03T04:05:06\n---\nBody.", func(t *testing.T, p *Post) {
			if p.Slug != "my-post" || p.Author != "Ada" || strings.Join(p.Tags, ",") != "a,b" || !p.Draft {
				t.Errorf("got %+v", p)
			}
			if !p.Date.Equal(time.Date(2026, 2, 3, 4, 5, 6, 0, time.UTC)) || p.DateFrom != "frontmatter lastmod" {
				t.Errorf("date %v from %q, want lastmod read as UTC", p.Date, p.DateFrom)
			}
			if !p.Published.Equal(time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)) {
				t.Errorf("published %v, want date", p.Published)
			}
		}},
		{"no-frontmatter.mdx", "Just text.", func(t *testing.T, p *Post) {
			if p.Slug != "no-frontmatter" || p.Text != "Just text." || p.HasFrontmatter {
				t.Errorf("got %+v", p)
			}
		}},
		{"2024-03-05-named.md", "---\ntitle: x\n---\n", func(t *testing.T, p *Post) {
			// The generic engine keeps the date in the slug but reads it as the date.
			if p.Slug != "2024-03-05-named" || !p.Date.Equal(time.Date(2024, 3, 5, 0, 0, 0, 0, time.UTC)) || p.DateFrom != "file name" {
				t.Errorf("slug %q date %v from %q", p.Slug, p.Date, p.DateFrom)
			}
		}},
		{"a.md", "---\npubDate: 2024-05-01\nupdatedDate: 2024-04-01\n---\n", func(t *testing.T, p *Post) {
			if !p.Date.Equal(time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)) || len(p.Warnings) != 1 ||
				p.Warnings[0].String() != "a.md:3:1: updateddate 2024-04-01T00:00:00Z is before the publish date 2024-05-01T00:00:00Z; ignored" {
				t.Errorf("date %v warnings %v: an update before the publish date is ignored with a warning", p.Date, p.Warnings)
			}
		}},
		{"b.md", "---\ndate: next tuesday\nlast_update:\n  date: 2025-01-01T10:00:00+02:00\n---\n", func(t *testing.T, p *Post) {
			if !p.Date.Equal(time.Date(2025, 1, 1, 8, 0, 0, 0, time.UTC)) || len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0].Message, `"next tuesday" is not a date`) {
				t.Errorf("date %v warnings %v", p.Date, p.Warnings)
			}
		}},
	} {
		p, prob := ParsePost(tc.path, []byte(tc.src), generic)
		if prob != nil {
			t.Fatalf("%s: %s", tc.path, prob)
		}
		tc.check(t, p)
	}
	_, prob := ParsePost("bad.mdx", []byte("---\ntitle: [unclosed\n---\n"), generic)
	if prob == nil || prob.Pos.String() != "bad.mdx:2:1" || !strings.Contains(prob.Message, "not valid YAML") {
		t.Errorf("bad YAML: %v", prob)
	}
	_, prob = ParsePost("open.mdx", []byte("---\ntitle: x\n"), generic)
	if prob == nil || !strings.Contains(prob.Message, "never closes") {
		t.Errorf("unterminated: %v", prob)
	}
}

// TestTOMLFrontmatter: Hugo's +++ TOML frontmatter is read like YAML; an unclosed or invalid block,
// or one nesting deeper than maxTOMLDepth (the parser recurses per level), is a problem, not a
// crash.
func TestTOMLFrontmatter(t *testing.T) {
	hugo := Engines["hugo"]
	p, prob := ParsePost("a.md", []byte("+++\ntitle = 'Tiếng Việt _x_'\ndate = 2024-06-01T10:00:00+02:00\nlastmod = 2024-01-01\ntags = ['a', 'b']\ndraft = true\n+++\nBody.\n"), hugo)
	if prob != nil {
		t.Fatal(prob)
	}
	if p.Title != "Tiếng Việt x" || strings.Join(p.Tags, ",") != "a,b" || !p.Draft || FormatTime(p.Date) != "2024-06-01T08:00:00Z" || p.Text != "Body." {
		t.Errorf("got %+v", p)
	}
	if len(p.Warnings) != 1 || p.Warnings[0].Pos.String() != "a.md:4:1" {
		t.Errorf("warnings %v, want the lastmod line", p.Warnings)
	}
	for src, want := range map[string]string{
		"+++\ntitle = 'x'\n":                                  "a.md:1:1: TOML frontmatter never closes",
		"+++\ntitle = 'x'\nbad line\n+++\n":                   "a.md:3:1: frontmatter is not valid TOML",
		"+++\nx = " + strings.Repeat("[", 100000) + "\n+++\n": "a.md:2:1: TOML frontmatter nests deeper than 32 levels",
	} {
		if _, prob := ParsePost("a.md", []byte(src), hugo); prob == nil || !strings.HasPrefix(prob.String(), want) {
			t.Errorf("%.40q: %v, want %s", src, prob, want)
		}
	}
}

// TestNameParts: Docusaurus moves a leading date into the URL as YYYY/MM/DD and out of the slug
// (parseBlogFileName in its blog plugin); a frontmatter slug replaces the whole path there, and
// only the last part elsewhere.
func TestNameParts(t *testing.T) {
	docu := Engines["docusaurus"]
	for _, tc := range []struct{ path, slug, urlPath, date string }{
		{"2021-08-01-mdx-blog-post.mdx", "mdx-blog-post", "2021/08/01/mdx-blog-post", "2021-08-01"},
		{"2021-08-26-welcome/index.md", "welcome", "2021/08/26/welcome", "2021-08-26"},
		{"2022/3/4/deep.md", "deep", "2022/03/04/deep", "2022-03-04"},
		{"releases/2023-01-02-v1.md", "v1", "releases/2023/01/02/v1", "2023-01-02"},
		{"guides/intro.md", "intro", "guides/intro", ""},
		{"2023-13-45-not-a-date.md", "2023-13-45-not-a-date", "2023-13-45-not-a-date", ""},
	} {
		slug, p, d := nameParts(tc.path, docu)
		ds := ""
		if !d.IsZero() {
			ds = d.Format("2006-01-02")
		}
		if slug != tc.slug || p != tc.urlPath || ds != tc.date {
			t.Errorf("%s: slug %q path %q date %q, want %q %q %q", tc.path, slug, p, ds, tc.slug, tc.urlPath, tc.date)
		}
	}
	post, _ := ParsePost("2021-08-26-welcome/index.md", []byte("---\nslug: /hello-there\n---\n"), docu)
	if post.Slug != "hello-there" || post.URLPath != "hello-there" {
		t.Errorf("docusaurus slug: %q %q", post.Slug, post.URLPath)
	}
	post, _ = ParsePost("a.md", []byte("---\nslug: ../../x/./y/\n---\n"), docu)
	if post.Slug != "y" || post.URLPath != "x/y" {
		t.Errorf("a slug cannot climb out of the site: %q %q", post.Slug, post.URLPath)
	}
	post, _ = ParsePost("tech/first.md", []byte("---\nslug: premier\n---\n"), Engines["hugo"])
	if post.Slug != "premier" || post.URLPath != "tech/premier" {
		t.Errorf("hugo slug: %q %q", post.Slug, post.URLPath)
	}
}

func TestActor(t *testing.T) {
	for in, want := range map[string]string{
		"Ada Lovelace":     "human:ada-lovelace",
		"Zoë Ōkubo":        "human:zoë-ōkubo",
		"human:ada":        "human:ada",
		"team:docs":        "team:docs",
		"ci-bot/1.2":       "ci-bot/1.2",
		"  ":               "",
		"!!!":              "",
		"O'Brien, Jr.":     "human:o-brien-jr",
		"process:nightly ": "process:nightly",
	} {
		if got := Actor(in); got != want {
			t.Errorf("Actor(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestConceptMap(t *testing.T) {
	specs, err := ParseConceptMap([]byte("concepts:\n  b: slug-b\n  a:\n    post: slug-a\n    type: Guide\n    title: A\n    tags: [x]\n  c: {}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(specs) != 3 || specs[0].Name != "a" || specs[0].Slug != "slug-a" || specs[0].Type != "Guide" || !specs[0].HasTags ||
		specs[1].Slug != "slug-b" || specs[2].Slug != "c" {
		t.Errorf("specs = %+v", specs)
	}
	for src, want := range map[string]string{
		"a: {post: x, colour: red}": `unknown key "colour"`,
		"../a: x":                   "expected path parts",
		"- a":                       "expected a mapping",
		"a: [x]":                    "expected a post slug",
		"a: [":                      "not valid YAML",
	} {
		if _, err := ParseConceptMap([]byte(src)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseConceptMap(%q) = %v, want %q", src, err, want)
		}
	}
}

func TestConfig(t *testing.T) {
	cfg, err := ParseConfig("okf-gen.yaml", []byte("posts: content/posts\nsite: https://x\ndescription-length: 120\nall: true\nconcepts:\n  a: b\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Posts != "content/posts" || cfg.Site != "https://x" || *cfg.DescriptionLength != 120 || !*cfg.All || len(cfg.Concepts) != 1 {
		t.Errorf("cfg = %+v", cfg)
	}
	cfg, err = ParseConfig("okf-gen.yaml", []byte("concepts: map.yaml\n"))
	if err != nil || cfg.ConceptsFile != "map.yaml" {
		t.Errorf("concepts as a path: %+v %v", cfg, err)
	}
	// Every problem of the file, each at its own line and column, with a "did you mean" when a
	// valid word is close, and never a Go type.
	for _, c := range []struct{ src, want string }{
		{"# okf gen\nsite: https://x\npost: x\n", `okf-gen.yaml:3:1: unknown key "post"; did you mean "posts"?`},
		{"site: https://x\nzzzzzz: x\n", `okf-gen.yaml:2:1: unknown key "zzzzzz"; valid keys: actor, all, authors, concepts, description_length, engine,`},
		{"site: https://x\n\nall: yes please\n", `okf-gen.yaml:3:6: all: expected true or false`},
		{"engine: nextjss\n", `okf-gen.yaml:1:9: engine: "nextjss": expected one of astro, docusaurus, eleventy, gatsby, generic, hugo, jekyll, nextjs, nuxt, remix, vitepress, zola; did you mean "nextjs"?`},
		{"group-by: tpye\n", `okf-gen.yaml:1:11: group-by: "tpye": expected "directory" or "type"; did you mean "type"?`},
		{"posts: [\n", `okf-gen.yaml:1: not valid YAML: `},
		{"postz: x\nall: maybe\n", "okf-gen.yaml:1:1: unknown key \"postz\"; did you mean \"posts\"?\nokf-gen.yaml:2:6: all: expected true or false"},
	} {
		_, err := ParseConfig("okf-gen.yaml", []byte(c.src))
		var ce *okf.ConfigError
		if !errors.As(err, &ce) || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "generate.Config") {
			t.Errorf("ParseConfig(%q) = %v, want %s", c.src, err, c.want)
		}
	}
}

func TestConceptPath(t *testing.T) {
	if p, err := ConceptPath(DefaultLayout, "rust/own", "s"); err != nil || p != "concepts/rust/own.md" {
		t.Errorf("got %q %v", p, err)
	}
	if p, err := ConceptPath("{slug}.md", "n", "café"); err != nil || p != "café.md" {
		t.Errorf("got %q %v", p, err)
	}
	for _, l := range []string{"{name}.txt", "../{name}.md", "/abs/{name}.md", ".hidden/{name}.md", "{name}/log.md", "a//{name}.md"} {
		if _, err := ConceptPath(l, "n", "s"); err == nil {
			t.Errorf("layout %q accepted", l)
		}
	}
}

func TestPostURL(t *testing.T) {
	if got := PostURL("{site}/blog/{slug}/", "https://x.example/", "café au/lait"); got != "https://x.example/blog/caf%C3%A9%20au/lait/" {
		t.Errorf("PostURL = %q", got)
	}
}
