package trust

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"strconv"
	"strings"
	"testing/fstest"

	"github.com/okf-tools/okf/okf"
)

// ErrRevision is returned (wrapped) when --base names nothing git can read as a tree, or the bundle
// folder is not inside a git work tree.
var ErrRevision = errors.New("cannot read the base revision")

// LoadRevision loads the bundle that the folder dir held at git revision ref, reading it through
// git (ls-tree and cat-file) into memory: no second checkout, nothing written to disk. Only
// Markdown files and .okfignore are read; other files are listed (empty) so that paths to them
// still resolve (D14).
func LoadRevision(dir, ref string, opts okf.LoadOptions) (*okf.Bundle, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, fmt.Errorf("--base needs git: %w", err)
	}
	top, err := git(dir, nil, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("%w: %q is not in a git work tree: %v", ErrRevision, dir, err)
	}
	prefix, err := git(dir, nil, "rev-parse", "--show-prefix")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRevision, err)
	}
	tree, err := git(dir, nil, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{tree}")
	if err != nil {
		return nil, fmt.Errorf("%w: git does not know the revision %q", ErrRevision, ref)
	}
	root := strings.TrimSpace(string(top))
	pre := strings.TrimSpace(string(prefix))
	args := []string{"ls-tree", "-r", "-z", "-l", "--full-tree", strings.TrimSpace(string(tree))}
	if pre != "" {
		args = append(args, "--", pre)
	}
	list, err := git(root, nil, args...)
	if err != nil {
		return nil, fmt.Errorf("listing %q at %q: %v", dir, ref, err)
	}

	fsys := revisionFS{MapFS: fstest.MapFS{}, large: map[string]int64{}}
	limit := opts.MaxFileSize
	if limit <= 0 {
		limit = okf.DefaultMaxFileSize
	}
	var want []string // object ids to read, in order
	var wantPath []string
	for _, rec := range bytes.Split(list, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		meta, name, ok := strings.Cut(string(rec), "\t")
		fields := strings.Fields(meta)
		if !ok || len(fields) != 4 || fields[1] != "blob" || fields[0] == "120000" {
			continue // submodules and symbolic links are not followed
		}
		rel := strings.TrimPrefix(name, pre)
		if rel == "" || !fs.ValidPath(rel) {
			continue
		}
		fsys.MapFS[rel] = &fstest.MapFile{Mode: 0o644}
		if size, err := strconv.ParseInt(fields[3], 10, 64); err == nil && size > limit {
			// Never fetched: the loader sees its size and reports it over the limit (OKF010).
			fsys.large[rel] = size
			continue
		}
		if strings.HasSuffix(rel, ".md") || path.Base(rel) == ".okfignore" {
			want = append(want, fields[2])
			wantPath = append(wantPath, rel)
		}
	}
	if fetchHook != nil {
		fetchHook(wantPath)
	}
	if len(want) > 0 {
		blobs, err := catBlobs(root, want)
		if err != nil {
			return nil, fmt.Errorf("reading %q at %q: %v", dir, ref, err)
		}
		for i, p := range wantPath {
			fsys.MapFS[p].Data = blobs[i]
		}
	}
	return okf.Load(fsys, opts)
}

// fetchHook, when set (tests), is told the paths whose blobs LoadRevision fetches.
var fetchHook func(paths []string)

// git runs one git command in dir and returns its stdout; stderr becomes the error.
//
// The repository may be a stranger's (a bundle unpacked from an archive can carry its own .git), so
// git runs only read-only plumbing, with the configuration keys that can run a program switched off
// (fsmonitor, hooks), no prompt, and no lazy fetch from a promisor remote.
func git(dir string, stdin io.Reader, args ...string) ([]byte, error) {
	safe := []string{"-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "protocol.allow=never"}
	cmd := exec.Command("git", append(safe, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_NO_LAZY_FETCH=1", "GIT_OPTIONAL_LOCKS=0")
	cmd.Stdin = stdin
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(errb.String()); msg != "" {
			return nil, errors.New(msg)
		}
		return nil, err
	}
	return out.Bytes(), nil
}

// catBlobs reads many objects in one `git cat-file --batch` run.
func catBlobs(dir string, ids []string) ([][]byte, error) {
	out, err := git(dir, strings.NewReader(strings.Join(ids, "\n")+"\n"), "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	r := bufio.NewReader(bytes.NewReader(out))
	blobs := make([][]byte, len(ids))
	for i, id := range ids {
		header, err := r.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("object %s: %v", id, err)
		}
		f := strings.Fields(header)
		if len(f) != 3 {
			return nil, fmt.Errorf("object %s: unexpected reply %q", id, strings.TrimSpace(header))
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("object %s: unexpected size %q", id, f[2])
		}
		blobs[i] = make([]byte, size)
		if _, err := io.ReadFull(r, blobs[i]); err != nil {
			return nil, fmt.Errorf("object %s: %v", id, err)
		}
		if _, err := r.ReadByte(); err != nil { // the newline after each object
			return nil, fmt.Errorf("object %s: %v", id, err)
		}
	}
	return blobs, nil
}

// Revision names the git commit checked out at dir (an abbreviated hash), or "" when git or the
// work tree is absent. It is shown in the report's header.
func Revision(dir string) string {
	if _, err := exec.LookPath("git"); err != nil {
		return ""
	}
	out, err := git(dir, nil, "rev-parse", "--short=12", "--verify", "--quiet", "HEAD")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
