package generate

import (
	"os"
	"testing"
	"time"
)

// TestOptionsPostsOutOverlap: gen refuses a bundle folder inside the posts folder (each run read
// the concepts it wrote as posts: concepts of concepts, more every run) and a posts folder inside
// the bundle (the posts were read as concepts of the bundle, and gen wrote an index.md into the
// blog's own folder), before anything is read or written.
func TestOptionsPostsOutOverlap(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.MkdirAll("blog", 0o755); err != nil {
		t.Fatal(err)
	}
	os.Symlink("blog", "alias")
	base := Options{Site: "https://x.example", Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), All: true}
	for _, tc := range []struct{ posts, out, want string }{
		{"blog", "blog/kb", `--out "blog/kb" is inside --posts "blog": gen would read the concepts it writes as posts`},
		{"blog", "blog", `--out "blog" is inside --posts "blog": gen would read the concepts it writes as posts`},
		{"alias", "blog/kb", `--out "blog/kb" is inside --posts "alias": gen would read the concepts it writes as posts`},
		{"blog", ".", `--posts "blog" is inside --out ".": the bundle would read the posts as its concepts`},
	} {
		o := base
		o.Posts, o.Out = tc.posts, tc.out
		err := CheckOptions(o)
		if err == nil || err.Error() != tc.want {
			t.Errorf("posts %s, out %s: got %v, want %s", tc.posts, tc.out, err, tc.want)
		}
	}
	for _, po := range [][2]string{{"blog", "kb"}, {"blog", "blog/.kb"}} { // side by side; hidden, which neither reads
		o := base
		o.Posts, o.Out = po[0], po[1]
		if err := CheckOptions(o); err != nil {
			t.Errorf("posts %s, out %s: %v", po[0], po[1], err)
		}
	}
}
