package generate

import (
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// FuzzStripMDX runs a post body through everything gen does to its text — StripMDX, the
// paragraphs, the outline, the description and the title cleaning — and the whole post parser,
// with YAML and with TOML frontmatter. Flatten and the line readers must give what the regular
// expressions they replaced gave (flatten_ref_test.go, lines_test.go), stripTags and
// stripTemplates what they gave before boundedScan (mdx_ref_test.go), stripCallouts and
// FirstSentence what they gave before they became linear (hostile_ref_test.go; FirstSentence may
// differ only where a closing curly quote now ends the sentence).
// None may panic, and valid UTF-8 in gives valid UTF-8 out. Seeds: testdata/fuzz/FuzzStripMDX.
func FuzzStripMDX(f *testing.F) {
	for _, s := range []string{
		"import A from './a'\n\n:::note\nx\n:::\n\n> [!NOTE]\n> y\n\nText _em_ ~~no~~ <Callout>c</Callout> {x}.",
		"<details><summary>s</summary>\n\nd\n</details>\n\n{{< notice >}}n{{< /notice >}}",
		"```js\n<Foo />\n```\n\n$$\nx\n$$\n\n<!-- c -->",
		"title = 'x'\ndate = 2024-01-01\n[params]\nauthor = { name = 'a', tags = [[1], [2]] }",
		"{% highlight go %}x{% endhighlight %} {{ a }} {# c #} ## H {#id} :icon{name=\"x\"} :b[t]{c} {: .x}",
		"::important{a=\"b\"}\nx\n::\n\n{% note() %}\ny\n{% end %}\n[A](https://a) (IBM), B and C",
	} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, body string, mdx bool) {
		// The scanner Flatten is gives the bytes of the regular expressions it replaced.
		if got, want := Flatten(body), flattenRE(body); got != want {
			t.Fatalf("Flatten(%q) = %q, the regular expressions gave %q", body, got, want)
		}
		if d, line := bodyLineMismatch(body); d != "" {
			t.Fatalf("%s(%q) differs from its regular expression", d, line)
		}
		if got, want := stripTags(body, mdx), refStripTags(body, mdx); got != want {
			t.Fatalf("stripTags(%q, %v) = %q, before boundedScan %q", body, mdx, got, want)
		}
		if got, want := stripTemplates(body), refStripTemplates(body); got != want {
			t.Fatalf("stripTemplates(%q) = %q, before boundedScan %q", body, got, want)
		}
		if got, want := stripCallouts(body), refStripCallouts(body); got != want {
			t.Fatalf("stripCallouts(%q) = %q, before %q", body, got, want)
		}
		if got, want := FirstSentence(body), refFirstSentence(body); got != want && !strings.ContainsAny(body, "’”") {
			t.Fatalf("FirstSentence(%q) = %q, before %q", body, got, want)
		}
		out := StripMDX(body, mdx)
		paras := Paragraphs(out)
		_ = Outline(out)
		title := CleanInline(body, mdx)
		var desc string
		if len(paras) > 0 {
			desc = Describe(paras[0], DefaultDescriptionLength)
			_ = Cut(paras[0], SummaryLength)
		}
		if utf8.ValidString(body) {
			for name, s := range map[string]string{"StripMDX": out, "CleanInline": title, "Describe": desc} {
				if !utf8.ValidString(s) {
					t.Fatalf("%s made invalid UTF-8 from valid input %q: %q", name, body, s)
				}
			}
		}
		_, _ = ParsePost("p.mdx", []byte("---\ntitle: "+strings.ReplaceAll(body, "\n", " ")+"\n---\n"+body), Engines["docusaurus"])
		_, _ = ParsePost("p.md", []byte("+++\n"+body+"\n+++\n"+body), Engines["hugo"]) // the TOML reader too
		// Each engine's own URL rules, and the authors line reader.
		for _, eng := range []string{"jekyll", "zola", "eleventy", "nuxt", "vitepress"} {
			p, _ := ParsePost("_posts/2024-01-02-"+strings.ReplaceAll(body, "/", "")+".md", []byte("---\npermalink: "+strings.ReplaceAll(body, "\n", " ")+"\n---\n"), Engines[eng])
			if p != nil {
				_ = siteURLs[eng](p, &Site{Engine: eng, Jekyll: &jekyllConfig{Permalink: body}})
			}
		}
		_, _, _ = readAuthorList(&yaml.Node{Kind: yaml.ScalarNode, Value: body}, false)
		// Translations by file name, Hugo's and Nuxt's path sanitizing.
		for _, eng := range []string{"hugo", "zola"} {
			name := "content/posts/" + strings.ReplaceAll(body, "/", "") + ".fr.md"
			if p, _ := ParsePost(name, []byte("---\nslug: "+strings.ReplaceAll(body, "\n", " ")+"\n---\n"), Engines[eng]); p != nil {
				_ = siteURLs[eng](p, &Site{Engine: eng, Root: "/site", PostsRel: ".", Languages: map[string]string{"fr": "fr", "en": ""}, DefaultLang: "en"})
			}
		}
		if s := hugoMakePath(body, true); utf8.ValidString(body) && !utf8.ValidString(s) {
			t.Fatalf("hugoMakePath made invalid UTF-8 from %q", body)
		}
		_ = nuxtPart(body)
	})
}

// FuzzYAMLText: any valid UTF-8 text gen writes into frontmatter (a title, a description) reads
// back unchanged, emoji and all: unescapeAstral never breaks what yaml.v3 wrote.
func FuzzYAMLText(f *testing.F) {
	for _, s := range []string{"MDX Blog Post 🎣", "한국어 🚀 Tiếng Việt", `a "quoted" \U0001F3A3 text`, "x: 🎣\n# 😀", "- 🎣", "'🎣'", "\t🎣\x01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		y := encodeYAML(mapping(0, str("title"), str(s), str("tags"), &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: []*yaml.Node{str(s)}}))
		var back struct {
			Title string   `yaml:"title"`
			Tags  []string `yaml:"tags"`
		}
		if err := yaml.Unmarshal(y, &back); err != nil {
			t.Fatalf("%q wrote YAML that does not parse: %v\n%s", s, err, y)
		}
		if back.Title != s || len(back.Tags) != 1 || back.Tags[0] != s {
			t.Fatalf("%q read back as %q / %q\n%s", s, back.Title, back.Tags, y)
		}
	})
}

// BenchmarkStripMDXHostile measures StripMDX on 1 MB posts made of one construct that opens and
// never closes. Each used to rescan the rest of the post (a 200 KB post of "<a " took 90 s); the
// scan budget in stripTags keeps them linear: compare ns/op across sizes with -bench.
func BenchmarkStripMDXHostile(b *testing.B) {
	for _, p := range []string{"<a ", "<a b='", "{", "``a", "![", "[a](", "<Callout>", ":::note\n", "{{< notice >}}",
		"{%", "{% note %}", "{% note %}{%", "{{", "{#", "{# ", ":a[", ":a{", "::x\n", "{:"} {
		s := strings.Repeat(p, (1<<20)/len(p))
		b.Run(p, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				_ = Paragraphs(StripMDX(s, true))
			}
		})
	}
}
