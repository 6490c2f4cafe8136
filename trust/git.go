package trust

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"testing/fstest"

	"github.com/okf-tools/okf/okf"
)

// ErrRevision is returned (wrapped) when --base names nothing git can read as a tree, the bundle
// folder is not inside a git work tree, or a folder from it up looks like a planted git repository.
var ErrRevision = errors.New("cannot read the base revision")

// LoadRevision loads the bundle that the folder dir held at git revision ref, reading it through
// okf's git door (okf.GitRepo: ls-tree and cat-file on the checkout's own repository, named
// explicitly) into memory: no second checkout, nothing written to disk. Only Markdown files,
// .okfignore and .okf.yaml (for its ignore list, which replaces opts.Ignore) are read; other files are listed (empty) so that paths to them still resolve (D14).
// A folder in no checkout, and one below a folder that looks like a git repository (a pull
// request can commit HEAD, objects/ and refs/ to fake the base), are ErrRevision.
func LoadRevision(dir, ref string, opts okf.LoadOptions) (*okf.Bundle, error) {
	repo, err := okf.OpenGitRepo(dir)
	if errors.Is(err, okf.ErrNoGit) {
		return nil, fmt.Errorf("--base needs git: %w", err)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRevision, err)
	}
	tree, err := repo.Tree(ref)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRevision, err)
	}
	list, err := repo.ListTree(tree)
	if err != nil {
		return nil, fmt.Errorf("listing %q at %q: %v", dir, ref, err)
	}

	fsys := revisionFS{MapFS: fstest.MapFS{}, large: map[string]int64{}}
	limit := opts.MaxFileSize
	if limit <= 0 {
		limit = okf.DefaultMaxFileSize
	}
	var want []okf.GitTreeEntry // blobs to read, in order
	for _, e := range list {
		if e.Type != "blob" || e.Mode == "120000" {
			continue // submodules and symbolic links are not followed
		}
		rel := e.Path
		if rel == "" || !fs.ValidPath(rel) {
			continue
		}
		fsys.MapFS[rel] = &fstest.MapFile{Mode: 0o644}
		if e.Size > limit {
			// Never fetched: the loader sees its size and reports it over the limit (OKF010).
			fsys.large[rel] = e.Size
			continue
		}
		if strings.HasSuffix(rel, ".md") || path.Base(rel) == ".okfignore" || rel == okf.ConfigName {
			want = append(want, e)
		}
	}
	if fetchHook != nil {
		paths := make([]string, len(want))
		for i, e := range want {
			paths[i] = e.Path
		}
		fetchHook(paths)
	}
	if len(want) > 0 {
		blobs, err := repo.ReadBlobs(want)
		if err != nil {
			return nil, fmt.Errorf("reading %q at %q: %v", dir, ref, err)
		}
		for i, e := range want {
			fsys.MapFS[e.Path].Data = blobs[i]
		}
	}
	// The base is read as a checkout of it would be: with its own .okf.yaml ignore list, as with its
	// own .okfignore, never the head's (a pull request adding ignore: [a.md] would else hide a.md's
	// removal from the comparison).
	opts.Ignore = nil
	if f, ok := fsys.MapFS[okf.ConfigName]; ok {
		settings, _ := okf.ParseSettings(f.Data)
		opts.Ignore = settings.Ignore
	}
	return okf.Load(fsys, opts)
}

// fetchHook, when set (tests), is told the paths whose blobs LoadRevision fetches.
var fetchHook func(paths []string)

// Revision names the git commit checked out at dir (an abbreviated hash), or "" when git or the
// work tree is absent. It is shown in the report's header.
func Revision(dir string) string {
	repo, err := okf.OpenGitRepo(dir)
	if err != nil {
		return ""
	}
	head, err := repo.Head()
	if err != nil {
		return ""
	}
	return head
}
