package okf

import (
	"strconv"
	"strings"
)

// ReadVersion is the OKF version this package reads (§12): a bundle declaring a newer one is read
// as this version, best effort.
const ReadVersion = "0.2"

// NewerVersion reports whether a declared okf_version names a `<major>.<minor>` version newer than
// ReadVersion ("0.3", "0.10", "1.0"). §12 asks a consumer that does not understand the declared
// version to consume the bundle best effort rather than refuse it, and a newer minor version may
// add optional fields, so such a bundle is read as ReadVersion and the keys it may define (in the
// root index.md, for example `title` or `license`) are not errors there. Anything else ("0.1",
// "2", "latest") is not newer: okf either reads it or says it does not understand it.
func NewerVersion(declared string) bool {
	major, minor, ok := parseVersion(strings.TrimSpace(declared))
	if !ok {
		return false
	}
	rmajor, rminor, _ := parseVersion(ReadVersion)
	return major > rmajor || major == rmajor && minor > rminor
}

// parseVersion reads "<major>.<minor>", each a run of at most nine ASCII digits.
func parseVersion(s string) (major, minor int, ok bool) {
	a, b, found := strings.Cut(s, ".")
	if !found || !digits(a) || !digits(b) {
		return 0, 0, false
	}
	major, _ = strconv.Atoi(a)
	minor, _ = strconv.Atoi(b)
	return major, minor, true
}

func digits(s string) bool {
	if s == "" || len(s) > 9 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
