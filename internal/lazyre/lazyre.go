// Package lazyre holds regular expressions compiled on first use, for the packages of the module
// that may import internal/ (okf/, which imports no sibling package, keeps its own copy).
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled on its first use. A regexp compiled at package init
// costs every okf process, a one-file lint included, whether or not it ever matches anything
// (issue 11 counts that fixed cost per file); `&lazyRegexp{Expr: "…"}` with a constant Expr is
// laid out by the linker, so it costs nothing at init. internal/arch checks every Expr compiles,
// so a typo still fails a test, not a user.
type Regexp struct {
	Expr string
	once sync.Once
	re   *regexp.Regexp
}

// Get returns the compiled expression, compiling it on the first call.
func (l *Regexp) Get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.Expr) })
	return l.re
}
