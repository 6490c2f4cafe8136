package migrate

import "github.com/okf-tools/okf/okf"

// Apply writes the plan's changes into the bundle at root through okf.ApplyChanges, the one way
// okf edits a bundle: a file is written only when it still holds what the plan was made from, never
// through a symbolic link, atomically. It returns the paths written and a problem per file refused.
func Apply(root string, p *Plan) (written []string, refused []Problem, err error) {
	changes := make([]okf.FileChange, len(p.Changes))
	for i, c := range p.Changes {
		changes[i] = c.FileChange
	}
	written, no, err := okf.ApplyChanges(root, changes)
	for _, n := range no {
		refused = append(refused, Problem{Pos: okf.Position{Path: n.Path, Line: 1, Col: 1}, Message: n.Why, Untouched: true})
	}
	return written, refused, err
}
