//go:build unix

package okf

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// entries lists the names in dir, so a test sees any temporary file left behind.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func readString(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestWriteFileAtomicModes: a new file gets perm less the umask; a replaced file keeps its own mode
// exactly (not filtered by the umask), whatever perm says.
func TestWriteFileAtomicModes(t *testing.T) {
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	dir := t.TempDir()

	fresh := filepath.Join(dir, "new.json")
	if err := WriteFileAtomic(fresh, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(fresh); st.Mode() != 0o640 {
		t.Errorf("new file mode %v, want -rw-r----- (0644 less umask 027)", st.Mode())
	}
	for _, mode := range []fs.FileMode{0o600, 0o755, 0o666} {
		p := filepath.Join(dir, "kept")
		os.Remove(p)
		if err := os.WriteFile(p, []byte("old"), 0); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		if err := WriteFileAtomic(p, []byte("replaced"), 0o644); err != nil {
			t.Fatal(err)
		}
		st, _ := os.Stat(p)
		if st.Mode() != mode {
			t.Errorf("replaced file mode %v, want %v kept", st.Mode(), mode)
		}
		if got := readString(t, p); got != "replaced" {
			t.Errorf("content %q", got)
		}
	}
	if got := entries(t, dir); strings.Join(got, " ") != "kept new.json" {
		t.Errorf("folder holds %v, want only kept and new.json", got)
	}
}

// TestWriteFileAtomicSymlink: a link is written through to its target (relative, chained and
// dangling links included) and stays a link; a loop is an error naming the link.
func TestWriteFileAtomicSymlink(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "real", "report.txt")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	// out.txt -> hop -> real/report.txt, both relative.
	if err := os.Symlink("real/report.txt", filepath.Join(dir, "hop")); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "out.txt")
	if err := os.Symlink("hop", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(link, []byte("through"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, target); got != "through" {
		t.Errorf("target holds %q, want the new content", got)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("out.txt is no longer a symbolic link: %v %v", fi.Mode(), err)
	}
	if st, _ := os.Stat(target); st.Mode().Perm() != 0o600 {
		t.Errorf("target mode %v, want 0600 kept", st.Mode())
	}
	if got := entries(t, filepath.Join(dir, "real")); len(got) != 1 {
		t.Errorf("real/ holds %v", got)
	}

	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink("real/created.txt", dangling); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(dangling, []byte("made"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, filepath.Join(dir, "real", "created.txt")); got != "made" {
		t.Errorf("dangling link's target holds %q", got)
	}

	loop := filepath.Join(dir, "loop")
	if err := os.Symlink("loop", loop); err != nil {
		t.Fatal(err)
	}
	err := WriteFileAtomic(loop, []byte("x"), 0o644)
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != loop {
		t.Errorf("link loop: error %v, want a PathError naming %s", err, loop)
	}
}

// TestWriteFileAtomicFIFO: a FIFO is written through (a reader gets the bytes) and stays a FIFO; no
// temporary file appears beside it.
func TestWriteFileAtomicFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- "open: " + err.Error()
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- string(b)
	}()
	if err := WriteFileAtomic(fifo, []byte("streamed"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "streamed" {
		t.Errorf("reader got %q", s)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("pipe is no longer a FIFO: %v %v", fi.Mode(), err)
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Errorf("folder holds %v", names)
	}
}

// TestWriteFileAtomicDevice: /dev/null is written, not replaced; a device that refuses the write
// (/dev/full) gives an error naming it.
func TestWriteFileAtomicDevice(t *testing.T) {
	before, err := os.Stat("/dev/null")
	if err != nil {
		t.Skip("no /dev/null")
	}
	if err := WriteFileAtomic("/dev/null", []byte("discarded"), 0o644); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat("/dev/null")
	if err != nil || !os.SameFile(before, after) || after.Mode()&fs.ModeCharDevice == 0 {
		t.Errorf("/dev/null was replaced: %v %v", after, err)
	}
	if _, err := os.Stat("/dev/full"); err == nil {
		err := WriteFileAtomic("/dev/full", []byte("x"), 0o644)
		var pe *fs.PathError
		if !errors.As(err, &pe) || pe.Path != "/dev/full" || !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("/dev/full: error %v, want ENOSPC naming /dev/full", err)
		}
	}
	if err := WriteFileAtomic(t.TempDir(), []byte("x"), 0o644); !errors.Is(err, syscall.EISDIR) {
		t.Errorf("a folder as target: error %v, want EISDIR", err)
	}
}

// TestWriteFileAtomicFailure: when the last step fails, the old content is intact, no temporary
// file is left, and the error names the target, not the temporary file. A missing folder fails
// the same way.
func TestWriteFileAtomicFailure(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "baseline.json")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	rename = func(string, string) error { return &os.LinkError{Op: "rename", Old: "tmp", New: p, Err: syscall.EXDEV} }
	defer func() { rename = os.Rename }()
	err := WriteFileAtomic(p, []byte("new"), 0o644)
	if err == nil || !strings.Contains(err.Error(), p) || strings.Contains(err.Error(), ".tmp-") || !errors.Is(err, syscall.EXDEV) {
		t.Errorf("error %v, want one naming %s and not the temporary file", err, p)
	}
	if got := readString(t, p); got != "old" {
		t.Errorf("old content lost: %q", got)
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Errorf("a failed write left %v", names)
	}
	rename = os.Rename

	missing := filepath.Join(dir, "missing", "x.json")
	err = WriteFileAtomic(missing, []byte("x"), 0o644)
	if err == nil || !strings.Contains(err.Error(), missing) || strings.Contains(err.Error(), ".tmp-") {
		t.Errorf("missing folder: error %v, want one naming %s", err, missing)
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Errorf("a failed write left %v", names)
	}
}

// TestWriteFileAtomicStreamAlias: /proc/self/fd/N (what /dev/stdout links to) names an open stream;
// when that stream is a regular file opened for appending (okf … -o /dev/stdout >> log), the output
// is added to it, and the file is not replaced by another.
func TestWriteFileAtomicStreamAlias(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd")
	}
	p := filepath.Join(t.TempDir(), "log")
	if err := os.WriteFile(p, []byte("first\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	before, _ := f.Stat()
	alias := "/proc/self/fd/" + strconv.Itoa(int(f.Fd()))
	if err := WriteFileAtomic(alias, []byte("second\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(p)
	if !os.SameFile(before, after) {
		t.Error("the file behind the descriptor was replaced")
	}
	if got := readString(t, p); got != "first\nsecond\n" {
		t.Errorf("log holds %q, want the output appended", got)
	}
}

// TestReplacesBundleFile: which existing files a report must not replace, and which it may.
func TestReplacesBundleFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name, text string
		want       bool
	}{
		{"concept.md", "---\ntype: note\n---\n# x\n", true},
		{"crlf.md", "---\r\ntype: note\r\n---\r\n", true},
		{"bom.md", "\ufeff---\ntype: note\n---\n", true},
		{"loose.md", " --- \ntype: note\n---\n", true},
		{"open.md", "---\ntype: note\n", true}, // unterminated: still meant as a concept
		{"UPPER.MD", "---\ntype: note\n---\n", true},
		{"index.md", "# Index\n", true},
		{"log.md", "# Log\n", true},
		{".okf.yaml", "rules: {}\n", true},
		{".okf.yml", "rules: {}\n", true},
		{"long.md", strings.Repeat(" ", 600) + "---\ntype: note\n---\n", true},
		{"report.md", "## okf trust\n", false},
		{"rule.md", "----\nnot a delimiter\n", false},
		{"report.txt", "---\ntype: note\n---\n", false},
		{"report.json", "{}\n", false},
	} {
		p := write(c.name, c.text)
		if why, got := ReplacesBundleFile(p); got != c.want {
			t.Errorf("%s: ReplacesBundleFile = %v (%q), want %v", c.name, got, why, c.want)
		}
	}
	// Another name for the folder's index.md (a hard link here; Index.md on a case-insensitive
	// file system) is the index.
	if err := os.Link(filepath.Join(dir, "index.md"), filepath.Join(dir, "same-as-index.md")); err != nil {
		t.Fatal(err)
	}
	if why, got := ReplacesBundleFile(filepath.Join(dir, "same-as-index.md")); !got || !strings.Contains(why, "index.md") {
		t.Errorf("a second name for index.md: ReplacesBundleFile = %v, %q", got, why)
	}
	if err := os.Mkdir(filepath.Join(dir, "folder.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"", filepath.Join(dir, "missing.md"), filepath.Join(dir, "folder.md"), "/dev/stdout", "/dev/null"} {
		if why, got := ReplacesBundleFile(p); got {
			t.Errorf("%q: ReplacesBundleFile = true (%q), want false", p, why)
		}
	}
}
