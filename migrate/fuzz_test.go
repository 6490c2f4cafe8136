package migrate_test

import (
	"testing"
	"testing/fstest"

	"github.com/okf-tools/okf/migrate"
	"github.com/okf-tools/okf/okf"
)

// FuzzMigrate: whatever a concept holds, the migration does not panic, a file it rewrites still has
// readable frontmatter with the same type, and migrating the result changes nothing more.
func FuzzMigrate(f *testing.F) {
	for _, s := range []string{
		"---\ntype: A\ntimestamp: 2026-01-15\ntags: \"a, b\"\n---\nText.\n\n# Citations\n\n- [T](https://x.example)\n- words\n",
		"---\r\ntype: A\r\ntimestamp: '2026-01-15T08:00:00'\r\n---\r\n## Citations\r\n- https://b.example\r\n",
		"---\ntype: A\ngenerated: {by: human:a, at: 2026-01-15}\nstale_after: 2026-02-01 # c\n---\n[^1]\n\n# Citations\n* <https://a.example>\n\n[^1]: https://a.example\n",
		"---\n{type: A, timestamp: 2026-01-15}\n---\n",
		"---\ntype: A\ntimestamp: 2026-01-15\n---\n# Citations\n1. [a]: b\n   cont\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		b, err := okf.Load(fstest.MapFS{"c.md": {Data: []byte(text)}, "log.md": {Data: []byte("# Log\n")}}, okf.LoadOptions{})
		if err != nil {
			return
		}
		before := b.Concept("c")
		p := migrate.Run(b, migrate.Options{})
		var out []byte
		for _, c := range p.Changes {
			if c.Path == "c.md" {
				out = c.New
			}
		}
		if out == nil {
			return
		}
		b2, err := okf.Load(fstest.MapFS{"c.md": {Data: out}, "log.md": {Data: []byte("# Log\n")}}, okf.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		after := b2.Concept("c")
		if before != nil && before.Frontmatter.Present && (!after.Frontmatter.Present || after.Frontmatter.Type.Raw != before.Frontmatter.Type.Raw) {
			t.Fatalf("migrated text lost its frontmatter or type:\n%q\n→\n%q\n%v", text, out, b2.Diagnostics)
		}
		p2 := migrate.Run(b2, migrate.Options{})
		for _, c := range p2.Changes {
			if c.Path == "c.md" {
				t.Fatalf("second run changes c.md:\n%q\n→\n%q\n→\n%q", text, out, c.New)
			}
		}
	})
}
