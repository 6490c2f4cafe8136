package okf

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// LegacyConfigName is the configuration name okf does not read: a bundle holding it is refused
// with a *ConfigError asking to rename it, rather than having its settings silently ignored.
const LegacyConfigName = ".okf.yml"

// Target is one bundle the paths a user named lie in, and which part of it they name.
type Target struct {
	// Root is the bundle root as an operating-system path (as the user wrote it, or derived).
	Root string
	// Files and Dirs are the files and folders named in this bundle (slash paths from Root). Both
	// empty: the whole bundle.
	Files, Dirs []string
	// Named is the first argument naming something in this bundle, for messages.
	Named string
	// Alone is set for standard input with no bundle above its folder: the concept is read on
	// its own, without reading the folder around it.
	Alone bool
}

// Filter returns a filter of slash paths keeping the files the target names: nil for the whole
// bundle.
func (t Target) Filter() func(string) bool {
	if len(t.Files) == 0 && len(t.Dirs) == 0 {
		return nil
	}
	files := map[string]bool{}
	for _, f := range t.Files {
		files[f] = true
	}
	dirs := append([]string(nil), t.Dirs...)
	return func(p string) bool {
		if files[p] {
			return true
		}
		for _, d := range dirs {
			if d == "" || strings.HasPrefix(p, d+"/") {
				return true
			}
		}
		return false
	}
}

// Scope is the part of the bundle one named path stands for, as trust.Options.Scope takes it:
// "" for the whole bundle, "sub/" for a folder below the root, the slash path of a file.
func (t Target) Scope() string {
	switch {
	case len(t.Dirs) > 0:
		return t.Dirs[0] + "/"
	case len(t.Files) > 0:
		return t.Files[0]
	}
	return ""
}

// NotBundleError is a path named that is in no bundle: it does not exist, or it is a folder with no
// Markdown file and no bundle above it, or a file with no bundle above it. Every command refuses
// it the same way (exit 2 in the CLI: the path named is wrong, not the bundle).
type NotBundleError struct {
	// Path is the path as named.
	Path string
	// File is set when Path is a file (okf lint can name its bundle with --root).
	File bool
	Msg  string
}

// Error is the message as a command prints it.
func (e *NotBundleError) Error() string { return e.Msg }

// PathError is another problem with the paths named: outside the bundle --root names, an
// unreadable --root, standard input's folder missing (exit 2 in the CLI).
type PathError struct{ Msg string }

// Error is the message as a command prints it.
func (e *PathError) Error() string { return e.Msg }

func pathErrorf(format string, a ...any) error { return &PathError{Msg: fmt.Sprintf(format, a...)} }

// notBundle is the one refusal of a path in no bundle.
func notBundle(named, why string, file bool) error {
	form := "%q is not an OKF bundle: %s"
	if file {
		form = "%q is not in an OKF bundle: %s"
	}
	return &NotBundleError{Path: named, File: file, Msg: fmt.Sprintf(form, named, why)}
}

// FindRoot walks up from the folder dir to its bundle root, the one rule every command uses: the
// nearest folder holding .okf.yaml (or the misnamed .okf.yml); else the topmost folder of the
// unbroken chain of folders holding an index.md that starts at the first one met (every folder of a
// bundle may have its own index.md, §8, so the nearest one is usually not the root). The walk stops
// at the top of a git repository (a folder holding .git), so it never leaves the checkout. ok is
// false when neither is found.
func FindRoot(dir string) (root string, ok bool) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	has := func(d, name string) bool {
		_, err := os.Lstat(filepath.Join(d, name))
		return err == nil
	}
	candidate := ""
	for d := abs; ; d = filepath.Dir(d) {
		if has(d, ConfigName) || has(d, LegacyConfigName) {
			return d, true
		}
		if has(d, "index.md") {
			candidate = d
		} else if candidate != "" {
			return candidate, true
		}
		if has(d, ".git") || filepath.Dir(d) == d {
			break
		}
	}
	return candidate, candidate != ""
}

// LocateOptions are how Locate places the paths named.
type LocateOptions struct {
	// Root, when set, is the bundle root (okf lint --root) instead of the one found.
	Root string
	// SkipUnbundled leaves out a file with no bundle above it (a pre-commit hook also passes a
	// repository's README.md) instead of refusing it.
	SkipUnbundled bool
}

// Locate places each path a user named (none: the current folder; folders and files in any mix)
// in its bundle: FindRoot from it, or opts.Root. A folder other than its bundle's root, or a
// file, names that part of the bundle. Targets come back one per bundle, sorted by root. A folder
// with no bundle above it is its own root if it holds a Markdown file; one that holds none, a
// file with no bundle above it (unless SkipUnbundled: returned in skipped) and a path that does
// not exist are a *NotBundleError. When every file is skipped, targets is empty.
func Locate(args []string, opts LocateOptions) (targets []Target, skipped []string, err error) {
	rootFlag := opts.Root
	switch {
	case len(args) == 0 && rootFlag != "":
		args = []string{rootFlag} // the bundle --root names, wherever the working directory is
	case len(args) == 0:
		args = []string{"."}
	}
	byRoot := map[string]*Target{}
	var order []string
	add := func(absRoot, root, named string) *Target {
		t := byRoot[absRoot]
		if t == nil {
			t = &Target{Root: root, Named: named}
			byRoot[absRoot] = t
			order = append(order, absRoot)
		}
		return t
	}
	var absFlag string
	if rootFlag != "" {
		a, err := filepath.Abs(rootFlag)
		if err != nil {
			return nil, nil, pathErrorf("--root: %v", err)
		}
		st, err := os.Stat(rootFlag)
		if err != nil || !st.IsDir() {
			return nil, nil, pathErrorf("--root: %q is not a folder", rootFlag)
		}
		absFlag = a
	}
	for _, a := range args {
		st, err := os.Stat(a)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, notBundle(a, "it does not exist", false)
		}
		if err != nil {
			// A path that exists but cannot be read: the bundle is unusable (fatal).
			return nil, nil, fmt.Errorf("%w: cannot read %q: %v", ErrNotBundle, a, unwrapPath(err))
		}
		abs, err := filepath.Abs(a)
		if err != nil {
			return nil, nil, pathErrorf("cannot read %q: %v", a, err)
		}
		dir := abs
		if !st.IsDir() {
			dir = filepath.Dir(abs)
		}
		absRoot := absFlag
		if absRoot == "" {
			r, ok := FindRoot(dir)
			switch {
			case ok:
				absRoot = r
			case st.IsDir():
				if !holdsMarkdown(abs) {
					return nil, nil, notBundle(a, fmt.Sprintf("it holds no Markdown file, and no folder above it holds %s or index.md", ConfigName), false)
				}
				absRoot = abs
			case opts.SkipUnbundled:
				skipped = append(skipped, a)
				continue
			default:
				return nil, nil, notBundle(a, fmt.Sprintf("no folder at or above it holds %s or index.md", ConfigName), true)
			}
		}
		rel, inside := RelInside(absRoot, abs)
		if !inside {
			return nil, nil, pathErrorf("%q is outside the bundle %q", a, displayRoot(rootFlag, absRoot))
		}
		root := displayRoot(rootFlag, absRoot)
		if rootFlag == "" && absRoot == abs && st.IsDir() {
			root = a // shown as written: `okf lint bundle` shows bundle/x.md
		}
		t := add(absRoot, root, a)
		switch {
		case st.IsDir():
			t.Dirs = append(t.Dirs, rel)
		default:
			t.Files = append(t.Files, rel)
		}
	}
	sort.Strings(order)
	out := make([]Target, 0, len(order))
	for _, r := range order {
		t := byRoot[r]
		for _, d := range t.Dirs {
			if d == "" {
				t.Dirs, t.Files = nil, nil // the root itself: the whole bundle
				break
			}
		}
		out = append(out, *t)
	}
	return out, skipped, nil
}

// LocateStdin places the file an editor sends on standard input: name is its path (it need not
// exist, but its folder must), found in its bundle the same way as a file named (or in the bundle
// root names, when not ""). With no bundle above its folder, the Target is Alone. Its Files hold
// the file's slash path from the root.
func LocateStdin(name, root string) (Target, error) {
	dir := filepath.Dir(name)
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return Target{}, pathErrorf("--stdin-filename %q: its folder %q does not exist", name, dir)
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return Target{}, pathErrorf("--stdin-filename: %v", err)
	}
	absRoot, alone := "", false
	if root != "" {
		if absRoot, err = filepath.Abs(root); err != nil {
			return Target{}, pathErrorf("--root: %v", err)
		}
	} else if r, ok := FindRoot(absDir); ok {
		absRoot = r
	} else {
		absRoot, alone = absDir, true
	}
	rel, inside := RelInside(absRoot, filepath.Join(absDir, filepath.Base(name)))
	if !inside || rel == "" {
		return Target{}, pathErrorf("--stdin-filename %q is outside the bundle %q", name, displayRoot(root, absRoot))
	}
	return Target{Root: displayRoot(root, absRoot), Files: []string{rel}, Named: name, Alone: alone}, nil
}

// displayRoot is how a found root is written: as the --root flag when given, else relative to
// the working directory ("..", "../..").
func displayRoot(flag, abs string) string {
	if flag != "" {
		return flag
	}
	wd, err := os.Getwd()
	if err != nil {
		return abs
	}
	rel, err := filepath.Rel(wd, abs)
	if err != nil {
		return abs
	}
	return rel
}

// RelInside returns the slash path of abs from root ("" for root itself) and whether abs is in it,
// by their names (links are for the door that reads or writes to refuse).
func RelInside(root, abs string) (string, bool) {
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	if rel == "." {
		return "", true
	}
	return filepath.ToSlash(rel), true
}

// maxProbeEntries bounds holdsMarkdown's walk: a folder of more entries than this without a
// Markdown file among them is not taken for a bundle.
const maxProbeEntries = 100_000

// holdsMarkdown reports whether a .md file lies anywhere below dir (hidden folders skipped, as the
// loader does, D5); it stops at the first one.
func holdsMarkdown(dir string) bool {
	if CheckLinkedOut(dir) != nil {
		// A folder linked out of its checkout is not walked here (that would be work, and an
		// answer, about files outside): opening it refuses it, naming the link (exit 3).
		return true
	}
	found := false
	// A folder named through a symbolic link that stays in its checkout (kb4 -> kb) is walked as
	// the folder it leads to: WalkDir does not follow a link at its root unless the name ends in a
	// separator. Bound: as deep as the loader reads (MaxDepth), and at most maxProbeEntries.
	root := dir
	if !strings.HasSuffix(root, string(filepath.Separator)) {
		root += string(filepath.Separator)
	}
	seen := 0
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if seen++; seen > maxProbeEntries {
			return fs.SkipAll
		}
		if d.IsDir() && strings.Count(strings.TrimPrefix(p, root), string(filepath.Separator)) >= MaxDepth {
			return filepath.SkipDir
		}
		if p != root && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() && strings.HasSuffix(strings.ToLower(d.Name()), ".md") {
			found = true
			return fs.SkipAll
		}
		return nil
	})
	return found
}
