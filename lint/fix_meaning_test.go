package lint

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/okf-tools/okf/okf"
)

// fixableKeys are the top-level keys a fix may change (OKF104 tags, OKF201/202 timestamps, OKF602
// paths, OKF107 the version key); any other key must read the same after every fix.
var fixableKeys = map[string]bool{
	"tags": true, "stale_after": true, "generated": true, "verified": true, "timestamp": true,
	"resource": true, "sources": true, "computation": true, "executor": true, "attester": true,
	"okf_version": true,
}

// decodeFM reads a file's frontmatter with yaml.v3 alone (not okf's reading of it), so that the
// check below does not share the code it checks.
func decodeFM(t *testing.T, src []byte) (map[string]any, []byte) {
	t.Helper()
	sp := okf.SplitFrontmatter(src)
	if sp.Status != okf.FrontmatterOK {
		return nil, sp.Body
	}
	var m map[string]any
	if err := yaml.Unmarshal(sp.YAML, &m); err != nil {
		t.Fatalf("frontmatter no longer parses: %v\n%s", err, src)
	}
	return m, sp.Body
}

// checkFixMeaning applies every fix okf offers on the bundle at dir, as --fix does, and compares
// each file's frontmatter before and after, key by key: keys no fix touches read the same, tags
// read as a list of strings, and the body is unchanged (or, for an index, only appended to).
func checkFixMeaning(t *testing.T, dir string) (files int) {
	t.Helper()
	b, err := okf.LoadDir(dir, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ds := Run(b, Options{Now: corpusNow})
	for _, f := range PlanFixes(b, ds, Fixes(b, ds)) {
		if f.New == nil {
			continue
		}
		files++
		before, bb := decodeFM(t, f.Old)
		after, ab := decodeFM(t, f.New)
		if !bytes.HasPrefix(ab, bb) || (!bytes.Equal(ab, bb) && filepath.Base(f.Path) != "index.md") {
			t.Errorf("%s %s: the body changed", dir, f.Path)
		}
		for k, v := range before {
			if fixableKeys[k] || strings.Contains(k, "version") {
				continue
			}
			if !reflect.DeepEqual(v, after[k]) {
				t.Errorf("%s %s: key %q changed from %#v to %#v", dir, f.Path, k, v, after[k])
			}
		}
		for k := range after {
			if _, ok := before[k]; !ok && k != "okf_version" {
				t.Errorf("%s %s: key %q appeared", dir, f.Path, k)
			}
		}
		if tags, ok := after["tags"]; ok && !reflect.DeepEqual(tags, before["tags"]) {
			list, isList := tags.([]any)
			for _, it := range list {
				if _, isStr := it.(string); !isStr {
					isList = false
				}
			}
			if old, wasStr := before["tags"].(string); wasStr && !isList {
				t.Errorf("%s %s: tags %q became %#v, not a list of strings", dir, f.Path, old, tags)
			}
			if old, wasStr := before["tags"].(string); wasStr && isList {
				if want := independentTags(old); want != nil && !reflect.DeepEqual(list, want) {
					t.Errorf("%s %s: tags %q became %#v, want %#v", dir, f.Path, old, list, want)
				}
			}
		}
	}
	return files
}

// independentTags is what a person means by a tags string, worked out without okf: a flow list's
// items, else the comma-separated parts (nil when neither applies).
func independentTags(s string) []any {
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "[") {
		var l []string
		if yaml.Unmarshal([]byte(t), &l) != nil {
			return nil
		}
		out := []any{}
		for _, x := range l {
			out = append(out, strings.TrimSpace(x))
		}
		return out
	}
	out := []any{}
	for _, p := range strings.Split(t, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// TestFixMeaningOnRealBundles runs every fix over every real bundle of the corpus and every test
// bundle, comparing the parsed frontmatter before and after.
func TestFixMeaningOnRealBundles(t *testing.T) {
	var dirs []string
	if ents, err := os.ReadDir(corpusDir); err == nil {
		for _, e := range ents {
			if e.IsDir() {
				dirs = append(dirs, filepath.Join(corpusDir, e.Name()))
			}
		}
	} else {
		t.Fatal(err)
	}
	tb, _ := filepath.Glob(filepath.Join("..", "testdata", "bundles", "*"))
	fx, _ := filepath.Glob(filepath.Join("testdata", "rules", "*", "*"))
	dirs = append(append(dirs, tb...), fx...)
	total := 0
	for _, d := range dirs {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			total += checkFixMeaning(t, d)
		}
	}
	if total == 0 {
		t.Fatal("no fix was planned on any bundle")
	}
	t.Logf("%d files fixed across %d bundles", total, len(dirs))
}

// TestFixMeaningOnShapes generates frontmatter in the shapes people write (strings that look like
// lists, flow and block lists, comments, anchors, CRLF, tabs, quotes) around a fixable tags value
// and timestamp, and checks every fix's meaning as above.
func TestFixMeaningOnShapes(t *testing.T) {
	tagShapes := []string{
		`"[okf, producer, agent, protocol]"`, `'[a, b]'`, `"a, b, c"`, `a, b`, `"[a, [b]]"`, `"a, [b"`,
		`"[2026, true]"`, `"x"`, `[a, 2026]`, `[a, "", b]`, "\n  - a\n  - 2026", `"a,,b"`, `"[a, b]" # note`,
		`&t "[a, b]"`, `"[\"a, b\", c]"`, `"{a: b}"`, `"[a, b"`,
	}
	others := []string{
		"title: \"[not, tags]\"", "description: a, b", "alias: &x [1, 2]\nuse: *x", "list:\n  - \"[a]\"\n  - b",
		"# a comment\nother: 'q'", "n: 010", "when: 2026-01-02", "flow: {a: \"[b, c]\"}",
	}
	r := rand.New(rand.NewPCG(1, 2))
	total := 0
	for i := 0; i < 300; i++ {
		nl := "\n"
		if r.IntN(3) == 0 {
			nl = "\r\n"
		}
		lines := []string{"type: Note", "tags: " + tagShapes[r.IntN(len(tagShapes))]}
		for j := r.IntN(4); j > 0; j-- {
			lines = append(lines, others[r.IntN(len(others))])
		}
		if r.IntN(2) == 0 {
			lines = append(lines, "stale_after: 2026-0"+fmt.Sprint(1+r.IntN(9))+"-01")
		}
		r.Shuffle(len(lines)-1, func(a, b int) { lines[a+1], lines[b+1] = lines[b+1], lines[a+1] })
		fm := strings.ReplaceAll(strings.Join(lines, "\n"), "\n", nl)
		if r.IntN(4) == 0 {
			fm = strings.ReplaceAll(fm, ": ", ":\t")
		}
		dir := t.TempDir()
		src := "---" + nl + fm + nl + "---" + nl + "# Body" + nl + nl + "Text [x](y.md)." + nl
		if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		total += checkFixMeaning(t, dir)
	}
	if total < 50 {
		t.Fatalf("only %d of 300 generated files were fixed", total)
	}
}
