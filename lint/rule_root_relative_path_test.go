package lint

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/okf-tools/okf/okf"
)

// TestRootOnlyLinkAdvice: the `/path` form link-broken advises reads back as the file, with the
// fragment where a browser splits the href: `a&#38;b.md` has none (the `#` is a reference's).
func TestRootOnlyLinkAdvice(t *testing.T) {
	note := &fstest.MapFile{Data: []byte("---\ntype: Note\n---\n")}
	b, err := okf.Load(fstest.MapFS{"a&b.md": note, "d x.md": note, "sub/s.md": note}, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for target, want := range map[string]string{
		"a&#38;b.md":       "/a&b.md",
		"a&amp;b.md#f":     "/a&b.md#f",
		"d%20x.md":         "</d x.md>",
		"d%20x.md#s\\_1":   "</d x.md#s_1>",
		"a&amp;b.md#x\\(y": "/a&b.md#x%28y", // a decoded ( would leave the link open
	} {
		got := rootOnlyLink(b, target)
		if got != want {
			t.Errorf("rootOnlyLink(%q) = %q, want %q", target, got, want)
			continue
		}
		dest := strings.TrimSuffix(strings.TrimPrefix(got, "<"), ">") // as the body parser reads it
		if r := b.ResolveLink("sub/s.md", dest); !r.Exists {
			t.Errorf("the advice %q for %q leads nowhere from sub/s.md", got, target)
		}
	}
}
