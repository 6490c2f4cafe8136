package serve

import (
	"net/url"
	"strings"
)

// scheme is the resource URI scheme: okf://{+id}, the concept ID written as the URI's authority
// and path (RFC 6570 reserved expansion keeps the slashes).
const scheme = "okf://"

// uriOf writes the URI of id: every byte outside the unreserved set and "/" is percent-encoded, so
// any ID (spaces, ':', non-ASCII) makes a URI that parses.
func uriOf(id string) string {
	var b strings.Builder
	b.WriteString(scheme)
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(id); i++ {
		c := id[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~/", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// idOf reads the ID back from a URI of the okf scheme.
func idOf(uri string) (string, bool) {
	rest, ok := strings.CutPrefix(uri, scheme)
	if !ok {
		return "", false
	}
	id, err := url.PathUnescape(rest)
	if err != nil {
		return "", false
	}
	return id, true
}
