package skill

import (
	"context"
	"fmt"

	"github.com/okf-tools/okf/okf"
)

// Request is the bundle of one `okf skill` or `okf budget` run and how to make its skill.
type Request struct {
	// Path is a path in the bundle (default "."): its root is found as every command finds one
	// (okf.OpenPath), so a folder below the root makes the skill of the whole bundle.
	Path string
	// MaxFileSize caps each file read (0: the configuration's max_file_size, else the default).
	MaxFileSize int64
	// Options are Build's.
	Options Options
}

// Loaded is a bundle loaded whole and the skill made of it; Close releases the bundle's folder.
type Loaded struct {
	Bundle *okf.Bundle
	Skill  *Skill
}

// LoadError is a bundle that was opened but could not be read: Root is its root as named.
type LoadError struct {
	Root string
	Err  error
}

func (e *LoadError) Error() string { return fmt.Sprintf("cannot read bundle %q: %v", e.Root, e.Err) }
func (e *LoadError) Unwrap() error { return e.Err }

// BuildError is a skill Build could not make (no name can be drawn from the bundle's folder):
// bad usage, which a name given in Options.Name mends.
type BuildError struct{ Err error }

func (e *BuildError) Error() string { return e.Err.Error() }
func (e *BuildError) Unwrap() error { return e.Err }

// Load opens the bundle of req.Path through the one door, loads it whole and builds its skill
// (`okf skill`, `okf budget`). Errors: a path in no bundle (*okf.NotBundleError), another bad path
// (*okf.PathError) and a configuration with problems (*okf.ConfigError), which the CLI exits 2 on;
// *BuildError, bad usage too; a bundle that cannot be read (*LoadError).
func Load(ctx context.Context, req Request) (*Loaded, error) {
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
	b, err := o.Load(okf.LoadOptions{})
	if err != nil {
		o.FileSystem.Close()
		return nil, &LoadError{Root: o.Target.Root, Err: err}
	}
	s, err := Build(b, req.Options)
	if err != nil {
		o.FileSystem.Close()
		return nil, &BuildError{Err: err}
	}
	return &Loaded{Bundle: b, Skill: s}, nil
}

// Close closes the bundle's FileSystem, through which Bundle reads its files (Build has read what
// the skill carries: Write and Measure need it no more).
func (l *Loaded) Close() error { return l.Bundle.FileSystem().Close() }
