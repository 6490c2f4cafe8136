package okf

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
)

// secret is content outside the root that no confined read may return.
const secret = "AWS_SECRET=do-not-leak"

// rootWithOutside makes <tmp>/outside.txt (the secret) and <tmp>/bundle (the root), and returns the
// bundle folder.
func rootWithOutside(t *testing.T) (bundle, outside string) {
	t.Helper()
	tmp := t.TempDir()
	outside = filepath.Join(tmp, "outside.txt")
	if err := os.WriteFile(outside, []byte(secret), 0o644); err != nil {
		t.Fatal(err)
	}
	bundle = filepath.Join(tmp, "bundle")
	if err := os.MkdirAll(filepath.Join(bundle, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bundle, "sub", "a.md"), []byte("inside"), 0o644); err != nil {
		t.Fatal(err)
	}
	return bundle, outside
}

func mustOpenRoot(t *testing.T, dir string, limit int64) *FileSystem {
	t.Helper()
	r, err := OpenFileSystem(dir, limit)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func TestRootConfinesPathsAndLinks(t *testing.T) {
	bundle, outside := rootWithOutside(t)
	if err := os.Symlink(outside, filepath.Join(bundle, ".okf.yaml")); err != nil {
		t.Skipf("cannot make symbolic links here: %v", err)
	}
	if err := os.Symlink("../../outside.txt", filepath.Join(bundle, "sub", "rel.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../sub", filepath.Join(bundle, "sub", "loop")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.md", filepath.Join(bundle, "sub", "alias.md")); err != nil {
		t.Fatal(err)
	}
	r := mustOpenRoot(t, bundle, 0)
	for _, name := range []string{".okf.yaml", "sub/rel.md", "../outside.txt", "sub/../../outside.txt", "/etc/passwd", outside} {
		data, err := r.ReadFile(name)
		if !errors.Is(err, ErrOutside) {
			t.Errorf("ReadFile(%q) = %q, %v; want ErrOutside", name, data, err)
		}
		if err != nil && strings.Contains(err.Error(), "do-not-leak") {
			t.Errorf("ReadFile(%q) error shows outside content: %v", name, err)
		}
		if err != nil && !strings.Contains(err.Error(), name) {
			t.Errorf("ReadFile(%q) error does not name the file: %v", name, err)
		}
		if _, err := fs.ReadFile(r, name); err == nil {
			t.Errorf("fs.ReadFile(root, %q) succeeded", name)
		}
	}
	// A link inside the root is followed; so is a folder link that stays inside.
	for _, name := range []string{"sub/alias.md", "sub/loop/a.md", "sub/./a.md"} {
		data, err := r.ReadFile(name)
		if err != nil || string(data) != "inside" {
			t.Errorf("ReadFile(%q) = %q, %v; want the file inside", name, data, err)
		}
	}
}

func TestRootSizeLimit(t *testing.T) {
	bundle, _ := rootWithOutside(t)
	write := func(name string, n int) {
		if err := os.WriteFile(filepath.Join(bundle, name), bytes.Repeat([]byte("a"), n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("exact.md", 100)
	write("over.md", 101)
	// A 200 MB file made sparse: it takes no disk, and must be refused without being read.
	huge := filepath.Join(bundle, "huge.md")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(200 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	r := mustOpenRoot(t, bundle, 100)
	if r.MaxFileSize() != 100 {
		t.Fatalf("MaxFileSize = %d", r.MaxFileSize())
	}
	if data, err := r.ReadFile("exact.md"); err != nil || len(data) != 100 {
		t.Errorf("a file of exactly the limit: %d bytes, %v", len(data), err)
	}
	_, err = r.ReadFile("over.md")
	var tl *TooLargeError
	if !errors.Is(err, ErrTooLarge) || !errors.As(err, &tl) || tl.Size != 101 || tl.Limit != 100 {
		t.Errorf("over the limit: %v; want ErrTooLarge with size 101, limit 100", err)
	}
	if err == nil || err.Error() != "read over.md: file is larger than the 100 bytes size limit (101 bytes)" {
		t.Errorf("message: %v", err)
	}
	before := heapAlloc()
	if _, err := r.ReadFile("huge.md"); !errors.Is(err, ErrTooLarge) {
		t.Errorf("huge: %v", err)
	}
	if grew := heapAlloc() - before; grew > 1<<20 {
		t.Errorf("refusing a 200 MB file allocated %d bytes", grew)
	}
	// The default limit.
	if d := mustOpenRoot(t, bundle, 0); d.MaxFileSize() != DefaultMaxFileSize || DefaultMaxFileSize != 8<<20 {
		t.Errorf("default limit %d", d.MaxFileSize())
	}
}

func heapAlloc() int64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.TotalAlloc)
}

// endless is a stream that never ends.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

func TestReadLimitStopsAnEndlessStream(t *testing.T) {
	before := heapAlloc()
	_, err := ReadLimit(endless{}, "standard input", 1<<20)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "standard input") || !strings.Contains(err.Error(), "1 MiB") {
		t.Fatalf("ReadLimit(endless) = %v", err)
	}
	// Doubling from 64 KiB up to the limit allocates under twice the limit in all.
	if grew := heapAlloc() - before; grew > 3<<20 {
		t.Errorf("reading a capped stream allocated %d bytes for a 1 MiB limit", grew)
	}
	data, err := ReadLimit(strings.NewReader("short"), "stdin", 0)
	if err != nil || string(data) != "short" {
		t.Errorf("ReadLimit(short) = %q, %v", data, err)
	}
	if data, err := ReadLimit(io.LimitReader(endless{}, 1<<20), "stdin", 1<<20); err != nil || len(data) != 1<<20 {
		t.Errorf("exactly the limit: %d, %v", len(data), err)
	}
}

func TestReadFileIntoReusesTheBuffer(t *testing.T) {
	bundle, _ := rootWithOutside(t)
	r := mustOpenRoot(t, bundle, 0)
	buf := make([]byte, 0, 4096)
	data, err := r.ReadFileInto("sub/a.md", buf)
	if err != nil || string(data) != "inside" || &data[:1][0] != &buf[:1][0] {
		t.Errorf("ReadFileInto did not read into the given buffer: %q, %v", data, err)
	}
}

func TestNewRootOnFS(t *testing.T) {
	m := fstest.MapFS{
		"a.md":   {Data: []byte("hello")},
		"big.md": {Data: bytes.Repeat([]byte("b"), 11)},
		"p.md":   {Mode: fs.ModeNamedPipe},
	}
	r := NewFileSystem(m, 10)
	if data, err := r.ReadFile("a.md"); err != nil || string(data) != "hello" {
		t.Errorf("a.md: %q, %v", data, err)
	}
	if _, err := fs.ReadFile(r, "big.md"); !errors.Is(err, ErrTooLarge) {
		t.Errorf("big.md: %v", err)
	}
	if _, err := r.ReadFile("p.md"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("p.md: %v", err)
	}
	if _, err := r.ReadFile("../a.md"); !errors.Is(err, ErrOutside) {
		t.Errorf("../a.md: %v", err)
	}
	if NewFileSystem(r, 0) != r {
		t.Error("wrapping a FileSystem again made a new one")
	}
	if NewFileSystem(r, 5).MaxFileSize() != 5 || r.MaxFileSize() != 10 {
		t.Error("NewFileSystem(root, 5) changed the original's limit or did not apply")
	}
}

func TestRootReadPath(t *testing.T) {
	bundle, outside := rootWithOutside(t)
	if err := os.Symlink(outside, filepath.Join(bundle, "receipt.json")); err != nil {
		t.Skipf("cannot make symbolic links here: %v", err)
	}
	r := mustOpenRoot(t, bundle, 0)
	// A path inside the bundle is read through the root: the link out is refused.
	p := filepath.Join(bundle, "receipt.json")
	if data, err := r.ReadPath(p); !errors.Is(err, ErrOutside) || !strings.Contains(err.Error(), p) {
		t.Errorf("ReadPath(link out) = %q, %v", data, err)
	}
	if data, err := r.ReadPath(filepath.Join(bundle, "sub", "a.md")); err != nil || string(data) != "inside" {
		t.Errorf("ReadPath(inside) = %q, %v", data, err)
	}
	// A file the user named outside the bundle is theirs to read.
	if data, err := r.ReadPath(outside); err != nil || string(data) != secret {
		t.Errorf("ReadPath(outside) = %q, %v", data, err)
	}
	if _, err := ReadFileLimit(outside, 5); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadFileLimit over the limit: %v", err)
	}
	if _, err := ReadFileLimit(bundle, 0); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadFileLimit(folder): %v", err)
	}
}

// countingReader is a file of content whose Read calls are counted; each returns at most chunk
// bytes when chunk > 0.
type countingReader struct {
	content string
	chunk   int
	reads   int
}

func (c *countingReader) Read(p []byte) (int, error) {
	c.reads++
	if c.content == "" {
		return 0, io.EOF
	}
	if c.chunk > 0 && len(p) > c.chunk {
		p = p[:c.chunk]
	}
	n := copy(p, c.content)
	c.content = c.content[n:]
	return n, nil
}

// TestReadCappedShortIsEnd: a regular file read in one call when the read stops at the size fstat
// gave; a file that grew or shrank since, or a read that stops early, is still read to its end, and
// the size limit holds.
func TestReadCappedShortIsEnd(t *testing.T) {
	for _, c := range []struct {
		name         string
		content      string
		size, limit  int64
		chunk        int
		want         string
		tooLarge     bool
		maxReads     int // 0: no bound
		minReads     int
		withoutShort int // reads readCapped (shortIsEnd false) makes
	}{
		{name: "as fstat said", content: "hello", size: 5, limit: 100, want: "hello", maxReads: 1, withoutShort: 2},
		{name: "empty", content: "", size: 0, limit: 100, want: "", maxReads: 1, withoutShort: 1},
		{name: "grew since fstat", content: "hello world", size: 5, limit: 100, want: "hello world", minReads: 2},
		{name: "shrank since fstat", content: "hel", size: 5, limit: 100, want: "hel", minReads: 2},
		{name: "short reads", content: "hello", size: 5, limit: 100, chunk: 2, want: "hello", minReads: 3},
		{name: "grew past the limit", content: "hello world", size: 5, limit: 8, tooLarge: true},
		{name: "exactly the limit", content: "12345678", size: 8, limit: 8, want: "12345678", maxReads: 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			rd := &countingReader{content: c.content, chunk: c.chunk}
			data, err := readCappedAt(rd, c.size, c.limit, nil, true)
			if c.tooLarge {
				if !errors.Is(err, ErrTooLarge) {
					t.Fatalf("got %q, %v; want ErrTooLarge", data, err)
				}
				return
			}
			if err != nil || string(data) != c.want {
				t.Fatalf("got %q, %v; want %q", data, err, c.want)
			}
			if c.maxReads > 0 && rd.reads > c.maxReads {
				t.Errorf("%d reads, want at most %d", rd.reads, c.maxReads)
			}
			if rd.reads < c.minReads {
				t.Errorf("%d reads, want at least %d (read to the end)", rd.reads, c.minReads)
			}
			if c.withoutShort > 0 {
				rd := &countingReader{content: c.content, chunk: c.chunk}
				if data, err := readCapped(rd, c.size, c.limit, nil); err != nil || string(data) != c.want || rd.reads != c.withoutShort {
					t.Errorf("readCapped: %q, %v in %d reads, want %q in %d", data, err, rd.reads, c.want, c.withoutShort)
				}
			}
		})
	}
}
