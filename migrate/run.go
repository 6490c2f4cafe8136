package migrate

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/okf-tools/okf/okf"
)

// Request is one migration as a user asks for it (`okf migrate`'s flags are its fields).
type Request struct {
	// Path is the bundle's root (default "."): found as every command finds one (okf.OpenPath),
	// and refused when it is a folder below its root or a file, since a migration rewrites a whole
	// bundle (a subfolder's index.md would get the root's okf_version, §8, D7).
	Path string
	// MaxFileSize caps each file read (0: the configuration's max_file_size, else the default).
	MaxFileSize int64
	// Now dates the log.md entry (Options.Now).
	Now time.Time
	// Write applies the plan (Apply) under the bundle's lock, held from before the bundle is read
	// until the files are written, so no other okf writer interleaves; false only plans.
	Write bool
}

// Result is what a migration planned and, with Request.Write, did.
type Result struct {
	// Root is the bundle's root, as Request.Path named it.
	Root string
	// Plan is what the migration does: the files it changes and the problems it left.
	Plan *Plan
	// Written are the files written and Refused a problem per file Apply refused (Write only).
	Written []string
	Refused []Problem
}

// Migrate upgrades the bundle at req.Path from OKF v0.1 to v0.2 (`okf migrate`): it opens the
// bundle through the one door, plans the rewrite (Run) and, with req.Write, applies it (Apply).
// Errors: a path in no bundle (*okf.NotBundleError), below its root (*okf.PathError) or a
// configuration with problems (*okf.ConfigError), which the CLI exits 2 on; a lock held
// (okf.ErrLocked), a bundle that cannot be read or written. Files refused are in the result.
func Migrate(ctx context.Context, req Request) (*Result, error) {
	root := req.Path
	if root == "" {
		root = "."
	}
	o, err := okf.OpenPath(root, req.MaxFileSize)
	if err != nil {
		return nil, err
	}
	defer o.FileSystem.Close()
	if t := o.Target; t.Scope() != "" {
		return nil, &okf.PathError{Msg: fmt.Sprintf("%q is inside the OKF bundle %q: okf migrate upgrades a whole bundle; run it on %q (or pin a root with .okf.yaml)",
			filepath.ToSlash(t.Named), filepath.ToSlash(t.Root), filepath.ToSlash(t.Root))}
	}
	if req.Write {
		// The lock okf gen and okf index take: no two writers interleave in one bundle.
		unlock, err := okf.LockBundle(root, "okf migrate")
		if err != nil {
			return nil, err
		}
		defer unlock()
	}
	b, err := o.Load(okf.LoadOptions{})
	if err != nil {
		return nil, err
	}
	res := &Result{Root: root, Plan: Run(b, Options{Now: req.Now})}
	if !req.Write {
		return res, nil
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	res.Written, res.Refused, err = Apply(root, res.Plan)
	return res, err
}
