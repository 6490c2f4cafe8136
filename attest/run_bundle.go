package attest

import (
	"context"
	"fmt"
	"strings"

	"github.com/okf-tools/okf/okf"
)

// BundleRequest names the bundle an `okf attest` command reads (its --bundle or PATH, and the
// flags every subcommand shares).
type BundleRequest struct {
	// Path is the bundle, a folder below its root or one file (default "."): the bundle is found
	// as every command finds one (okf.OpenPath) and read whole, so links and paths resolve from
	// the real root; Scope is the part named.
	Path string
	// MaxFileSize caps each file read (0: the configuration's max_file_size, else the default).
	MaxFileSize int64
	// AllowOutside lets a computation or attester file lie outside the bundle (Read).
	AllowOutside bool
}

// Loaded is a bundle as `okf attest` reads it: loaded keeping only the Attested Computations whole
// (OnConcept), with the part of it the path named.
type Loaded struct {
	Bundle *okf.Bundle
	// Target is where the path named lies: Target.Root the bundle's root, Scope() ("sub/", a
	// file's slash path, or "" for the whole bundle) and Filter() the part named.
	Target       okf.Target
	allowOutside bool
	comps        []*Computation
}

// NotFoundError is a name that is no Attested Computation of the bundle (Loaded.Find): IDs are
// the computations there are.
type NotFoundError struct {
	Name, Root string
	IDs        []string
}

func (e *NotFoundError) Error() string {
	ids := strings.Join(e.IDs, ", ")
	if ids == "" {
		ids = "(none)"
	}
	return fmt.Sprintf("%q is not an Attested Computation in bundle %q; there are: %s", e.Name, e.Root, ids)
}

// Load opens and loads the bundle of req.Path through the one door, as every okf attest
// subcommand reads it. Errors: a path in no bundle (*okf.NotBundleError) and a configuration with
// problems (*okf.ConfigError), which the CLI exits 2 on, and a bundle that cannot be read
// (*LoadError).
func Load(ctx context.Context, req BundleRequest) (*Loaded, error) {
	path := req.Path
	if path == "" {
		path = "."
	}
	o, err := okf.OpenPath(path, req.MaxFileSize)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		o.FileSystem.Close()
		return nil, err
	}
	b, err := o.Load(okf.LoadOptions{OnConcept: OnConcept, ReuseDropped: true})
	if err != nil {
		o.FileSystem.Close()
		return nil, &LoadError{Err: err}
	}
	return &Loaded{Bundle: b, Target: o.Target, allowOutside: req.AllowOutside}, nil
}

// Close closes the bundle's Root: its files (a receipt, an attester, the computation) are read
// through it until then.
func (l *Loaded) Close() error { return l.Bundle.FileSystem().Close() }

// LoadError is a bundle that was opened but could not be read.
type LoadError struct{ Err error }

func (e *LoadError) Error() string { return e.Err.Error() }
func (e *LoadError) Unwrap() error { return e.Err }

// Computations are every Attested Computation of the bundle (Computations), read once.
func (l *Loaded) Computations() []*Computation {
	if l.comps == nil {
		l.comps = Computations(l.Bundle, l.allowOutside)
		if l.comps == nil {
			l.comps = []*Computation{}
		}
	}
	return l.comps
}

// InScope are the computations in the part of the bundle the path named (all of them for the
// root): `okf attest list sub` lists sub's.
func (l *Loaded) InScope() []*Computation {
	all := l.Computations()
	scope := l.Target.Scope()
	if scope == "" {
		return all
	}
	var kept []*Computation
	for _, comp := range all {
		if p := comp.Concept.Path; p == scope || strings.HasSuffix(scope, "/") && strings.HasPrefix(p, scope) {
			kept = append(kept, comp)
		}
	}
	return kept
}

// Find returns the computation name names (Find: an ID or a bundle path), also as a name from the
// folder the path named; else a *NotFoundError listing those there are.
func (l *Loaded) Find(name string) (*Computation, error) {
	comp := Find(l.Bundle, name, l.allowOutside)
	if scope := l.Target.Scope(); comp == nil && strings.HasSuffix(scope, "/") {
		comp = Find(l.Bundle, scope+name, l.allowOutside)
	}
	if comp != nil {
		return comp, nil
	}
	var ids []string
	for _, x := range Computations(l.Bundle, false) {
		ids = append(ids, x.ID)
	}
	return nil, &NotFoundError{Name: name, Root: l.Target.Root, IDs: ids}
}
