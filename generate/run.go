package generate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/okf-tools/okf/okf"
)

// IndexRequest is one `okf index` run as a user asks for it (its flags are the fields).
type IndexRequest struct {
	// Path is the bundle, or a folder below its root (default "."): found as every command finds
	// one (okf.OpenPath). A folder below the root regenerates its own index and those below it,
	// as folder indexes (IndexOptions.Under); a file is refused.
	Path string
	// MaxFileSize caps each file read (0: the configuration's max_file_size, else the default).
	MaxFileSize int64
	// GroupBy and Rewrite are IndexOptions'.
	GroupBy string
	Rewrite bool
	// Write writes the indexes (ApplyChanges) under the bundle's lock, taken before the bundle is
	// read; false only plans them.
	Write bool
}

// IndexResult is what an index run planned and wrote.
type IndexResult struct {
	// Root is the bundle's root and Scope the part of it named ("sub/", or "" for the whole).
	Root, Scope string
	// Changes are the indexes whose text changes, sorted by path; the first Written of them were
	// written (Write only).
	Changes []FileChange
	Written int
}

// Index regenerates the index.md files of the bundle at req.Path (`okf index`): it opens the
// bundle through the one door (what .okf.yaml ignores is not indexed), plans the indexes
// (Indexes) and, with req.Write, writes them. The result is nil when the path named could not be
// opened: a path in no bundle (*okf.NotBundleError), a file (*okf.PathError), a configuration
// with problems (*okf.ConfigError); later errors (the lock held, okf.ErrLocked; a file not
// written) come with the result of what was done.
func Index(ctx context.Context, req IndexRequest) (*IndexResult, error) {
	named := req.Path
	if named == "" {
		named = "."
	}
	o, err := okf.OpenPath(named, req.MaxFileSize)
	if err != nil {
		return nil, err
	}
	defer o.FileSystem.Close()
	res := &IndexResult{Root: o.Target.Root, Scope: o.Target.Scope()}
	if res.Scope != "" && !strings.HasSuffix(res.Scope, "/") {
		return nil, &okf.PathError{Msg: fmt.Sprintf("index takes a bundle folder, not the file %q", named)}
	}
	if fi, err := os.Stat(res.Root); err == nil && fi.IsDir() && req.Write {
		// The same lock as okf gen: an index is not rewritten under a running gen.
		unlock, err := okf.LockBundle(res.Root, "okf index")
		if err != nil {
			return res, err
		}
		defer unlock()
	}
	b, err := o.Load(okf.LoadOptions{})
	if err != nil {
		return res, err
	}
	if res.Changes, err = Indexes(b, IndexOptions{GroupBy: req.GroupBy, Rewrite: req.Rewrite, Under: strings.TrimSuffix(res.Scope, "/")}); err != nil {
		return res, err
	}
	if !req.Write {
		return res, nil
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	res.Written, err = ApplyChanges(res.Root, res.Changes)
	return res, err
}

// GenRequest is one `okf gen` run: the options (merged from okf-gen.yaml and the flags) and
// whether to write.
type GenRequest struct {
	Options Options
	// Write writes the plan (Plan.Apply) under the bundle's lock, taken before anything is read;
	// false only plans.
	Write bool
	// Strict writes nothing when a concept is skipped or a post cannot be read: the result says
	// so (GenResult.Withheld).
	Strict bool
}

// GenResult is what a gen run planned and wrote.
type GenResult struct {
	Plan *Plan
	// Written is how many of Plan.Files were written (Write only); Withheld is set when Strict
	// kept the run from writing anything.
	Written  int
	Withheld bool
}

// OptionsError is a problem with GenRequest.Options found before anything is read or written
// (CheckOptions): bad usage.
type OptionsError struct{ Err error }

func (e *OptionsError) Error() string { return e.Err.Error() }
func (e *OptionsError) Unwrap() error { return e.Err }

// PlanError is a failure to plan (MakePlan): a post or the bundle that cannot be read, or a
// setting that does not fit the posts found.
type PlanError struct{ Err error }

func (e *PlanError) Error() string { return e.Err.Error() }
func (e *PlanError) Unwrap() error { return e.Err }

// Generate makes the bundle's concepts from a blog's posts (`okf gen`): an existing bundle at
// Options.Out is opened as every command opens one, so a .okf.yaml there with problems stops the
// run (*okf.ConfigError) before anything is planned or written; then the options are checked
// (*OptionsError), the bundle locked (okf.ErrLocked), the plan made (*PlanError) and, with
// req.Write, applied. The result is nil for an error before a plan; an error writing comes with
// the plan and what was written.
func Generate(ctx context.Context, req GenRequest) (*GenResult, error) {
	opts := req.Options
	if err := checkOut(opts); err != nil {
		return nil, err
	}
	if req.Write {
		// Checked before the lock, which creates the bundle folder.
		if err := CheckOptions(opts); err != nil {
			return nil, &OptionsError{Err: err}
		}
		unlock, err := okf.LockBundle(opts.Out, "okf gen")
		if err != nil {
			return nil, err
		}
		defer unlock()
	}
	plan, err := MakePlan(opts)
	if err != nil {
		return nil, &PlanError{Err: err}
	}
	res := &GenResult{Plan: plan}
	if req.Strict && (plan.Count(Skipped) > 0 || len(plan.Problems) > 0) {
		res.Withheld = true
		return res, nil
	}
	if !req.Write {
		return res, nil
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	res.Written, err = plan.Apply(opts.Out)
	return res, err
}

// checkOut opens the existing bundle at opts.Out (okf.Open) for its configuration only; a folder
// not there yet, or one gen itself refuses later (linked out of its checkout), is left to gen.
func checkOut(opts Options) error {
	if st, err := os.Stat(opts.Out); err != nil || !st.IsDir() {
		return nil
	}
	o, err := okf.Open(opts.Out, opts.MaxFileSize)
	var ce *okf.ConfigError
	if errors.As(err, &ce) {
		return err
	}
	if err == nil {
		o.FileSystem.Close()
	}
	return nil
}
