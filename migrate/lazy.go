package migrate

import "github.com/okf-tools/okf/internal/lazyre"

// lazyRegexp is a regular expression compiled on its first use (see internal/lazyre).
type lazyRegexp = lazyre.Regexp
