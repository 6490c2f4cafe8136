package generate

import (
	"regexp"
	"sync"
)

// lazyRegexp is a regular expression compiled on its first use. A regexp compiled at package init
// costs every okf process, a one-file lint included, whether or not it ever matches anything
// (issue 11 counts that fixed cost per file); `&lazyRegexp{expr: "…"}` with a constant expr is
// laid out by the linker, so it costs nothing at init. internal/arch checks every expr compiles,
// so a typo still fails a test, not a user.
type lazyRegexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// get returns the compiled expression, compiling it on the first call.
func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.expr) })
	return l.re
}
