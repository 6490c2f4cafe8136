package lint

import (
	"fmt"
	"io"
	"strconv"

	"github.com/okf-tools/okf/internal/escape"
)

// shown is a value too long for a message to repeat whole (escape.Clip): its first
// escape.MaxShown bytes. It prints as its text, or quoted for %q, followed by "…" outside the
// quotes, as escape.Quote writes it.
type shown string

// Format writes the clipped value for %q (quoted) and for every other verb (as it is).
func (s shown) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		io.WriteString(f, strconv.Quote(string(s)))
	} else {
		io.WriteString(f, string(s))
	}
	io.WriteString(f, "…")
}

// quote is strconv.Quote of a value a message repeats, clipped (escape.Quote).
func quote(s string) string { return escape.Quote(s) }

// clip returns s, or its first escape.MaxShown bytes followed by "…" when it is longer: a value a
// message repeats unquoted, such as a suggested rewrite of it.
func clip(s string) string { return escape.Shown(s) }

// clipArgs returns args with every string longer than escape.MaxShown clipped (a copy when one is;
// args itself otherwise), for Reportf's formats, whose string arguments are the values a finding
// is about.
func clipArgs(args []any) []any {
	out := args
	copied := false
	for i, a := range args {
		s, ok := a.(string)
		if !ok {
			continue
		}
		head, cut := escape.Clip(s)
		if !cut {
			continue
		}
		if !copied {
			out, copied = append([]any(nil), args...), true
		}
		out[i] = shown(head)
	}
	return out
}
