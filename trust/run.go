package trust

import (
	"context"
	"fmt"

	"github.com/okf-tools/okf/okf"
)

// Request is one trust report as a user asks for it (`okf trust`'s flags are its fields).
type Request struct {
	// Path is a bundle, a folder below its root or one file (default "."): the bundle is found as
	// every command finds one (okf.OpenPath), and a path below the root limits the concepts
	// listed to those in it (Options.Scope), while links and lineage resolve from the root.
	Path string
	// MaxFileSize caps each file read (0: the configuration's max_file_size, else the default).
	MaxFileSize int64
	// Options are Build's; Scope is set from Path.
	Options Options
	// Base is a git revision to compare with (Report.Compare), read through git with the base's
	// own ignore lists, as a checkout of it would be ("": none).
	Base string
	// Revision names the commit checked out in the report's header (Report.Revision), as the
	// markdown, html and json reports show it.
	Revision bool
}

// BaseError is a base revision that could not be read: Err wraps ErrRevision when the revision or
// its repository is not there to read (a usage error in the CLI), else it is a failure.
type BaseError struct{ Err error }

func (e *BaseError) Error() string { return "--base: " + e.Err.Error() }
func (e *BaseError) Unwrap() error { return e.Err }

// Run makes the trust report of one bundle (`okf trust`): it opens the bundle of req.Path through
// the one door, builds the report as the bundle loads (Stream: a large bundle is never held whole),
// and compares it with req.Base. Errors: a path in no bundle (*okf.NotBundleError) and a
// configuration with problems (*okf.ConfigError), which the CLI exits 2 on; a base not read
// (*BaseError); a bundle that cannot be read.
func Run(ctx context.Context, req Request) (*Report, error) {
	path := req.Path
	if path == "" {
		path = "."
	}
	o, err := okf.OpenPath(path, req.MaxFileSize)
	if err != nil {
		return nil, err
	}
	defer o.FileSystem.Close()
	dir := o.Target.Root
	opts := req.Options
	opts.Scope = o.Target.Scope()
	stream := NewStream(opts)
	b, err := o.Load(okf.LoadOptions{OnConcept: stream.OnConcept, ReuseDropped: true})
	if err != nil {
		return nil, fmt.Errorf("cannot read bundle %q: %v", dir, err)
	}
	report := stream.Finish(b)
	if req.Revision {
		report.Revision = Revision(dir)
	}
	if req.Base == "" {
		return report, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	base := NewStream(opts)
	old, err := LoadRevision(dir, req.Base, okf.LoadOptions{MaxFileSize: o.FileSystem.MaxFileSize(), OnConcept: base.OnConcept, ReuseDropped: true})
	if err != nil {
		return nil, &BaseError{Err: err}
	}
	report.Compare(base.Finish(old), req.Base)
	return report, nil
}
