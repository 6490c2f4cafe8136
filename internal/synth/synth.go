// Package synth writes synthetic OKF bundles for benchmarks: many concepts of realistic size that
// use every frontmatter family, links, footnotes and code blocks. It is internal: tests and
// benchmarks of every package share it, users never see it.
package synth

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Options shapes a synthetic bundle.
type Options struct {
	// Concepts is how many concept files to write.
	Concepts int
	// PerDir is how many concepts share a folder (default 100).
	PerDir int
	// BodyBytes is the approximate body size of each concept (default 5,000, for ~6 KB files).
	BodyBytes int
}

// Write creates the bundle under dir and returns the number of bytes written.
func Write(dir string, o Options) (int64, error) {
	if o.PerDir <= 0 {
		o.PerDir = 100
	}
	if o.BodyBytes <= 0 {
		o.BodyBytes = 5000
	}
	var total int64
	write := func(rel, text string) error {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		total += int64(len(text))
		return os.WriteFile(p, []byte(text), 0o644)
	}
	dirs := (o.Concepts + o.PerDir - 1) / o.PerDir
	var root strings.Builder
	root.WriteString("---\nokf_version: \"0.2\"\n---\n\n# Areas\n\n")
	for d := 0; d < dirs; d++ {
		fmt.Fprintf(&root, "* [Area %d](area%03d/index.md) - Concepts of synthetic area %d.\n", d, d, d)
		var idx strings.Builder
		fmt.Fprintf(&idx, "# Area %d\n\n", d)
		for i := d * o.PerDir; i < (d+1)*o.PerDir && i < o.Concepts; i++ {
			fmt.Fprintf(&idx, "* [Concept %d](c%05d.md) - Synthetic concept number %d.\n", i, i, i)
			if err := write(fmt.Sprintf("area%03d/c%05d.md", d, i), Concept(i, o.Concepts, o.PerDir, o.BodyBytes)); err != nil {
				return total, err
			}
		}
		if err := write(fmt.Sprintf("area%03d/index.md", d), idx.String()); err != nil {
			return total, err
		}
	}
	if err := write("index.md", root.String()); err != nil {
		return total, err
	}
	log := "# Log\n\n## 2026-06-30\n\n* **Creation**: Generated the synthetic bundle.\n"
	if err := write("log.md", log); err != nil {
		return total, err
	}
	return total, nil
}

// Concept returns the text of synthetic concept i of n. Every tenth concept is an Attested
// Computation; the rest alternate between tiers, statuses and staleness.
func Concept(i, n, perDir, bodyBytes int) string {
	var b strings.Builder
	b.WriteString("---\n")
	if i%10 == 0 {
		b.WriteString("type: Attested Computation\n")
	} else {
		b.WriteString("type: Metric\n")
	}
	fmt.Fprintf(&b, "title: Synthetic concept %d\n", i)
	fmt.Fprintf(&b, "description: Synthetic concept number %d, written to measure loading.\n", i)
	fmt.Fprintf(&b, "resource: https://example.com/assets/%d\n", i)
	b.WriteString("tags: [synthetic, benchmark, metric]\n")
	statuses := []string{"stable", "draft", "deprecated"}
	fmt.Fprintf(&b, "status: %s\n", statuses[i%3])
	fmt.Fprintf(&b, "generated: { by: synth_agent/1.0, at: 2026-06-%02dT10:00:00Z }\n", 1+i%28)
	switch i % 4 {
	case 1:
		b.WriteString("verified: { by: human:reviewer, at: 2026-07-01T09:00:00Z }\n")
	case 2:
		b.WriteString("verified:\n  - { by: process:nightly, at: 2026-07-02T02:00:00Z }\n  - { by: human:lead, at: 2026-07-03T09:00:00Z }\n")
	case 3:
		b.WriteString("verified:\n  - { by: process:nightly, at: 2026-07-02T02:00:00Z }\n")
	}
	fmt.Fprintf(&b, "stale_after: 202%d-12-31T00:00:00Z\n", 6+i%2)
	b.WriteString("sources:\n")
	fmt.Fprintf(&b, "  - id: src-a\n    resource: https://example.com/docs/%d\n    title: Upstream document %d\n    author: human:writer\n    usage_count: %d\n    last_modified: 2026-05-30T00:00:00Z\n", i, i, 100+i)
	other := (i + 1) % n
	fmt.Fprintf(&b, "  - id: src-b\n    resource: /area%03d/c%05d.md\n    title: Neighbour concept\n    author: team:data\n", other/perDir, other)
	b.WriteString("usage_window: { from: 2026-06-01T00:00:00Z, to: 2026-06-30T00:00:00Z }\n")
	if i%10 == 0 {
		b.WriteString("runtime: sqlite\nparameters:\n  - { name: year, type: integer, required: true }\n")
		b.WriteString("executor:\n  resource: https://example.com/run\n  receipt: [run_id, executed_sql, result]\n")
		b.WriteString("attester:\n  resource: builtin:sql-equality\n")
	}
	b.WriteString("---\n\n")
	fmt.Fprintf(&b, "# Definition\n\nSynthetic concept %d derives from an upstream document.[^src-a] ", i)
	fmt.Fprintf(&b, "It links to [its neighbour](/area%03d/c%05d.md) and to [the area index](index.md).[^src-b]\n\n", other/perDir, other)
	if i%10 == 0 {
		b.WriteString("# Computation\n\n```sql\nSELECT SUM(amount) AS total\nFROM sales\nWHERE year = @year\n```\n\n")
	}
	b.WriteString("# Notes\n\n")
	para := "The quick brown fox jumps over the lazy dog while the metric is recomputed nightly. "
	for k := 0; b.Len() < bodyBytes+600; k++ {
		b.WriteString(para)
		if k%10 == 9 {
			fmt.Fprintf(&b, "See [a missing page](missing-%d.md) and [the docs](https://example.com/%d).\n\n", k, k)
		}
	}
	b.WriteString("\n\n[^src-a]: Upstream document\n[^src-b]: Neighbour concept\n")
	return b.String()
}
