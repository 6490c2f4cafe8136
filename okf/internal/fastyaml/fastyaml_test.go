package fastyaml

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// fastSeeds are frontmatter blocks of the shapes real bundles write; the fast path must take
// each of them (or it would be a fast path for nothing) and read it exactly as yaml.v3 does.
var fastSeeds = []string{
	"type: Metric\ntitle: Revenue\n",
	"type: Concept\ntitle: \"Page 3\"\ndescription: Daily revenue, by region.\ntags: [a, b, c]\n",
	"tags:\n  - wiki\n  - table\ntimestamp: \"2025-03-28T12:34:52Z\"\n",
	"tags:\n- wiki\n- table\nstatus: active\n",
	"producer:\n  name: gen\n  version: \"2.4.1\"\n  model:\n    provider: example\n    parameters:\n      temperature: 0.4\n      max_tokens: 4096\n  inputs:\n    - path: raw/a.json\n      sha256: 00ff\n    - path: raw/b.json\n      sha256: 0a\n",
	"generated:\n  by: record-bot\n  at: 2025-09-20T14:50:54.881Z\nstale_after: 2025-02-14\nlast: 2025-01-01 10:00:00\nn: 0x1F\nf: .5\nb: true\nz: ~\nneg: 5\n",
	"sources:\n  - id: s1\n    resource: https://example.com/a?b=c\n    usage_count: 5000\n  - id: s2\n    title: 'Two words'\n",
	"title: Café – naïve ü\ntags: [é, ü ö, x]\n",
	"a: R&D *b* !c |d >e @f `g` %h ?i {j} \\k\nb: 'back\\slash'\n",
	"- a\n- b\n",
	"a: b\n  c\n\n  d\ne:\nf: C#\n",
	"description: >-\n  REST API for creating,\n  and deleting.\n\n  Second.\nsql: |\n  SELECT 1\n    FROM t\n\n  WHERE x\nlast: |-\n  x\n",
	"k:\n- a\n-\n- b\n",
	"type: Metric\n\n\ntitle: gaps   \n",
	"empty: []\nempty2: [ ]\n",
	"  type: Metric\n  title: x\n",
	"generated: { by: agent/1.0, at: 2026-06-06T10:00:00Z }\nverified:\n  - { by: process:nightly, at: 2026-07-02T02:00:00Z }\nusage_window: {from: 2026-06-01, to: \"2026-06-30\"}\n",
	"a: {}\nb: { }\nc: {x: [p, q], y: 'z w', z: \"v, }\", n: 1,t: true, k/l: é ü, x.y: a#b, true: ~, e: []}\n",
	"- {a: b}\n- { c: d , e: f:g }\n",
	"a: {b: c, b: d}\n",
}

// reused is the scratch every differential check parses with, as one loader worker reuses it from
// file to file, so a node left over from an earlier input would show as a difference.
var reused Scratch

func nodesOf(t testing.TB, raw string) (*yaml.Node, *yaml.Node, bool) {
	fresh, freshOK := fastYAML([]byte(raw), nil)
	fast, ok := fastYAML([]byte(raw), &reused)
	if ok != freshOK || !reflect.DeepEqual(fast, fresh) {
		t.Fatalf("%q: the fast path with a reused scratch reads it differently from a fresh one", raw)
	}
	var full yaml.Node
	err := yaml.Unmarshal([]byte(raw), &full)
	if ok && err != nil {
		t.Fatalf("fast path read %q, yaml.v3 rejects it: %v", raw, err)
	}
	return fast, &full, ok
}

func TestFastYAMLSeeds(t *testing.T) {
	for _, s := range fastSeeds {
		fast, full, ok := nodesOf(t, s)
		if !ok {
			if strings.HasPrefix(s, "  ") {
				continue // an indented top level is left to yaml.v3
			}
			t.Errorf("fast path refused %q", s)
			continue
		}
		if !reflect.DeepEqual(fast, full) {
			t.Errorf("%q:\nfast %s\nfull %s", s, dumpNode(fast), dumpNode(full))
		}
	}
}

// The fast path leaves to yaml.v3 what it does not read exactly.
func TestFastYAMLRefuses(t *testing.T) {
	for _, s := range []string{
		"a: 1 # comment\n", "# head\na: 1\n", "a: &x 1\nb: *x\n", "a: !!str 1\n", "a: |+\n  text\n", "a: >2\n  text\n", "a: \"x\\n\"\n",
		"a: |\n  x  \n", "a: |\n  x\n   \n  y\n", "a: b", "a:\tb\n", "a: 'it''s'\n", "just text\n",
		"a: [b, c,]\n", "a: [b, {c: d}]\n", "a: {b: c\n", "a: {b}\n", "a: {b: c, }\n", "a: { : }\n", "a: {?b: c}\n",
		"a: {b: [}\n", "a: {b: {c: d}}\n", "a: {b: \"x\\\"y\"}\n", "a: {b: 'it''s'}\n", "a: {b: c #d}\n", "a: {b: c,\n  d: e}\n",
		"a: {b: c:}\n", "a: {b:c}\n", "a: {b : c}\n", "a: {b: -5}\n", "a: {b: c}x\n", "a: {\"b\": c}\n", "a: {b: }\n", "a: ['b']\n", "%YAML 1.2\n---\na: b\n", "a: \"x\n  y\"\n", "? a\n: b\n", "a: b: c\n",
	} {
		if _, ok := fastYAML([]byte(s), nil); ok {
			t.Errorf("fast path took %q", s)
		}
	}
}

// FuzzFastYAML is the differential check of the fast path: whatever it accepts, yaml.v3 must accept
// too and read into an identical node tree (kinds, styles, tags, values, lines, columns, comments).
// Run: go test ./okf -run '^$' -fuzz FuzzFastYAML -fuzztime 2m
func FuzzFastYAML(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add(s)
	}
	corpusSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		fast, full, ok := nodesOf(t, s)
		if ok && !reflect.DeepEqual(fast, full) {
			t.Fatalf("%q:\nfast %s\nfull %s", s, dumpNode(fast), dumpNode(full))
		}
	})
}

// corpusSeeds adds the frontmatter of every concept of the corpus (corpusDir).
func corpusSeeds(f *testing.F) {
	root := corpusDir(f)
	_ = filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err == nil {
			if fm, ok := frontmatterYAML(src); ok {
				f.Add(string(fm))
			}
		}
		return nil
	})
}

func dumpNode(n *yaml.Node) string {
	if n == nil {
		return "<nil>"
	}
	var b strings.Builder
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		b.WriteString("\n" + strings.Repeat("  ", depth))
		b.WriteString(strings.Join([]string{
			"kind=" + strconv.Itoa(int(n.Kind)), "style=" + strconv.Itoa(int(n.Style)), "tag=" + n.Tag, "value=" + n.Value,
			"at=" + strconv.Itoa(n.Line) + ":" + strconv.Itoa(n.Column), "hc=" + n.HeadComment, "lc=" + n.LineComment, "fc=" + n.FootComment,
		}, " "))
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return b.String()
}

// TestFastYAMLRandom writes random blocks from pieces of the subset and of what lies just outside
// it (indentation changes, indicators, quotes, colons, brackets, numbers, dates, non-ASCII), and
// checks every block the fast path takes against yaml.v3. It also checks the fast path takes a fair
// share of them, so that it cannot pass by refusing everything.
func TestFastYAMLRandom(t *testing.T) {
	keys := []string{"type", "title", "tags", "a", "b_c", "d-e", "true", "null", "x.y", "k/l", "n1"}
	vals := []string{"Metric", "two words", "\"quoted\"", "'single'", "[a, b]", "[]", "[ x ,y ]", "123", "-5", "0.5", ".5",
		"2025-01-02", "2025-01-02T03:04:05Z", "2025-01-02 03:04:05", "\"2025-01-02\"", "true", "False", "~", "null", "0x1F", "1_000",
		"https://e.com/a?b=c&d", "a: b", "a:b", "x:", "- y", "[a, [b]]", "[a,", "\"a\" b", "'a'b'", "é ü", "1e3", "+1", ".inf",
		"<<", "y", "on", "[\"a\"]", "' x '", "\" \"", "-", "--", "[a]x", "a ]", "{a: b}", "a,b", "0o17", "0b101", "1.2.3", "1:20", "C#", "a #b", "#c", "x#",
		"{ by: agent/1.0, at: 2026-06-06T10:00:00Z }", "{}", "{ }", "{a: b, a: c}", "{a: b", "{a}", "{a: b, }", "{ : }", "{?a: b}", "{a: [}",
		"{a: {b: c}}", "{a: \"x\\\"y\"}", "{a: 'it''s'}", "{a: [x, y], b: 'q'}", "{a: b:c}", "{a: b:}", "{a:b}", "{a : b}", "{a: é}",
		"{a: -5}", "{a: \"x, y}\"}", "{a: b}x", "{a: b},", "{a: b,c: d}", "{a: by: c}", "{a: b#c}", "{a: ' '}", "{a: []}", "{a: [b]x}"}
	rnd := xorshift(1)
	var block func(b *strings.Builder, indent, depth int)
	block = func(b *strings.Builder, indent, depth int) {
		n := 1 + rnd(4)
		seq := rnd(4) == 0
		for i := 0; i < n; i++ {
			ind := strings.Repeat(" ", indent)
			if rnd(40) == 0 {
				ind = strings.Repeat(" ", rnd(6))
			}
			if rnd(15) == 0 {
				b.WriteString("\n")
			}
			if seq {
				if rnd(10) == 0 {
					b.WriteString(ind + "-\n")
					continue
				}
				b.WriteString(ind + "-" + strings.Repeat(" ", 1+rnd(2)))
				if depth < 3 && rnd(3) == 0 {
					b.WriteString(keys[rnd(len(keys))] + ": " + vals[rnd(len(vals))] + "\n")
					sub := indent + 2
					if rnd(10) == 0 {
						sub = indent + 3
					}
					for j := rnd(3); j > 0; j-- {
						b.WriteString(strings.Repeat(" ", sub) + keys[rnd(len(keys))] + ": " + vals[rnd(len(vals))] + "\n")
					}
					continue
				}
				b.WriteString(vals[rnd(len(vals))] + "\n")
				continue
			}
			b.WriteString(ind + keys[rnd(len(keys))] + ":")
			if depth < 3 && rnd(3) == 0 {
				b.WriteString(strings.Repeat(" ", rnd(2)) + "\n")
				sub := indent + 2 + rnd(2)*2
				if rnd(6) == 0 {
					sub = indent // a sequence at the key's column
				}
				block(b, sub, depth+1)
				continue
			}
			switch rnd(9) {
			case 0: // a block scalar
				b.WriteString(" " + []string{"|", "|-", ">", ">-", "|+", ">2"}[rnd(6)] + "\n")
				sub := indent + 1 + rnd(3)
				for j := 1 + rnd(3); j > 0; j-- {
					if rnd(5) == 0 {
						b.WriteString(strings.Repeat("\n", 1+rnd(2)))
					}
					b.WriteString(strings.Repeat(" ", sub+rnd(2)*rnd(3)) + vals[rnd(len(vals))] + strings.Repeat(" ", rnd(6)/5) + "\n")
				}
				continue
			case 1: // a plain scalar over several lines
				b.WriteString(" " + vals[rnd(len(vals))] + "\n")
				for j := 1 + rnd(2); j > 0; j-- {
					if rnd(5) == 0 {
						b.WriteString("\n")
					}
					b.WriteString(strings.Repeat(" ", indent+1+rnd(3)) + vals[rnd(len(vals))] + "\n")
				}
				continue
			case 3: // a flow mapping, of pieces in and just outside the subset
				b.WriteString(" " + flowMap(rnd, keys, vals) + strings.Repeat(" ", rnd(2)) + "\n")
				continue
			case 2: // nothing
				b.WriteString(strings.Repeat(" ", rnd(2)) + "\n")
				continue
			}
			b.WriteString(strings.Repeat(" ", 1+rnd(2)) + vals[rnd(len(vals))] + strings.Repeat(" ", rnd(2)) + "\n")
		}
	}
	taken, flows := 0, 0
	const runs = 5000
	for i := 0; i < runs; i++ {
		var b strings.Builder
		block(&b, 0, 0)
		s := b.String()
		fast, full, ok := nodesOf(t, s)
		if !ok {
			continue
		}
		taken++
		if strings.Contains(s, "{") {
			flows++
		}
		if !reflect.DeepEqual(fast, full) {
			t.Fatalf("%q:\nfast %s\nfull %s", s, dumpNode(fast), dumpNode(full))
		}
	}
	if taken < runs/20 || flows < runs/100 {
		t.Errorf("the fast path took %d of %d blocks, %d with flow mappings", taken, runs, flows)
	}
	t.Logf("the fast path took %d of %d blocks, %d with flow mappings", taken, runs, flows)
}

// flowMap writes a one-line flow mapping from random keys, separators and values, some of them
// outside the fast path's subset (quotes, nesting, colons, missing parts, commas).
func flowMap(rnd func(int) int, keys, vals []string) string {
	var b strings.Builder
	b.WriteString([]string{"{", "{ ", "{  "}[rnd(3)])
	for i := rnd(4); i >= 0; i-- {
		if rnd(30) > 0 {
			b.WriteString(keys[rnd(len(keys))])
		}
		b.WriteString([]string{": ", ": ", ":  ", ":", " : ", ": ", ": "}[rnd(7)])
		switch rnd(6) {
		case 0:
			b.WriteString(vals[rnd(len(vals))])
		case 1:
			b.WriteString([]string{"\"", "'"}[rnd(2)] + []string{"x, y", "a}b", "", "é", "it''s", "a\\b", "[c]", "d: e"}[rnd(8)] + []string{"\"", "'"}[rnd(2)])
		default:
			b.WriteString([]string{"agent/1.0", "2026-06-06T10:00:00Z", "process:nightly", "b:", "c d", "7", "1.5", "true", "~", "null",
				"[a, b]", "[]", "x#y", "é", "2026-06-01", "-1", "a?b", "s3://x", "a: b", ""}[rnd(20)])
		}
		if rnd(4) == 0 {
			b.WriteString(" ")
		}
		if i > 0 || rnd(20) == 0 {
			b.WriteString([]string{",", ", ", " , ", ",  "}[rnd(4)])
		}
	}
	b.WriteString([]string{"}", " }", "}", "", "}}", "},"}[rnd(6)])
	return b.String()
}

// TestPlainTagMatchesYAML: plainTag resolves a plain scalar as yaml.v3's ShortTag does, for the
// words of yaml.v3's resolve map, near misses, and random text starting with every ASCII byte.
func TestPlainTagMatchesYAML(t *testing.T) {
	words := []string{"", "true", "True", "TRUE", "tRUE", "truex", "false", "False", "FALSE", "no", "yes", "y", "n", "on", "off",
		"~", "~x", "null", "Null", "NULL", "nULL", "<<", "<", "<<<", ".nan", ".NaN", ".inf", "-.inf", "+.INF", ".5", "1", "0x1F",
		"0o17", "1_000", "2024-01-02", "2024-01-02T03:04:05Z", "1.5e3", "-", "+", "Type", "title", "okf_version", "é", "\u00e9t\u00e9"}
	r := rand.New(rand.NewSource(7))
	for c := 0x21; c < 0x7f; c++ {
		for range 50 {
			b := []byte{byte(c)}
			for range r.Intn(6) {
				b = append(b, "aeuTRLnfl0123.-:_ex~<"[r.Intn(21)])
			}
			words = append(words, string(b))
		}
	}
	// Scalars that start like numbers, drawn from the characters of every number and timestamp
	// form and a few that are in none.
	for range 200_000 {
		b := []byte{"+-0123456789."[r.Intn(13)]}
		for range r.Intn(12) {
			b = append(b, "0123456789012345678901234567890123456789+-._: \teEtTzZoObBxXacdfACDFgpné"[r.Intn(64)])
		}
		words = append(words, string(b))
	}
	// Scalars that start like a date: four digits and a dash, then the pieces of every timestamp
	// form (one- and two-digit fields, t, T, space, zones, fractions) and a few that are in none.
	for range 200_000 {
		b := []byte(fmt.Sprintf("%04d-", r.Intn(10000)))
		for range r.Intn(30) {
			const pieces = "0123456789012345678901234567890123456789--::::..TtTt  +Zz_xe\t"
			b = append(b, pieces[r.Intn(len(pieces))])
		}
		words = append(words, string(b))
	}
	words = append(words, "2024-1-2", "2024-01-02", "2024-1-2T3:4:5Z", "2024-01-02T03:04:05+01:00", "2024-01-02t03:04:05Z",
		"2024-01-02 03:04:05", "2024-01-02 03:04:05Z", "2024-01-02T03:04:05", "2024-13-02", "2024-01-32", "2024-001-02",
		"2024-01-002", "2024-01-02T", "2024-01-02x", "2024-01-02_", "2024-", "2024-1", "2024-1-", "0000-00-00", "2024-02-30")
	words = append(words, "0x1F", "0xfg", "-0x1a", "0b101", "0o17", "-0o17", "1e5", "1_000", "0000000000000000000000000000000000000000000000000051517ad7c8a75c96",
		"2024-01-02 03:04:05", "2024-1-2t3:4:5.5+01:00", "2.4.1", "2.4.1-beta", "12 apples", "+.5", ".5e-3", ".e", "1:30",
		".infinity", "+.Infinity", "-.nan12", "1.5e+10", "2024-01-02T03:04:05.123456789-07:00", "190:20:30")
	for _, w := range words {
		want := (&yaml.Node{Kind: yaml.ScalarNode, Value: w}).ShortTag()
		if got := plainTag(&yaml.Node{Kind: yaml.ScalarNode, Value: w}); got != want {
			t.Errorf("plainTag(%q) = %s, yaml.v3 says %s", w, got, want)
		}
	}
}

// TestFastYAMLCorpusShare reports the share of the corpus's frontmatters the fast path takes
// (go test ./okf -run CorpusShare -v), and of the folders listed in OKF_YAMLFAST_DIRS (separated
// by ':', to measure a bench bundle), checking each one it takes against yaml.v3. Most corpus
// frontmatters (251 of 253 when flow mappings were added) are in the subset: a fast path that
// refused most of them would be one for nothing.
func TestFastYAMLCorpusShare(t *testing.T) {
	root := corpusDir(t)
	if taken, total := yamlShare(t, root); total == 0 || taken < total*9/10 {
		t.Errorf("the fast path took only %d of %d corpus frontmatters", taken, total)
	}
	for _, dir := range filepath.SplitList(os.Getenv("OKF_YAMLFAST_DIRS")) {
		yamlShare(t, dir)
	}
}

func yamlShare(t *testing.T, root string) (taken, total int) {
	_ = filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		if fm, ok := frontmatterYAML(src); ok {
			total++
			fast, full, ok := nodesOf(t, string(fm))
			if ok {
				taken++
				if !reflect.DeepEqual(fast, full) {
					t.Errorf("%s:\nfast %s\nfull %s", p, dumpNode(fast), dumpNode(full))
				}
			}
		}
		return nil
	})
	t.Logf("%s: the fast path took %d of %d frontmatters", root, taken, total)
	return taken, total
}

// TestFastYAMLFlowMapping checks one flow mapping's nodes against positions counted by hand: the
// mapping at its '{', each key and value at its first character, in runes.
func TestFastYAMLFlowMapping(t *testing.T) {
	doc, ok := fastYAML([]byte("generated: { by: agent/1.0, at: 2026-06-06T10:00:00Z }\nw: {t: é, u: 'v w'}\n"), nil)
	if !ok {
		t.Fatal("the fast path refused a flow mapping")
	}
	m := doc.Content[0].Content[1]
	if m.Kind != yaml.MappingNode || m.Style != yaml.FlowStyle || m.Tag != "!!map" || m.Line != 1 || m.Column != 12 || len(m.Content) != 4 {
		t.Fatalf("mapping: %s", dumpNode(m))
	}
	w := doc.Content[0].Content[3]
	want := []struct {
		n         *yaml.Node
		value     string
		tag       string
		style     yaml.Style
		line, col int
	}{
		{m.Content[0], "by", "!!str", 0, 1, 14},
		{m.Content[1], "agent/1.0", "!!str", 0, 1, 18},
		{m.Content[2], "at", "!!str", 0, 1, 29},
		{m.Content[3], "2026-06-06T10:00:00Z", "!!timestamp", 0, 1, 33},
		{w.Content[0], "t", "!!str", 0, 2, 5},
		{w.Content[1], "é", "!!str", 0, 2, 8},
		{w.Content[2], "u", "!!str", 0, 2, 11},
		{w.Content[3], "v w", "!!str", yaml.SingleQuotedStyle, 2, 14},
	}
	for _, c := range want {
		n := c.n
		if n.Kind != yaml.ScalarNode || n.Value != c.value || n.Tag != c.tag || n.Style != c.style || n.Line != c.line || n.Column != c.col {
			t.Errorf("got %s, want %q %s style %d at %d:%d", dumpNode(n), c.value, c.tag, c.style, c.line, c.col)
		}
	}
}
