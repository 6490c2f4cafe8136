package lint

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing/fstest"
	"time"

	"github.com/okf-tools/okf/okf"
)

// Request is one lint run as a user asks for it (`okf lint`'s flags are its fields): which paths,
// in which bundles, with which configuration, clock and fixes. Lint does the whole run: it finds
// each bundle's root, opens it through the one door (okf.Open), reads its configuration, lints it
// and combines the reports of several bundles into one. Messages about a field name the `okf lint`
// flag that sets it (--config, --baseline), as the rest of the library's messages do.
type Request struct {
	// Paths are the files and folders to lint (none: Root when given, else the working
	// directory). Each is linted against its own bundle, found as every command finds one
	// (okf.Locate); paths in several bundles make one report.
	Paths []string
	// Root names the bundle root of the paths instead of finding it (--root).
	Root string
	// SkipUnbundled leaves out files in no bundle instead of failing (Result.Skipped lists them).
	SkipUnbundled bool
	// Stdin, when not nil, is one concept to lint (an editor's buffer) as the file StdinName of
	// its bundle on disk (default "stdin.md" in the working directory); Paths must then be empty.
	// Standard input is read whole, at most MaxFileSize bytes.
	Stdin     io.Reader
	StdinName string
	// ConfigFile is read for lint's own keys instead of <root>/.okf.yaml (--config; LoadConfig).
	ConfigFile string
	// MaxFileSize caps each file read (0: the configuration's max_file_size, else the default).
	MaxFileSize int64
	// Now and ExpiringWithin are Options'.
	Now            time.Time
	ExpiringWithin time.Duration
	// ShowConfig reads each bundle's configuration and lints nothing: Result.Configs.
	ShowConfig bool
	// Fix applies the safe fixes (FixBundle) before the report, which is of what is left; with
	// DryRun nothing is written and nothing is linted: each Result.Bundles' Fix.Preview holds the
	// fixes of the first round. Standard input cannot be fixed.
	Fix, DryRun bool
	// Baseline is a baseline file (read confined to the bundle when it lies inside it): only the
	// findings it does not record are reported. One bundle only.
	Baseline string
	// WriteBaseline records the findings as the bundle's baseline in BaselineFile (default
	// DefaultBaseline at the root; WriteBaseline) instead of reporting them. One bundle only.
	WriteBaseline bool
	BaselineFile  string
	// WithFixes puts into the report the fixes of the findings left (Report.Fixes), for SARIF.
	WithFixes bool
}

// Result is what a lint run did. Lint returns it even with an error, holding what was done
// before the error (the files skipped, the bundles fixed), so a caller can say it.
type Result struct {
	// Report is the findings of every bundle linted, combined (nil when nothing was reported:
	// ShowConfig, DryRun, or WriteBaseline). Its Files counts the files checked. The caller sets
	// how it is shown (Version, FailOn, Group, Quiet, the floor) and picks a printer.
	Report *Report
	// Bundles are the bundles linted, in the order of the paths named.
	Bundles []BundleRun
	// Skipped are the files in no bundle left out (SkipUnbundled), as named.
	Skipped []string
	// Configs are the configurations in force, for ShowConfig.
	Configs []ShownConfig
	// BaselineWritten is the baseline file written (WriteBaseline) and Recorded how many findings
	// it holds.
	BaselineWritten string
	Recorded        int
}

// BundleRun is one bundle of a run.
type BundleRun struct {
	// Root is the bundle root as the paths named it; Display shows one of its slash paths as a
	// path from the working directory (PathDisplay).
	Root    string
	Display func(string) string
	// Files counts the Markdown files checked: those reported on (under a folder or named).
	Files int
	// Fix is what Request.Fix did to this bundle (nil without Fix).
	Fix *FixResult
	// Err is the error the run stopped at in this bundle, once it had fixed some of it (Lint
	// returns it too): what Fix says was done before it.
	Err error
	// FixErr is Err when it stopped the fixing itself (ErrFixRefused, a lock held, a file not
	// written), nil when every fix was written and a later step failed (loading the fixed bundle
	// again): then Fix.Fixed findings were fixed, and okf lint --fix says so before it exits 3.
	FixErr error
}

// BaselineError is a baseline that could not be written (WriteBaseline): Path the file, Err why.
type BaselineError struct {
	Path string
	Err  error
}

func (e *BaselineError) Error() string { return fmt.Sprintf("cannot write %q: %v", e.Path, e.Err) }
func (e *BaselineError) Unwrap() error { return e.Err }

// ErrFixRefused is returned when a fix was not written because its file changed meanwhile or a
// link stood in its way (okf.ApplyChanges refused it): the run stops at that bundle, whose
// BundleRun.Fix.Refused says which files.
var ErrFixRefused = errors.New("fixes refused")

// Lint runs one lint (`okf lint`) as req asks and returns its report. Errors: the paths named
// (a path in no bundle: *okf.NotBundleError; another bad path or request: *UsageError), a
// configuration with problems (*okf.ConfigError), which `okf lint` exits 2 on; a bundle that cannot
// be read, a lock held (okf.ErrLocked), a baseline not written (*BaselineError) and ErrFixRefused,
// which are failures of the run (exit 3).
func Lint(ctx context.Context, req Request) (*Result, error) {
	RegisterRuleNames()
	res := &Result{}
	var targets []Target
	var stdin *stdinFile
	if req.Stdin != nil {
		if len(req.Paths) > 0 {
			return res, &UsageError{Msg: "- (standard input) cannot be mixed with other paths"}
		}
		name := req.StdinName
		if name == "" {
			name = "stdin.md"
		}
		t, err := ResolveStdin(name, req.Root)
		if err != nil {
			return res, err
		}
		max := req.MaxFileSize
		if max == 0 {
			max = okf.DefaultMaxFileSize
		}
		data, err := okf.ReadLimit(req.Stdin, "<stdin>", max)
		if err != nil {
			return res, fmt.Errorf("cannot read standard input: %v", unwrapPathErr(err))
		}
		targets, stdin = []Target{t}, &stdinFile{path: t.Files[0], data: data}
	} else {
		if req.StdinName != "" {
			return res, &UsageError{Msg: "--stdin-filename names the file read from standard input: give - as the path"}
		}
		var err error
		targets, res.Skipped, err = ResolveTargets(req.Paths, req.Root, req.SkipUnbundled)
		if err != nil {
			return res, err
		}
	}
	if req.ShowConfig {
		var err error
		res.Configs, err = shownConfigs(targets, req)
		return res, err
	}
	switch {
	case req.DryRun && !req.Fix:
		return res, &UsageError{Msg: "--dry-run goes with --fix"}
	case req.Fix && stdin != nil:
		return res, &UsageError{Msg: "--fix writes files: it cannot fix standard input"}
	case len(targets) > 1 && (req.WriteBaseline || req.Baseline != ""):
		return res, &UsageError{Msg: fmt.Sprintf("--baseline and --write-baseline take one bundle; the paths named are in %d (%s)", len(targets), rootList(targets))}
	}
	if req.WriteBaseline {
		if why, ok := okf.ReplacesBundleFile(req.BaselineFile); ok {
			return res, &UsageError{Msg: fmt.Sprintf("--write-baseline: refusing to write over %q: %s; name another file for the baseline", req.BaselineFile, why)}
		}
	}
	opts := Options{Now: req.Now, ExpiringWithin: req.ExpiringWithin}
	if req.Baseline != "" && len(targets) > 0 {
		var err error
		if opts.Baseline, err = readBaseline(targets[0].Root, req.Baseline, req.MaxFileSize); err != nil {
			return res, err
		}
	}
	var runs []bundleRun
	for _, t := range targets {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		r, err := lintBundle(t, req, opts, stdin)
		if r.fix != nil || err == nil {
			res.Bundles = append(res.Bundles, BundleRun{Root: t.Root, Display: PathDisplay(t.Root), Files: r.files, Fix: r.fix, Err: err, FixErr: r.fixErr})
		}
		if err != nil {
			return res, err
		}
		if req.DryRun {
			continue
		}
		if req.WriteBaseline {
			written, err := WriteBaseline(t.Root, req.BaselineFile, r.ds)
			if err != nil {
				if errors.Is(err, okf.ErrLocked) {
					return res, err
				}
				return res, &BaselineError{Path: filepath.ToSlash(written), Err: unwrapPathErr(err)}
			}
			res.BaselineWritten, res.Recorded = filepath.ToSlash(written), len(r.ds)
			return res, nil
		}
		runs = append(runs, r)
	}
	if req.DryRun {
		return res, nil
	}
	res.Report = combine(runs)
	for _, r := range runs {
		res.Report.Files += r.files
	}
	return res, nil
}

// readBaseline reads the baseline file p of the bundle at root: confined to it when inside it.
func readBaseline(root, p string, limit int64) (*Baseline, error) {
	rb, err := okf.OpenBundle(root, limit)
	if err != nil {
		return nil, err
	}
	defer rb.Close()
	data, err := rb.ReadPath(p)
	if err != nil {
		return nil, &UsageError{Msg: fmt.Sprintf("--baseline: cannot read %q: %v", p, unwrapPathErr(err))}
	}
	b, err := ParseBaseline(data)
	if err != nil {
		return nil, &UsageError{Msg: fmt.Sprintf("--baseline %q: %v", p, err)}
	}
	return b, nil
}

func rootList(ts []Target) string {
	s := ""
	for i, t := range ts {
		if i > 0 {
			s += ", "
		}
		s += filepath.ToSlash(t.Root)
	}
	return s
}

// shownConfigs reads each bundle's configuration in force as a run reads it: a configuration with
// problems is the same error.
func shownConfigs(targets []Target, req Request) ([]ShownConfig, error) {
	var shown []ShownConfig
	for _, t := range targets {
		o, err := okf.Open(t.Root, req.MaxFileSize)
		if err != nil {
			return nil, err
		}
		cfg, display, err := LoadConfig(o, req.ConfigFile)
		o.FileSystem.Close()
		if err != nil {
			return nil, err
		}
		src := display
		if src == "" && cfg != nil {
			src = filepath.ToSlash(filepath.Join(t.Root, cfg.Path))
		}
		shown = append(shown, ShownConfig{Bundle: filepath.ToSlash(t.Root), Source: src, Config: cfg, MaxFileSize: o.FileSystem.MaxFileSize(), ExpiringWithin: req.ExpiringWithin})
	}
	return shown, nil
}

// stdinFile is the concept read from standard input and its slash path in the bundle.
type stdinFile struct {
	path string
	data []byte
}

// bundleRun is the result of linting one bundle: its findings and how to show and read them.
type bundleRun struct {
	ds       []okf.Diagnostic
	fixes    map[okf.Diagnostic]Fix // for SARIF's fixes[] (nil unless WithFixes)
	display  func(string) string
	readFile func(string) ([]byte, error)
	fix      *FixResult
	fixErr   error // the error the fixing stopped at (BundleRun.FixErr)
	files    int
}

// lintBundle loads one bundle with its configuration and lints it. Every file of the bundle is
// read through its Root: confined to it, regular files only, at most the size limit each.
func lintBundle(t Target, req Request, opts Options, stdin *stdinFile) (bundleRun, error) {
	o, err := okf.Open(t.Root, req.MaxFileSize)
	if err != nil {
		return bundleRun{}, err
	}
	r := o.FileSystem
	cfg, cfgDisplay, err := LoadConfig(o, req.ConfigFile)
	if err != nil {
		return bundleRun{}, err
	}
	ignore := o.Settings.Ignore
	var fsys fs.FS = r
	switch {
	case stdin != nil && t.Alone:
		// No bundle above: the concept alone, not the folder around it.
		fsys, ignore = okf.Overlay(fstest.MapFS{}, stdin.path, stdin.data), nil
	case stdin != nil:
		fsys = okf.Overlay(r, stdin.path, stdin.data)
	}
	opts.Config = cfg
	opts.Filter = t.Filter()
	var b *okf.Bundle
	var ds []okf.Diagnostic
	var fixed *FixResult
	if !req.Fix {
		// The schema check runs as each frontmatter is parsed, not on a second parse, and the
		// per-concept rules as each concept loads: the bundle is not held whole (see Stream;
		// SARIF's fixes read the few files they fix again).
		lo := okf.LoadOptions{Ignore: ignore}
		if opts.Schemas = NewSchemaCheck(fsys, cfg); opts.Schemas != nil {
			lo.OnFrontmatter = opts.Schemas.OnFrontmatter
		}
		stream := NewStream(opts)
		lo.OnConcept, lo.ReuseDropped = stream.OnConcept, true
		if stdin != nil {
			b, err = okf.Load(fsys, lo)
		} else {
			b, err = okf.LoadFileSystem(r, lo)
		}
		if err != nil {
			return bundleRun{}, err
		}
		ds = stream.Finish(b)
	} else {
		// --fix loads the bundle again for each round.
		load := func() (*okf.Bundle, error) { return okf.LoadFileSystem(r, okf.LoadOptions{Ignore: ignore}) }
		fixed, err = FixBundle(t.Root, load, opts, req.DryRun)
		if err != nil {
			return bundleRun{fix: fixed, fixErr: err}, err
		}
		if len(fixed.Refused) > 0 {
			return bundleRun{fix: fixed, fixErr: ErrFixRefused}, ErrFixRefused
		}
		if req.DryRun {
			return bundleRun{fix: fixed}, nil
		}
		if testAfterFixes != nil {
			testAfterFixes(t.Root)
		}
		if b, err = load(); err != nil {
			// Every fix was written: not an error of the fixing (fixErr), which is reported.
			return bundleRun{fix: fixed}, err
		}
		ds = Run(b, opts)
	}
	var fixes map[okf.Diagnostic]Fix
	if req.WithFixes {
		fixes = Fixes(b, ds)
	}
	isCfg := func(p string) bool { return cfg != nil && cfgDisplay != "" && p == cfg.Path }
	show := PathDisplay(t.Root)
	return bundleRun{
		ds:    ds,
		fixes: fixes,
		fix:   fixed,
		files: checkedFiles(b, opts.Filter),
		display: func(p string) string {
			if isCfg(p) {
				return cfgDisplay
			}
			return show(p)
		},
		readFile: func(p string) ([]byte, error) {
			if isCfg(p) {
				return okf.ReadFileLimit(cfgDisplay, r.MaxFileSize()) // a --config file outside the bundle
			}
			return b.ReadFile(p)
		},
	}, nil
}

// testAfterFixes, when not nil (a test), is called once --fix has written every fix and before the
// bundle is loaded again: a test makes that load fail there.
var testAfterFixes func(root string)

// checkedFiles counts the Markdown files of b that the run reports on: its concepts, indexes and
// logs, those keep accepts (nil: all).
func checkedFiles(b *okf.Bundle, keep func(string) bool) int {
	n := 0
	count := func(p string) {
		if keep == nil || keep(p) {
			n++
		}
	}
	for _, c := range b.Concepts {
		count(c.Path)
	}
	for _, x := range b.Indexes {
		count(x.Path)
	}
	for _, l := range b.Logs {
		count(l.Path)
	}
	return n
}

// combine makes one report of the runs over one or more bundles. With several, each finding's path
// becomes the path shown (bundles share paths such as index.md), and the findings are sorted again;
// the report keeps each one's bundle path for SARIF's fingerprints, which do not change when other
// bundles join the run.
func combine(runs []bundleRun) *Report {
	if len(runs) == 1 {
		r := runs[0]
		return &Report{Diagnostics: r.ds, DisplayPath: r.display, ReadFile: r.readFile, Fixes: r.fixes}
	}
	var ds []okf.Diagnostic
	var fixes map[okf.Diagnostic]Fix
	reader := map[string]func() ([]byte, error){}
	bundlePath := map[string]string{}
	for _, r := range runs {
		for _, d := range r.ds {
			orig := d
			p := d.Pos.Path
			d.Pos.Path = r.display(p)
			bundlePath[d.Pos.Path] = p
			read := r.readFile
			reader[d.Pos.Path] = func() ([]byte, error) { return read(p) }
			if f, ok := r.fixes[orig]; ok {
				if fixes == nil {
					fixes = map[okf.Diagnostic]Fix{}
				}
				f.Path = r.display(f.Path)
				fixes[d] = f
			}
			ds = append(ds, d)
		}
	}
	return &Report{Diagnostics: okf.SortDiagnostics(ds), Fixes: fixes, BundlePath: func(p string) string {
		if bp, ok := bundlePath[p]; ok {
			return bp
		}
		return p
	}, ReadFile: func(p string) ([]byte, error) {
		if f := reader[p]; f != nil {
			return f()
		}
		return nil, fs.ErrNotExist
	}}
}

// PathDisplay returns how a report shows the slash paths of the bundle at root: as paths from the
// working directory, so editors and CI can open them (a bundle found above the working directory
// shows "a.md", not "../sub/a.md"); under a root written as an absolute path, as absolute paths.
// The working directory is read once, not per finding (os.Getwd costs stat calls), and each
// path's answer is remembered, since a report names the same files over and over.
func PathDisplay(root string) func(string) string {
	wd, wdErr := "", error(nil)
	if !filepath.IsAbs(root) {
		wd, wdErr = os.Getwd()
	}
	var mu sync.Mutex
	shown := map[string]string{}
	return func(p string) string {
		if p == "" {
			return p
		}
		mu.Lock()
		s, ok := shown[p]
		mu.Unlock()
		if ok {
			return s
		}
		full := filepath.Join(root, filepath.FromSlash(p))
		if !filepath.IsAbs(root) && wdErr == nil {
			abs := full // as filepath.Abs does: an absolute path is cleaned, another joined to wd
			if !filepath.IsAbs(full) {
				abs = filepath.Join(wd, full)
			}
			if rel, err := filepath.Rel(wd, abs); err == nil {
				full = rel
			}
		}
		s = filepath.ToSlash(full)
		mu.Lock()
		shown[p] = s
		mu.Unlock()
		return s
	}
}
