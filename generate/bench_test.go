package generate

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// benchBodies are the bodies of real Markdown and MDX: every fixture blog's posts
// (testdata/blogs, testdata/content, written in each engine's style with its callouts, shortcodes,
// templates and JSX) and the concepts of the real bundles in testdata/corpus (prose, tables, code
// and links other people wrote).
func benchBodies(tb testing.TB) (fixtures, corpus []string) {
	read := func(root string, into *[]string) {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !slices.Contains([]string{".md", ".mdx", ".markdown"}, filepath.Ext(p)) {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			s := strings.ReplaceAll(string(b), "\r\n", "\n")
			for _, delim := range []string{"---\n", "+++\n"} { // drop the frontmatter
				if strings.HasPrefix(s, delim) {
					if end := strings.Index(s[len(delim):], "\n"+delim); end >= 0 {
						s = s[len(delim)+end+1+len(delim):]
					}
				}
			}
			*into = append(*into, s)
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
	read(filepath.Join("..", "testdata", "blogs"), &fixtures)
	read(filepath.Join("..", "testdata", "content"), &fixtures)
	read(filepath.Join("..", "testdata", "corpus"), &corpus)
	return fixtures, corpus
}

// writeBenchBlog writes a Docusaurus blog of n posts made by repeating real posts: post i is
// one corpus concept's body followed by four fixture posts, so every post mixes long real prose
// with every construct the fixtures exercise (about 3 KB on average).
func writeBenchBlog(tb testing.TB, dir string, n int) int64 {
	fixtures, corpus := benchBodies(tb)
	var total int64
	for i := range n {
		var b strings.Builder
		fmt.Fprintf(&b, "---\ntitle: Post **%d** about `things` <Badge/>\ntags: [bench, t%d]\ndate: 2024-01-%02d\n---\n\n", i, i%7, 1+i%28)
		b.WriteString(corpus[i%len(corpus)])
		for k := range 4 {
			b.WriteString("\n\n")
			b.WriteString(fixtures[(4*i+k)%len(fixtures)])
		}
		ext := ".md"
		if i%2 == 1 {
			ext = ".mdx"
		}
		name := filepath.Join(dir, fmt.Sprintf("2024-01-%02d-post-%04d%s", 1+i%28, i, ext))
		if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
		total += int64(b.Len())
	}
	return total
}

// BenchmarkGenBlog measures gen's plan (reading, flattening and rendering every post) on a
// 600-post blog made from real posts. OKF_BENCH_BLOG=dir writes the blog to dir too, for timing
// the whole `okf gen` process on it.
func BenchmarkGenBlog(b *testing.B) {
	posts := b.TempDir()
	size := writeBenchBlog(b, posts, 600)
	if dir := os.Getenv("OKF_BENCH_BLOG"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		writeBenchBlog(b, dir, 600)
	}
	out := b.TempDir()
	b.SetBytes(size)
	for b.Loop() {
		plan, err := MakePlan(Options{Posts: posts, Out: out, Site: "https://blog.example.com", Engine: "docusaurus", All: true,
			Now: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			b.Fatal(err)
		}
		if len(plan.Actions) == 0 {
			b.Fatal("no concepts")
		}
	}
}

// BenchmarkFlatten measures the text work alone (StripMDX, paragraphs, outline, description) on
// the same bodies.
func BenchmarkFlatten(b *testing.B) {
	fixtures, corpus := benchBodies(b)
	bodies := append(slices.Clone(corpus), fixtures...)
	var size int64
	for _, s := range bodies {
		size += int64(len(s))
	}
	b.SetBytes(size)
	for b.Loop() {
		for i, s := range bodies {
			t := StripMDX(s, i%2 == 1)
			if ps := Paragraphs(t); len(ps) > 0 {
				_ = Describe(ps[0], DefaultDescriptionLength)
			}
			_ = Outline(t)
		}
	}
}
