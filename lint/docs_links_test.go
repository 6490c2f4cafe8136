package lint

import (
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/okf-tools/okf/okf"
)

// explicitAnchor is an HTML anchor a page sets itself (docs/rules.md's <a id="okf001"></a>).
var explicitAnchor = regexp.MustCompile(`<a (?:id|name)="([^"]+)"`)

// docFiles are the project's own Markdown pages: README.md and the pages next to it, docs/ and the
// testdata/corpus README. CHANGELOG.md is history and keeps the links it had.
func docFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pattern := range []string{"../*.md", "../docs/*.md", "../docs/*/*.md", "../testdata/corpus/README.md"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	out := files[:0]
	for _, f := range files {
		if filepath.Base(f) != "CHANGELOG.md" {
			out = append(out, f)
		}
	}
	if len(out) < 5 {
		t.Fatalf("only %d documentation pages found: %v", len(out), out)
	}
	return out
}

// TestDocsLinks checks every relative link of the documentation: the file it names exists in the
// repository, and its #anchor is one GitHub gives a heading of that file (headingAnchors, the rule
// OKF605 uses) or one the file sets with <a id>. A page moved or a heading renamed breaks a link
// here rather than on GitHub.
func TestDocsLinks(t *testing.T) {
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, h := range okf.ParseBody(path, src, 0).Headings {
			texts = append(texts, h.Text)
		}
		a := headingAnchors(texts)
		for _, m := range explicitAnchor.FindAllStringSubmatch(string(src), -1) {
			a[strings.ToLower(m[1])] = true
		}
		anchors[path] = a
		return a
	}
	checked := 0
	for _, file := range docFiles(t) {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range okf.ParseBody(file, src, 0).Links {
			if u, err := url.Parse(l.Target); err != nil || u.Scheme != "" || strings.HasPrefix(l.Target, "//") {
				continue // an address on the web, not checked here (no network in tests)
			}
			checked++
			where := file + ":" + strconv.Itoa(int(l.Pos.Line))
			path, frag, _ := strings.Cut(l.Target, "#")
			target := file
			if path != "" {
				p, err := url.PathUnescape(path)
				if err != nil {
					t.Errorf("%s: link %q: %v", where, l.Target, err)
					continue
				}
				target = filepath.Join(filepath.Dir(file), filepath.FromSlash(p))
				abs, _ := filepath.Abs(target)
				if abs != repo && !strings.HasPrefix(abs, repo+string(filepath.Separator)) {
					t.Errorf("%s: link %q leads out of the repository", where, l.Target)
					continue
				}
				st, err := os.Stat(target)
				if err != nil {
					t.Errorf("%s: link %q: no such file in the repository", where, l.Target)
					continue
				}
				if st.IsDir() {
					continue
				}
			}
			if frag == "" || !strings.HasSuffix(target, ".md") {
				continue
			}
			if want, err := url.PathUnescape(frag); err == nil && !anchorsOf(target)[strings.ToLower(want)] {
				t.Errorf("%s: link %q: %s has no heading with the anchor %q", where, l.Target, target, want)
			}
		}
	}
	if checked == 0 {
		t.Error("no relative link checked: the documentation pages were not read")
	}
}
