package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// The shapes of issues 11 and 31, modelled on large public bundles:
//
//   - L, a generated wiki: ~6 KB per file; nested producer maps in the frontmatter, about eight
//     internal links per file, a `# Citations` list, quoted timestamps, and one file in ten
//     without `type`.
//   - S, generated records: ~2.3 KB per file; `tags` written as one comma string, timestamps in
//     every form YAML and OKF readers meet (date only, no offset, Z, offset, space separated,
//     quoted and plain), few links.
//
//   - G, court decisions (after a public 62,161-file bundle): ~5 KB per decision, umlauts in
//     file names and text, `generated` and `sources` on every file, one flat folder per court.
//   - D, a documentation site converted to Markdown, the shape of real docs bundles (see conceptD):
//     nested lists, indented code, titled links and the rest of what the Markdown fast path must
//     read to be fast on them.
//
// All are deterministic for a given size: the same bundle is written every time.

const perDir = 100

// writeBundle writes a bundle of n concepts of the given shape under dir and returns the bytes
// written.
func writeBundle(dir, shape string, n int) (int64, error) {
	if shape == "G" {
		return writeCourts(dir, n)
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
	dirs := (n + perDir - 1) / perDir
	var root strings.Builder
	root.WriteString("---\nokf_version: \"0.2\"\n---\n\n# Sections\n\n")
	for d := 0; d < dirs; d++ {
		fmt.Fprintf(&root, "* [Section %d](s%03d/index.md) - Pages of section %d.\n", d, d, d)
		var idx strings.Builder
		fmt.Fprintf(&idx, "# Section %d\n\n", d)
		for i := d * perDir; i < (d+1)*perDir && i < n; i++ {
			fmt.Fprintf(&idx, "* [%s](%s) - Entry %d.\n", titleOf(i), fileOf(i), i)
			var text string
			switch shape {
			case "L":
				text = conceptL(i, n)
			case "D":
				text = conceptD(i, n)
			default:
				text = conceptS(i, n)
			}
			if err := write(fmt.Sprintf("s%03d/%s", d, fileOf(i)), text); err != nil {
				return total, err
			}
		}
		if err := write(fmt.Sprintf("s%03d/index.md", d), idx.String()); err != nil {
			return total, err
		}
	}
	if err := write("index.md", root.String()); err != nil {
		return total, err
	}
	if err := write("log.md", "# Log\n\n## 2026-06-30\n\n* **Creation**: Generated the bundle.\n"); err != nil {
		return total, err
	}
	return total, nil
}

func fileOf(i int) string  { return fmt.Sprintf("p%05d.md", i) }
func titleOf(i int) string { return fmt.Sprintf("Page %d", i) }

// linkTo is the relative link from concept i's folder to concept j.
func linkTo(i, j int) string {
	if i/perDir == j/perDir {
		return fileOf(j)
	}
	return fmt.Sprintf("../s%03d/%s", j/perDir, fileOf(j))
}

var words = strings.Fields(`the of revenue customer order account region metric daily weekly report
pipeline table column source event session user product channel campaign value count total
average median latest first last window partition model training evaluation dataset schema
owner steward review quality freshness lineage upstream downstream join key filter status`)

// prose writes about n bytes of sentences, drawn from r.
func prose(b *strings.Builder, r *rand.Rand, n int) {
	start := b.Len()
	for b.Len()-start < n {
		k := 8 + r.IntN(10)
		for w := 0; w < k; w++ {
			word := words[r.IntN(len(words))]
			if w == 0 {
				word = strings.ToUpper(word[:1]) + word[1:]
			} else {
				b.WriteByte(' ')
			}
			b.WriteString(word)
		}
		b.WriteString(". ")
	}
	b.WriteString("\n")
}

func stamp(r *rand.Rand) string {
	return fmt.Sprintf("2025-%02d-%02dT%02d:%02d:%02dZ", 1+r.IntN(12), 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60))
}

// conceptL is one page of the generated wiki (~6 KB).
func conceptL(i, n int) string {
	r := rand.New(rand.NewPCG(uint64(i), 11))
	var b strings.Builder
	b.WriteString("---\n")
	if i%10 != 3 {
		b.WriteString("type: Concept\n")
	}
	fmt.Fprintf(&b, "title: %q\n", titleOf(i))
	b.WriteString("description: ")
	prose(&b, r, 120)
	fmt.Fprintf(&b, "tags:\n  - wiki\n  - %s\n  - %s\n", words[r.IntN(len(words))], words[r.IntN(len(words))])
	fmt.Fprintf(&b, "timestamp: %q\n", stamp(r))
	b.WriteString("producer:\n")
	b.WriteString("  name: wiki-generator\n")
	b.WriteString("  version: \"2.4.1\"\n")
	b.WriteString("  model:\n")
	b.WriteString("    provider: example\n")
	fmt.Fprintf(&b, "    name: writer-%d\n", r.IntN(4))
	b.WriteString("    parameters:\n")
	fmt.Fprintf(&b, "      temperature: 0.%d\n", r.IntN(10))
	b.WriteString("      max_tokens: 4096\n")
	b.WriteString("  run:\n")
	fmt.Fprintf(&b, "    id: run-%06d\n", r.IntN(1000000))
	fmt.Fprintf(&b, "    started: %q\n", stamp(r))
	fmt.Fprintf(&b, "    finished: %q\n", stamp(r))
	b.WriteString("  inputs:\n")
	for k := 0; k < 3; k++ {
		fmt.Fprintf(&b, "    - path: raw/%s/%d.json\n      sha256: %064x\n", words[r.IntN(len(words))], r.IntN(100000), r.Uint64())
	}
	b.WriteString("---\n\n")
	fmt.Fprintf(&b, "# %s\n\n", titleOf(i))
	links := 0
	for s := 0; s < 4; s++ {
		w := words[r.IntN(len(words))]
		fmt.Fprintf(&b, "## %s %s\n\n", strings.ToUpper(w[:1])+w[1:], words[r.IntN(len(words))])
		for p := 0; p < 2; p++ {
			prose(&b, r, 450)
			j := r.IntN(n)
			fmt.Fprintf(&b, "See [%s](%s) for the %s.\n\n", titleOf(j), linkTo(i, j), words[r.IntN(len(words))])
			links++
		}
		if s == 1 {
			b.WriteString("| key | value |\n|---|---|\n")
			for k := 0; k < 4; k++ {
				fmt.Fprintf(&b, "| %s | %d |\n", words[r.IntN(len(words))], r.IntN(1000))
			}
			b.WriteString("\n")
		}
		if s == 2 {
			b.WriteString("```sql\nSELECT region, SUM(revenue) AS total\nFROM orders\nGROUP BY region\n```\n\n")
		}
	}
	b.WriteString("# Citations\n\n")
	for k := 0; k < 4; k++ {
		fmt.Fprintf(&b, "* [%s %d](https://docs.example.org/%s/%d)\n", words[r.IntN(len(words))], k, words[r.IntN(len(words))], r.IntN(10000))
	}
	b.WriteString("* https://example.com/raw/source\n")
	return b.String()
}

// The forms a timestamp is written in by record generators: every one of them appears.
var stampForms = []func(r *rand.Rand) string{
	func(r *rand.Rand) string { return fmt.Sprintf("2025-%02d-%02d", 1+r.IntN(12), 1+r.IntN(28)) },
	func(r *rand.Rand) string {
		return fmt.Sprintf("%q", fmt.Sprintf("2025-%02d-%02d", 1+r.IntN(12), 1+r.IntN(28)))
	},
	func(r *rand.Rand) string { return stamp(r) },
	func(r *rand.Rand) string { return fmt.Sprintf("%q", stamp(r)) },
	func(r *rand.Rand) string { return fmt.Sprintf("'%s'", stamp(r)) },
	func(r *rand.Rand) string {
		return fmt.Sprintf("2025-%02d-%02dT%02d:%02d:%02d+02:00", 1+r.IntN(12), 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60))
	},
	func(r *rand.Rand) string {
		return fmt.Sprintf("2025-%02d-%02dT%02d:%02d:%02d", 1+r.IntN(12), 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60))
	},
	func(r *rand.Rand) string {
		return fmt.Sprintf("2025-%02d-%02d %02d:%02d:%02d", 1+r.IntN(12), 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60))
	},
	func(r *rand.Rand) string {
		return fmt.Sprintf("2025-%02d-%02dT%02d:%02d:%02d.%03dZ", 1+r.IntN(12), 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60), r.IntN(1000))
	},
	func(r *rand.Rand) string { return "" },
}

// conceptS is one generated record (~2.3 KB).
func conceptS(i, n int) string {
	r := rand.New(rand.NewPCG(uint64(i), 7))
	var b strings.Builder
	b.WriteString("---\n")
	b.WriteString("type: Record\n")
	fmt.Fprintf(&b, "title: Record %d %s\n", i, words[r.IntN(len(words))])
	b.WriteString("description: ")
	prose(&b, r, 100)
	fmt.Fprintf(&b, "tags: %s, %s, %s\n", words[r.IntN(len(words))], words[r.IntN(len(words))], words[r.IntN(len(words))])
	fmt.Fprintf(&b, "resource: https://records.example.com/r/%d\n", i)
	fmt.Fprintf(&b, "timestamp: %s\n", stampForms[i%len(stampForms)](r))
	fmt.Fprintf(&b, "generated:\n  by: record-bot\n  at: %s\n", stampForms[(i+3)%len(stampForms)](r))
	if i%4 == 0 {
		fmt.Fprintf(&b, "stale_after: %s\n", stampForms[(i+5)%len(stampForms)](r))
	}
	fmt.Fprintf(&b, "status: %s\n", []string{"active", "draft", "deprecated", "active"}[i%4])
	b.WriteString("---\n\n")
	fmt.Fprintf(&b, "# Record %d\n\n", i)
	prose(&b, r, 1050)
	b.WriteString("\n## Details\n\n")
	prose(&b, r, 800)
	if i%3 == 0 {
		j := r.IntN(n)
		fmt.Fprintf(&b, "\nRelated: [%s](%s).\n", titleOf(j), linkTo(i, j))
	}
	return b.String()
}

// conceptD is one page of a documentation site converted to Markdown (~5 KB), written from the
// statistics of a 5,678-file public one (docs pages and the concept pages a wiki generator made
// of them): headings with a titled anchor link (`[​](#id "Direct link to …")`), list items
// with three spaces after the marker, nested lists, numbered steps whose content (a paragraph, a
// language name, the command as indented code or a fence) is indented to the item, a table, a
// note in a block quote with code spans, wiki links (`[[Page|text]]`) and escapes. One page in
// twenty holds an HTML block and one in twenty-five emphasis in a link's text, which the Markdown
// fast path leaves to goldmark, as the real bundle's few such pages are.
func conceptD(i, n int) string {
	r := rand.New(rand.NewPCG(uint64(i), 13))
	var b strings.Builder
	b.WriteString("---\n")
	b.WriteString("type: Reference\n")
	fmt.Fprintf(&b, "title: \"%s | Docs\"\n", titleOf(i))
	fmt.Fprintf(&b, "source: https://docs.example.com/%s/%s-%d\n", words[r.IntN(len(words))], words[r.IntN(len(words))], i)
	fmt.Fprintf(&b, "timestamp: %q\n", stamp(r))
	b.WriteString("description: ")
	prose(&b, r, 140)
	fmt.Fprintf(&b, "tags:\n  - docs\n  - %s\n", words[r.IntN(len(words))])
	b.WriteString("---\n\n")
	prose(&b, r, 300)
	j := r.IntN(n)
	fmt.Fprintf(&b, "\nFor more, see [%s](%s) and [[%s|the %s guide]].\n\n", titleOf(j), linkTo(i, j), titleOf(r.IntN(n)), words[r.IntN(len(words))])
	for s := 0; s < 4; s++ {
		w := words[r.IntN(len(words))]
		h := strings.ToUpper(w[:1]) + w[1:] + " " + words[r.IntN(len(words))]
		fmt.Fprintf(&b, "## %s[\u200b](#%s \"Direct link to %s\")\n\n", h, strings.ReplaceAll(strings.ToLower(h), " ", "-"), h)
		prose(&b, r, 250)
		b.WriteString("\n")
		switch s {
		case 0:
			for k := 0; k < 4; k++ {
				j := r.IntN(n)
				fmt.Fprintf(&b, "*   The `%s` %s. See [%s](%s).\n", words[r.IntN(len(words))], words[r.IntN(len(words))], titleOf(j), linkTo(i, j))
				if k == 1 {
					fmt.Fprintf(&b, "    *   Nested: %s \\* %s.\n    *   And [[%s]].\n", words[r.IntN(len(words))], words[r.IntN(len(words))], titleOf(r.IntN(n)))
				}
			}
			b.WriteString("\n")
		case 1:
			for k := 1; k <= 3; k++ {
				fmt.Fprintf(&b, "%d.  Click **\\+ New** > **%s** in the sidebar.\n    \n    Bash\n    \n        okf %s --%s %d\n    \n", k, words[r.IntN(len(words))], words[r.IntN(len(words))], words[r.IntN(len(words))], r.IntN(100))
			}
			b.WriteString("    ```yaml\n    name: step\n    \n    run: okf lint\n    ```\n\n")
		case 2:
			b.WriteString("| option | default |\n| --- | --- |\n")
			for k := 0; k < 4; k++ {
				fmt.Fprintf(&b, "| `%s` | %d |\n", words[r.IntN(len(words))], r.IntN(1000))
			}
			fmt.Fprintf(&b, "\n> **Note:** `<%s>` is required. See [%s](%s).\n\n", words[r.IntN(len(words))], titleOf(j), linkTo(i, j))
		case 3:
			b.WriteString("Python\n\n    from okf import bundle\n    b = bundle.load(\"docs\")\n\n")
		}
	}
	if i%20 == 7 {
		b.WriteString("<details>\n<summary>Example</summary>\n\nHidden text.\n\n</details>\n\n")
	}
	if i%25 == 11 {
		fmt.Fprintf(&b, "See [**%s**](%s).\n", titleOf(j), linkTo(i, j))
	}
	return b.String()
}

// courts are the folders of shape G, one per court, flat; several names hold umlauts.
var courts = []string{"bgh", "bverfg", "bverwg", "bfh", "bag", "bsg", "olg-münchen", "olg-köln",
	"olg-düsseldorf", "lg-nürnberg-fürth", "vg-würzburg", "lsg-baden-württemberg", "ovg-lüneburg",
	"fg-münster", "lag-köln", "ag-lörrach"}

var wörter = strings.Fields(`der die das Kläger Beklagte Berufung Revision Urteil Gründe Tatbestand
Landgericht Oberlandesgericht Anspruch gemäß Vorschrift Zulässigkeit Begründetheit
Verhältnismäßigkeit Schadensersatz Mängel Gewährleistung Rückzahlung Vergütung Fälligkeit
überwiegend zulässig unbegründet Streitwert Kostenentscheidung vorläufig vollstreckbar Mietverhältnis
Kündigung Räumung Bescheid Widerspruch Rechtsmittel Beschwerde Erstattung Säumnis Zuständigkeit
Verfahren Würdigung Beweisaufnahme Zeugin Gutachten Sachverständige Haftung Versäumnisurteil`)

// gFile is the file name of decision i of shape G: its court, day, docket and subject, in
// lower case with umlauts.
func gFile(i int) string {
	r := rand.New(rand.NewPCG(uint64(i), 17))
	w := strings.ToLower(wörter[r.IntN(len(wörter))])
	return fmt.Sprintf("%s-20%02d-%02d-%02d-%d-%s-%d-%02d-%s.md", courts[i%len(courts)], 10+r.IntN(15), 1+r.IntN(12), 1+r.IntN(28),
		1+r.IntN(12), []string{"zr", "u", "c", "ks", "sa", "azr"}[r.IntN(6)], i, 10+r.IntN(15), w)
}

// conceptG is one court decision of shape G (~4 KB): `generated` and `sources` on every file,
// German text with umlauts, a tenor, facts and reasons, the statutes cited, and a link to an
// earlier decision of the same court in one file of four.
func conceptG(i int) string {
	r := rand.New(rand.NewPCG(uint64(i), 19))
	court := courts[i%len(courts)]
	satz := func(b *strings.Builder, n int) {
		start := b.Len()
		for b.Len()-start < n {
			k := 8 + r.IntN(12)
			for w := 0; w < k; w++ {
				if w > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(wörter[r.IntN(len(wörter))])
			}
			if r.IntN(3) == 0 {
				fmt.Fprintf(b, " (§ %d Abs. %d BGB)", 100+r.IntN(900), 1+r.IntN(3))
			}
			b.WriteString(". ")
		}
		b.WriteString("\n")
	}
	var b strings.Builder
	b.WriteString("---\n")
	b.WriteString("type: Gerichtsentscheidung\n")
	fmt.Fprintf(&b, "title: \"%s, Urteil vom %02d.%02d.20%02d – %d %s %d/%02d\"\n", strings.ToUpper(court), 1+r.IntN(28), 1+r.IntN(12), 10+r.IntN(15),
		1+r.IntN(12), []string{"ZR", "U", "C", "KS"}[r.IntN(4)], i, 10+r.IntN(15))
	b.WriteString("description: ")
	satz(&b, 160)
	fmt.Fprintf(&b, "tags: [urteil, %s, %s]\n", court, strings.ToLower(wörter[r.IntN(len(wörter))]))
	fmt.Fprintf(&b, "timestamp: %s\n", stamp(r))
	fmt.Fprintf(&b, "generated: { by: agent:rechtsprechung-import/2.1, at: %s }\n", stamp(r))
	b.WriteString("sources:\n")
	fmt.Fprintf(&b, "  - id: entscheidung\n    resource: https://rechtsprechung.example.de/%s/%d\n    title: Volltext der Entscheidung\n    last_modified: %s\n", court, i, stamp(r))
	b.WriteString("---\n\n")
	fmt.Fprintf(&b, "# Urteil %d\n\n## Tenor\n\n", i)
	for k := 1; k <= 3; k++ {
		fmt.Fprintf(&b, "%d. ", k)
		satz(&b, 120)
	}
	b.WriteString("\n## Tatbestand\n\n")
	for p := 0; p < 3; p++ {
		satz(&b, 500)
		b.WriteString("\n")
	}
	b.WriteString("## Entscheidungsgründe\n\n")
	for p := 0; p < 3; p++ {
		satz(&b, 550)
		b.WriteString("\n")
	}
	if i%4 == 0 && i >= len(courts) {
		fmt.Fprintf(&b, "Vgl. bereits [die frühere Entscheidung](%s).[^entscheidung]\n\n", gFile(i-len(courts)))
	} else {
		b.WriteString("Die Revision wird nicht zugelassen.[^entscheidung]\n\n")
	}
	b.WriteString("[^entscheidung]: Volltext der Entscheidung.\n")
	return b.String()
}

// writeCourts writes shape G: n decisions, one flat folder per court, each with an index.
func writeCourts(dir string, n int) (int64, error) {
	var total int64
	idx := make([]strings.Builder, len(courts))
	for c := range courts {
		fmt.Fprintf(&idx[c], "# %s\n\n", strings.ToUpper(courts[c]))
	}
	for i := 0; i < n; i++ {
		c := i % len(courts)
		p := filepath.Join(dir, courts[c], gFile(i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return total, err
		}
		text := conceptG(i)
		total += int64(len(text))
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return total, err
		}
		fmt.Fprintf(&idx[c], "* [Urteil %d](%s)\n", i, gFile(i))
	}
	var root strings.Builder
	root.WriteString("---\nokf_version: \"0.2\"\n---\n\n# Gerichte\n\n")
	for c, name := range courts {
		fmt.Fprintf(&root, "* [%s](%s/index.md)\n", strings.ToUpper(name), name)
		s := idx[c].String()
		total += int64(len(s))
		if err := os.WriteFile(filepath.Join(dir, name, "index.md"), []byte(s), 0o644); err != nil {
			return total, err
		}
	}
	total += int64(root.Len())
	return total, os.WriteFile(filepath.Join(dir, "index.md"), []byte(root.String()), 0o644)
}
