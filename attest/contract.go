// Package attest reads Attested Computation contracts (§10), checks them statically (D17), runs
// their attesters under the interface decided in D18, and executes SQL computations on an embedded
// SQLite database or a PostgreSQL server to produce receipts.
//
// OKF itself executes nothing (§10); this package is the consumer side of §10.5: load, parameterize,
// execute, attest. Only a verdict of pass counts as attested (D18).
package attest

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/okf-tools/okf/okf"
)

// TypeAttestedComputation is the `type` that marks a computation concept (§10.1).
const TypeAttestedComputation = okf.TypeAttestedComputation

// Param is one declared parameter (§10.2) as written; Type is lower-cased.
type Param struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Required bool   `json:"required"`
	// RequiredSet is false when `required` was not written as a boolean.
	RequiredSet bool         `json:"-"`
	Pos         okf.Position `json:"-"`
}

// Source says where the computation text comes from (§10.3): an inline block under `# Computation`
// or the file named by `computation`.
type Source struct {
	// Kind is "inline", "file" or "" when there is none (or both, see Computation.Problems).
	Kind string `json:"kind"`
	// Path is the bundle path of the file, or of the concept for an inline block.
	Path string `json:"path"`
	// Line is where an inline block starts in the concept file (0 for a file).
	Line int          `json:"line,omitempty"`
	Pos  okf.Position `json:"-"`
	// Text is the computation itself.
	Text string `json:"-"`
}

// Attester is a resolved `attester.resource` (D14, D18).
type Attester struct {
	// Resource is the value as written.
	Resource string `json:"resource"`
	// Kind is "builtin", "executable", "python", or "" when the resource cannot be run.
	Kind string `json:"kind"`
	// Target is the bundle path it resolves to ("" for builtins and paths outside the bundle).
	Target string `json:"target,omitempty"`
	// File is the path on disk to run (absolute), when one was found.
	File string `json:"-"`
	// Shown is where File leads, relative to the bundle root (for messages that must not depend on
	// the machine).
	Shown string `json:"-"`
	// Outside is true when the path, or the real path behind a symbolic link, leaves the bundle.
	Outside bool `json:"outside,omitempty"`
	// State is "ok" (it can run), "undeclared", "missing" (nothing at the path), "outside" (refused:
	// it leaves the bundle) or "unrunnable" (a URL, a folder, an unknown kind or builtin).
	State string `json:"state"`
	// Problem says why it cannot be run ("" when it can).
	Problem string       `json:"problem,omitempty"`
	Pos     okf.Position `json:"-"`
}

// Computation is one Attested Computation concept read into what running and attesting need.
type Computation struct {
	Concept *okf.Concept `json:"-"`
	ID      string       `json:"concept"`
	Title   string       `json:"title,omitempty"`
	Runtime string       `json:"runtime"`
	Params  []Param      `json:"parameters"`
	Source  Source       `json:"computation"`
	// Receipt lists the fields `executor.receipt` requires.
	Receipt  []string `json:"receipt"`
	Attester Attester `json:"attester"`
	// LinkedFrom lists the concepts whose body links here (§10.4), sorted.
	LinkedFrom []string `json:"linked_from"`
	// inline holds every block under `# Computation`; file is the `computation` resolution.
	inline []okf.CodeBlock
	file   okf.Resolution
}

// IsComputation reports whether a concept is an Attested Computation (§10.1).
func IsComputation(c *okf.Concept) bool {
	return okf.IsAttestedComputation(c.Frontmatter)
}

// OnConcept, as okf.LoadOptions.OnConcept, drops what this package never reads of a bundle while
// it loads: it reads whole only the Attested Computations, and of any other concept only where its
// body links lead (who links to a computation). So okf attest never holds a large bundle whole.
func OnConcept(_ *okf.Bundle, c *okf.Concept) {
	if IsComputation(c) {
		return
	}
	links := c.Body.Links
	c.Drop()
	if len(links) > 0 {
		for i := range links {
			links[i].Text = ""
		}
		c.Body = &okf.Body{Links: links}
	}
}

// Computations reads every Attested Computation of a bundle, sorted by concept ID.
func Computations(b *okf.Bundle, allowOutside bool) []*Computation {
	var out []*Computation
	for _, c := range b.Concepts {
		if IsComputation(c) {
			out = append(out, Read(b, c, allowOutside))
		}
	}
	links := linkers(b)
	for _, comp := range out {
		comp.LinkedFrom = links[comp.Concept.Path]
		if comp.LinkedFrom == nil {
			comp.LinkedFrom = []string{}
		}
	}
	return out
}

// Find returns the computation named by a concept ID or a bundle path ("computations/revenue",
// "computations/revenue.md", "/computations/revenue.md"), or nil.
func Find(b *okf.Bundle, name string, allowOutside bool) *Computation {
	name = strings.TrimPrefix(filepath.ToSlash(name), "/")
	name = strings.TrimPrefix(name, "./")
	c := b.Concept(strings.TrimSuffix(name, ".md"))
	if c == nil || !IsComputation(c) {
		return nil
	}
	comp := Read(b, c, allowOutside)
	comp.LinkedFrom = linkers(b)[c.Path]
	return comp
}

// linkers maps a concept path to the sorted IDs of the concepts that link to it.
func linkers(b *okf.Bundle) map[string][]string {
	out := map[string][]string{}
	for _, c := range b.Concepts {
		seen := map[string]bool{}
		for _, l := range c.Body.Links {
			r := b.ResolveLink(c.Path, l.Target)
			if r.Kind != okf.RefLocal || !r.Exists || r.Target == c.Path || seen[r.Target] {
				continue
			}
			seen[r.Target] = true
			out[r.Target] = append(out[r.Target], c.ID)
		}
	}
	for k := range out {
		sort.Strings(out[k])
	}
	return out
}

// Read extracts the contract of one concept. It never fails: what is missing or broken is left
// empty and reported by Check.
func Read(b *okf.Bundle, c *okf.Concept, allowOutside bool) *Computation {
	fm := c.Frontmatter
	comp := &Computation{
		Concept: c,
		ID:      c.ID,
		Title:   fm.Title.Text(),
		Runtime: strings.TrimSpace(fm.Runtime().Text()),
		Params:  []Param{},
		Receipt: []string{},
	}
	for _, p := range fm.Parameters().Items {
		req, ok := p.Required.Bool()
		comp.Params = append(comp.Params, Param{
			Name:        strings.TrimSpace(p.Name.Text()),
			Type:        strings.ToLower(strings.TrimSpace(p.Type.Text())),
			Required:    req,
			RequiredSet: ok,
			Pos:         p.Pos,
		})
	}
	if fm.Executor() != nil {
		for _, it := range fm.Executor().Receipt.Items {
			if t := strings.TrimSpace(it.Text()); t != "" {
				comp.Receipt = append(comp.Receipt, t)
			}
		}
	}
	comp.inline = okf.ComputationBlocks(c)
	if fm.Computation().Present() {
		comp.file = b.ResolvePath(c.Path, fm.Computation().Text())
	}
	switch {
	case fm.Computation().Present() && len(comp.inline) > 0:
		// Both: ambiguous, Check warns and Load refuses.
	case fm.Computation().Present():
		comp.Source = Source{Kind: "file", Path: comp.file.Target, Pos: fm.Computation().Pos}
		if comp.file.Kind == okf.RefLocal && comp.file.Exists && !comp.file.IsDir {
			if data, err := b.ReadFile(comp.file.Target); err == nil {
				comp.Source.Text = string(data)
			}
		}
	case len(comp.inline) == 1:
		cb := comp.inline[0]
		comp.Source = Source{Kind: "inline", Path: c.Path, Line: int(cb.Pos.Line), Pos: cb.Pos, Text: cb.Content}
	}
	comp.Attester = resolveAttester(b, c, allowOutside)
	return comp
}

// resolveAttester finds what `attester.resource` names (D14, D18). A path that leaves the bundle,
// by `..` or through a symbolic link, is marked Outside and given no File unless allowOutside.
func resolveAttester(b *okf.Bundle, c *okf.Concept, allowOutside bool) Attester {
	fm := c.Frontmatter
	if fm.Attester() == nil || !fm.Attester().Resource.Present() || strings.TrimSpace(fm.Attester().Resource.Text()) == "" {
		a := Attester{State: "undeclared", Problem: "no attester.resource is declared"}
		if fm.Attester() != nil {
			a.Pos = fm.Attester().Pos
		}
		return a
	}
	val := strings.TrimSpace(fm.Attester().Resource.Text())
	a := Attester{Resource: val, Pos: fm.Attester().Resource.Pos, State: "unrunnable"}
	if name, ok := strings.CutPrefix(val, "builtin:"); ok {
		a.Kind, a.State = "builtin", "ok"
		if _, known := builtins[name]; !known {
			a.State = "unrunnable"
			a.Kind = ""
			a.Problem = "unknown built-in attester " + quote(val) + "; known: " + strings.Join(BuiltinNames(), ", ")
		}
		return a
	}
	r := b.ResolvePath(c.Path, val)
	switch {
	case r.Kind == okf.RefExternal:
		a.Problem = "attester " + quote(val) + " is a URL; okf runs only files inside the bundle and builtin:NAME"
		return a
	case r.Escapes:
		a.Outside = true
		if !allowOutside {
			a.State = "outside"
			a.Problem = "attester path " + quote(val) + " leaves the bundle; refused without --allow-outside (D14)"
			return a
		}
		if b.Root == "" {
			a.Problem = "attester path " + quote(val) + " leaves the bundle"
			return a
		}
		base := b.Root
		if !strings.HasPrefix(val, "/") {
			base = filepath.Join(b.Root, filepath.FromSlash(c.Dir()))
		}
		a.File = filepath.Join(base, filepath.FromSlash(val))
	case r.Exists && !r.IsDir:
		a.Target = r.Target
		if b.Root == "" {
			a.Problem = "the bundle was not loaded from a directory, so attester files cannot be run"
			return a
		}
		a.File = filepath.Join(b.Root, filepath.FromSlash(r.Target))
	case r.Exists && r.IsDir:
		a.Target = r.Target
		a.Problem = "attester " + quote(val) + " is a folder, not a file"
		return a
	default:
		// The loader leaves out symbolic links that lead outside the bundle (D5): look on disk for
		// one before calling the path dangling.
		a.Target = r.Target
		if f := symlinkCandidate(b, c, val); f != "" {
			a.File = f
			a.Outside = true
			break
		}
		a.State, a.Target = "missing", ""
		a.Problem = "attester " + quote(val) + " does not exist in the bundle"
		return a
	}
	// Symbolic links included: the real path must stay inside the real root.
	shown := a.File
	if abs, err := filepath.Abs(a.File); err == nil {
		a.File = abs
	}
	if real, err := filepath.EvalSymlinks(a.File); err == nil {
		if root, err := realRoot(b.Root); err == nil {
			if !within(root, real) {
				a.Outside = true
			}
			if rel, err := filepath.Rel(root, real); err == nil {
				shown = filepath.ToSlash(rel)
			}
		}
		a.File = real
	} else if a.Outside {
		a.State = "missing"
		a.Problem = "attester " + quote(val) + " leaves the bundle and does not exist: " + err.Error()
		return a
	}
	if a.Outside && !allowOutside {
		a.State = "outside"
		a.Problem = "attester " + quote(val) + " resolves outside the bundle (to " + quote(shown) + " from the bundle root); refused without --allow-outside"
		a.File = ""
		return a
	}
	a.Shown = shown
	a.Kind, a.Problem = kindOf(a.File, val)
	if a.Problem == "" {
		a.State = "ok"
	}
	return a
}

// symlinkCandidate returns the on-disk path of a symbolic link the loader did not follow, trying
// the concept's folder and then the root as D14 does, or "".
func symlinkCandidate(b *okf.Bundle, c *okf.Concept, val string) string {
	if b.Root == "" {
		return ""
	}
	var tries []string
	if !strings.HasPrefix(val, "/") {
		tries = append(tries, path.Join(c.Dir(), val))
	}
	tries = append(tries, path.Clean("/" + val)[1:])
	for _, t := range tries {
		f := filepath.Join(b.Root, filepath.FromSlash(t))
		if st, err := os.Lstat(f); err == nil && st.Mode()&os.ModeSymlink != 0 {
			return f
		}
	}
	return ""
}

// within reports whether p is root or below it (both cleaned real paths).
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// kindOf tells how a file is run (D18): a .py file through the Python adapter, any other file with
// an execute bit as an executable.
func kindOf(file, written string) (kind, problem string) {
	st, err := os.Stat(file)
	if err != nil {
		return "", "cannot read attester: " + err.Error()
	}
	if st.IsDir() {
		return "", "attester " + quote(written) + " is a folder, not a file"
	}
	if strings.HasSuffix(strings.ToLower(file), ".py") {
		return "python", ""
	}
	if st.Mode().Perm()&0o111 == 0 {
		return "", "attester " + quote(written) + " is neither a .py file nor executable (chmod +x it)"
	}
	return "executable", ""
}

// realRoot is the bundle root as an absolute path with symbolic links resolved.
func realRoot(root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}
