package lint

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/okf-tools/okf/okf"
)

// fuzzConfig maps the fuzzed concept's likely types to a bundle schema, so the schema check (the
// built-in projection, the YAML re-read and the bundle's own schema) runs on every input.
const fuzzConfig = "schemas:\n  Reference: s.json\n  Metric: s.json\n  Attested Computation: s.json\n"

const fuzzSchema = `{"type": "object", "required": ["title"], "properties": {"title": {"type": "string", "maxLength": 80}, "tags": {"type": "array", "items": {"type": "string"}}}}`

// FuzzLintOneFile runs the whole lint pipeline (loading, every rule, the schema check, the
// configuration, suppressions, every output format) on a bundle of one concept whose text is
// fuzzed, beside a root index linking to it: it must never panic, and every finding must be about
// a file of the bundle.
func FuzzLintOneFile(f *testing.F) {
	for _, s := range []string{
		"---\ntype: Reference\ntitle: T\n---\n# T\n\n[a](b.md) [^x]\n\n[^x]: y\n",
		"---\ntype: Metric\ntitle: [1]\ntags: [a, {b: c}]\nsources: [{id: a, resource: ../x}]\n---\n",
		"---\ntype: Attested Computation\nruntime: sqlite\nparameters: [{name: d, type: date}]\nattester: {resource: builtin:fidelity}\nexecutor: {receipt: [rows]}\n---\n# Computation\n\n```sql\nSELECT :d\n```\n",
		"---\ntype: Reference\na: &a [x, x]\nb: [*a, *a]\nverified: {by: human:a, at: 2026-01-01}\n---\n<!-- okf-lint-disable OKF101 -->\n",
		"---\ntype: &x [*x]\n---\n",
		"---\ntype: Reference\nstale_after: 2020-01-01\nstatus: deprecated\n---\n",
		"\ufeff---\r\ntype: Reference\r\n---\r\n\x1b[31m\n",
	} {
		f.Add(s)
	}
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, src string) {
		fsys := fstest.MapFS{
			"index.md":  {Data: []byte("# Index\n\n- [C](c.md)\n")},
			"c.md":      {Data: []byte(src)},
			"s.json":    {Data: []byte(fuzzSchema)},
			".okf.yaml": {Data: []byte(fuzzConfig)},
		}
		b, err := okf.Load(fsys, okf.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		cfg := mustConfig(t, fuzzConfig)
		ds := Run(b, Options{Now: now, Config: cfg, Workers: 1})
		for _, d := range ds {
			if d.Pos.Path != "c.md" && d.Pos.Path != "index.md" && d.Pos.Path != ".okf.yaml" && d.Pos.Path != "s.json" {
				t.Fatalf("finding about a file not in the bundle: %v", d)
			}
		}
		rep := &Report{Diagnostics: ds, ReadFile: b.ReadFile, DisplayPath: func(p string) string { return p }}
		for _, name := range Formats {
			p, err := NewPrinter(name)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Print(discard{}, rep); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	})
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
