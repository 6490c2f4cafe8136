package fastyaml

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The helpers the fast path's tests share with okf's: they cannot import okf (which imports this
// package), so they are copies, kept small.

// corpusDir is the shared corpus of real bundles beside the checkout, else the project's copy
// (okf's corpusDir, from this folder).
func corpusDir(t testing.TB) string {
	t.Helper()
	if dir := filepath.Join("..", "..", "..", "..", "shared", "corpus"); isDir(dir) {
		return dir
	}
	return filepath.Join("..", "..", "..", "testdata", "corpus")
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// frontmatterYAML is the YAML between the delimiters as okf.SplitFrontmatter cuts it (D2: an
// optional BOM, then a "---" line, spaces, tabs and a "\r" around it forgiven, up to the next such
// line); ok is false when the file has no terminated block.
func frontmatterYAML(src []byte) (yaml []byte, ok bool) {
	src = bytes.TrimPrefix(src, []byte{0xEF, 0xBB, 0xBF})
	delim := func(l []byte) bool { return string(bytes.Trim(bytes.TrimSuffix(l, []byte{'\r'}), " \t")) == "---" }
	first, next := nextLine(src, 0)
	if !delim(first) {
		return nil, false
	}
	for pos := next; pos < len(src); {
		l, n := nextLine(src, pos)
		if delim(l) {
			return src[next:pos], true
		}
		pos = n
	}
	return nil, false
}

// xorshift returns a small deterministic generator of ints in [0, n) for the differential tests: the
// same seed draws the same cases on every run and machine.
func xorshift(seed uint64) func(n int) int {
	r := seed
	return func(n int) int {
		r ^= r << 13
		r ^= r >> 7
		r ^= r << 17
		return int(r % uint64(n))
	}
}
