package lint

import (
	"strings"

	"github.com/okf-tools/okf/okf"
)

// OKFVersionMisspelled hints at a look-alike of `okf_version` in the root index.md (D9): a key such
// as okf_spec_version or okf-version declares nothing, so the bundle's version goes unread.
var OKFVersionMisspelled = &Rule{Code: "OKF107", Name: "okf-version-misspelled", Severity: okf.Info, Spec: "§12", Decision: "D9", Scope: ScopeBundle,
	Fix: &Fixer{Make: fixVersionKey,
		Doc: "renames the look-alike key to okf_version, when it is the only one and okf_version is not there"},
	Title: "look-alike of okf_version",
	Doc: "The version key is exactly `okf_version` (§12). Look-alikes (`okf_spec_version`, `okf-version`, `okfVersion`, " +
		"`version`) are not read, so the bundle declares no version. The root index.md may carry no other key (§8), " +
		"so such a key is also a conformance error; this hint names the right key.\n\n" +
		"Bad:\n\n    ---\n    okf_spec_version: \"0.2\"\n    ---\n\n" +
		"Good:\n\n    ---\n    okf_version: \"0.2\"\n    ---",
	Check: checkOKFVersionMisspelled}

func checkOKFVersionMisspelled(p *Pass) {
	x := p.Bundle.RootIndex()
	if x == nil || x.Frontmatter == nil || !x.Frontmatter.Present {
		return
	}
	for _, k := range x.Frontmatter.Keys {
		if k.Name != "okf_version" && versionLookAlike(k.Name) {
			p.Reportf(k.Pos, "key %q is not read: did you mean okf_version? (§12)", k.Name)
		}
	}
}

// versionLookAlike reports whether a key name looks like an attempt at okf_version.
func versionLookAlike(name string) bool {
	n := strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == '.' || r == ' ' {
			return -1
		}
		return r
	}, strings.ToLower(name))
	return n == "version" || n == "okfversion" || n == "specversion" || (strings.Contains(n, "okf") && strings.Contains(n, "version"))
}
