package generate

import (
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
		{"jsx keeps text children", "<Callout type=\"warn\" title='x > y'>\nKeep **this**.\n</Callout>", "Keep **this**.", false},
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
	want := "A link and with bold, em, gone text and `co*de*` snake_case_name *not em* C:\\dir."
	if got := Flatten(in); got != want {
		t.Errorf("Flatten =\n%q\nwant\n%q", got, want)
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
	mod := time.Date(2026, 5, 1, 10, 0, 0, 500, time.UTC)
	for _, tc := range []struct {
		path, src string
		check     func(t *testing.T, p *Post)
	}{
		{"blog/hello/index.mdx", "---\ntitle: Hi\n---\nBody.", func(t *testing.T, p *Post) {
			if p.Slug != "hello" {
				t.Errorf("slug %q, want the folder name", p.Slug)
			}
			if !p.FromFile || !p.Date.Equal(mod.Truncate(time.Second)) {
				t.Errorf("date %v from file %v, want the file time", p.Date, p.FromFile)
			}
		}},
		{"x/my-post.md", "---\nauthors: [Ada, Bob]\ntags: \"a, b, a\"\ndraft: true\ndate: 2026-01-02\nlastmod: 2026-02-03T04:05:06\n---\nBody.", func(t *testing.T, p *Post) {
			if p.Slug != "my-post" || p.Author != "Ada" || strings.Join(p.Tags, ",") != "a,b" || !p.Draft {
				t.Errorf("got %+v", p)
			}
			if !p.Date.Equal(time.Date(2026, 2, 3, 4, 5, 6, 0, time.UTC)) || p.FromFile {
				t.Errorf("date %v, want lastmod read as UTC", p.Date)
			}
		}},
		{"no-frontmatter.mdx", "Just text.", func(t *testing.T, p *Post) {
			if p.Slug != "no-frontmatter" || p.Text != "Just text." {
				t.Errorf("got %+v", p)
			}
		}},
	} {
		p, prob := ParsePost(tc.path, []byte(tc.src), mod)
		if prob != nil {
			t.Fatalf("%s: %s", tc.path, prob)
		}
		tc.check(t, p)
	}
	_, prob := ParsePost("bad.mdx", []byte("---\ntitle: [unclosed\n---\n"), mod)
	if prob == nil || prob.Pos.String() != "bad.mdx:2:1" || !strings.Contains(prob.Message, "not valid YAML") {
		t.Errorf("bad YAML: %v", prob)
	}
	_, prob = ParsePost("open.mdx", []byte("---\ntitle: x\n"), mod)
	if prob == nil || !strings.Contains(prob.Message, "never closes") {
		t.Errorf("unterminated: %v", prob)
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
	cfg, err := ParseConfig([]byte("posts: content/posts\nsite: https://x\ndescription-length: 120\nall: true\nconcepts:\n  a: b\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Posts != "content/posts" || cfg.Site != "https://x" || *cfg.DescriptionLength != 120 || !*cfg.All || len(cfg.Concepts) != 1 {
		t.Errorf("cfg = %+v", cfg)
	}
	cfg, err = ParseConfig([]byte("concepts: map.yaml\n"))
	if err != nil || cfg.ConceptsFile != "map.yaml" {
		t.Errorf("concepts as a path: %+v %v", cfg, err)
	}
	if _, err := ParseConfig([]byte("post: x\n")); err == nil || !strings.Contains(err.Error(), "field post not found") {
		t.Errorf("unknown key: %v", err)
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
