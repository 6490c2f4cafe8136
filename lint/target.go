package lint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/okf-tools/okf/okf"
)

// LegacyConfigName is the configuration name okf does not read: a bundle holding it gets a finding
// (OKF901) asking to rename it, rather than having its settings silently ignored.
const LegacyConfigName = ".okf.yml"

// Target is one bundle `okf lint` was asked to check, and which of its findings to report.
type Target struct {
	// Root is the bundle root as an operating-system path (as the user wrote it, or derived).
	Root string
	// Files and Dirs limit the findings reported to these files and to the files below these
	// folders (slash paths from Root). Both empty: the whole bundle.
	Files, Dirs []string
	// Named is the first argument naming something in this bundle, for messages.
	Named string
	// Alone is set for standard input with no bundle above its folder: the concept is linted on
	// its own, without reading the folder around it.
	Alone bool
}

// Filter returns the file filter of Options for this target: nil for the whole bundle.
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

// UsageError is a problem with the paths named (exit 2 in the CLI).
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, a ...any) error { return &UsageError{Msg: fmt.Sprintf(format, a...)} }

// FindRoot walks up from the folder dir to its bundle root, the one rule every form of `okf lint`
// uses: the nearest folder holding .okf.yaml (or the misnamed .okf.yml); else the topmost folder of
// the unbroken chain of folders holding an index.md that starts at the first one met (every folder
// of a bundle may have its own index.md, §8, so the nearest one is usually not the root). The walk
// stops at the top of a git repository (a folder holding .git), so it never leaves the checkout.
// ok is false when neither is found.
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

// ResolveTargets reads the paths named on `okf lint`'s command line: none (the current folder),
// folders and files, in any mix. Each is placed in its bundle (FindRoot, or rootFlag when given);
// a folder other than its bundle's root limits the findings to the files below it, a file to that
// file. Targets come back one per bundle, sorted by root. A folder with no bundle above it is its
// own root if it holds a Markdown file; one that holds none is not a bundle (an error). A file with
// no bundle above it is an error, or with skipUnbundled is left out and returned in skipped (a
// pre-commit hook also passes a repository's README.md); when every file is left out, targets is
// empty.
func ResolveTargets(args []string, rootFlag string, skipUnbundled bool) (targets []Target, skipped []string, err error) {
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
			return nil, nil, usagef("--root: %v", err)
		}
		st, err := os.Stat(rootFlag)
		if err != nil || !st.IsDir() {
			return nil, nil, usagef("--root: %q is not a folder", rootFlag)
		}
		absFlag = a
	}
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			if len(args) == 1 {
				// One path that cannot be read: the bundle is unusable (fatal), not the usage.
				return nil, nil, fmt.Errorf("%w: cannot read %q: %v", okf.ErrNotBundle, a, unwrapPathErr(err))
			}
			return nil, nil, usagef("cannot lint %q: %v", a, unwrapPathErr(err))
		}
		abs, err := filepath.Abs(a)
		if err != nil {
			return nil, nil, usagef("cannot lint %q: %v", a, err)
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
					return nil, nil, usagef("%q is not an OKF bundle: it holds no Markdown file, and no folder above it holds %s or index.md", a, ConfigName)
				}
				absRoot = abs
			case skipUnbundled:
				skipped = append(skipped, a)
				continue
			default:
				return nil, nil, usagef("cannot find the bundle of %q: no %s or index.md above it (name the bundle with --root)", a, ConfigName)
			}
		}
		rel, inside := relInside(absRoot, abs)
		if !inside {
			return nil, nil, usagef("%q is outside the bundle %q", a, displayRoot(rootFlag, absRoot))
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
	// Every file skipped (a pre-commit run on a commit that touches only Markdown outside the
	// bundles): no target and no error, so the hook passes with its note.
	return out, skipped, nil
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

// relInside returns the slash path of abs from root ("" for root itself) and whether abs is in it.
func relInside(root, abs string) (string, bool) {
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
	if okf.CheckLinkedOut(dir) != nil {
		// A folder linked out of its checkout is not walked here (that would be work, and an
		// answer, about files outside): opening it refuses it, naming the link (exit 3).
		return true
	}
	found := false
	// A folder named through a symbolic link that stays in its checkout (kb4 -> kb) is walked as
	// the folder it leads to: WalkDir does not follow a link at its root unless the name ends in a
	// separator. Bound: as deep as the loader reads (okf.MaxDepth), and at most maxProbeEntries.
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
		if d.IsDir() && strings.Count(strings.TrimPrefix(p, root), string(filepath.Separator)) >= okf.MaxDepth {
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

// LoadConfig reads the configuration of the bundle r was opened on: the file flag names (through
// r, confined, when it lies inside the bundle; else as the user's own file, capped at r's limit),
// else <root>/.okf.yaml through r (nil when absent; one that cannot be read, such as a link leading
// outside or a named pipe, is a finding and the defaults apply). The Config's Path is the slash path
// from the root when the file is in the bundle; otherwise display is how to show it. A .okf.yml at
// the root (never read) adds a finding asking to rename it. The error is a *UsageError when the
// flag's file cannot be read.
func LoadConfig(r *okf.Root, flag string) (cfg *Config, display string, err error) {
	switch {
	case flag == "":
		data, err := r.ReadFile(ConfigName)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			cfg = UnreadableConfig(ConfigName, err)
		default:
			cfg = ParseConfig(ConfigName, data)
		}
	default:
		if rel, ok := r.Rel(flag); ok {
			data, err := r.ReadFile(rel)
			if err != nil {
				return nil, "", usagef("--config: cannot read %q: %v", flag, unwrapPathErr(err))
			}
			cfg = ParseConfig(rel, data)
			break
		}
		data, err := okf.ReadFileLimit(flag, r.MaxFileSize())
		if err != nil {
			return nil, "", usagef("--config: cannot read %q: %v", flag, unwrapPathErr(err))
		}
		display = filepath.ToSlash(flag)
		cfg = ParseConfig(display, data)
	}
	if _, err := r.Lstat(LegacyConfigName); err == nil {
		if cfg == nil {
			cfg = ParseConfig(LegacyConfigName, nil)
		}
		cfg.Diagnostics = append(cfg.Diagnostics, okf.Diagnostic{
			Pos: okf.Position{Path: LegacyConfigName, Line: 1, Col: 1}, Code: ConfigInvalid.Code, Severity: ConfigInvalid.Severity,
			Message: fmt.Sprintf("okf reads its configuration from %s, not %s: rename the file (its settings are not applied)", ConfigName, LegacyConfigName)})
	}
	return cfg, display, nil
}

func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// ResolveStdin places the file an editor sends on standard input (`okf lint -`): name is its path
// (--stdin-filename; it need not exist, but its folder must), found in its bundle the same way as
// a file named on the command line. The Target's Files hold its slash path from the root.
func ResolveStdin(name, rootFlag string) (Target, error) {
	dir := filepath.Dir(name)
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return Target{}, usagef("--stdin-filename %q: its folder %q does not exist", name, dir)
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return Target{}, usagef("--stdin-filename: %v", err)
	}
	absRoot, alone := "", false
	if rootFlag != "" {
		if absRoot, err = filepath.Abs(rootFlag); err != nil {
			return Target{}, usagef("--root: %v", err)
		}
	} else if r, ok := FindRoot(absDir); ok {
		absRoot = r
	} else {
		absRoot, alone = absDir, true
	}
	rel, inside := relInside(absRoot, filepath.Join(absDir, filepath.Base(name)))
	if !inside || rel == "" {
		return Target{}, usagef("--stdin-filename %q is outside the bundle %q", name, displayRoot(rootFlag, absRoot))
	}
	return Target{Root: displayRoot(rootFlag, absRoot), Files: []string{rel}, Named: name, Alone: alone}, nil
}
