package lint

import (
	"strings"

	"github.com/okf-tools/okf/okf"
)

// knownVersions are the okf_version values this tool understands (D9).
var knownVersions = map[string]bool{"0.1": true, "0.2": true}

// OKFVersionUnknown reports a root index.md `okf_version` other than "0.1" or "0.2" (§12, D9).
// The bundle is still read best-effort; the warning says how. A newer `<major>.<minor>` version
// is read as 0.2, and the root index keys it may define are not errors (okf.NewerVersion): the
// finding names them, since okf does not check them.
var OKFVersionUnknown = &Rule{Code: "OKF106", Name: "okf-version-unknown", Severity: okf.Warning, Spec: "§12", Decision: "D9", Scope: ScopeBundle,
	Title: "okf_version not understood",
	Doc: "A bundle MAY declare the version it targets with `okf_version` in the root index.md (§12). okf understands " +
		"\"0.1\" and \"0.2\"; any other value is read best-effort (D9). A newer `<major>.<minor>` version (\"0.3\", " +
		"\"1.0\") is read as 0.2: a newer minor version may add optional fields, so the other keys of its root " +
		"index.md (`title`, `description`, `license`...) are not the root-index-keys error there, and the finding " +
		"names them as unchecked.\n\n" +
		"Bad:\n\n    ---\n    okf_version: \"2\"\n    ---\n\n" +
		"Good:\n\n    ---\n    okf_version: \"0.2\"\n    ---",
	Check: checkOKFVersionUnknown}

func checkOKFVersionUnknown(p *Pass) {
	x := p.Bundle.RootIndex()
	if x == nil || x.Frontmatter == nil || !x.Frontmatter.Present {
		return
	}
	v := x.Frontmatter.OKFVersion()
	if !v.Present() || (v.Kind == okf.Scalar && knownVersions[strings.TrimSpace(v.Raw)]) {
		return
	}
	pos := at(v, okf.Position{Path: x.Path, Line: 1, Col: 1})
	if v.Kind == okf.Scalar && okf.NewerVersion(v.Raw) {
		var keys []string
		for _, k := range x.Frontmatter.Keys {
			if k.Name != "okf_version" {
				keys = append(keys, quote(k.Name))
			}
		}
		extra := ""
		if len(keys) > 0 {
			extra = "; its root index.md keys " + strings.Join(keys, ", ") + " are kept as that version's and not checked"
		}
		p.Reportf(pos, "okf_version %q is newer than okf reads: read as %s, best effort (§12)%s", strings.TrimSpace(v.Raw), okf.ReadVersion, extra)
		return
	}
	if v.Kind == okf.Scalar {
		p.Reportf(pos, "okf_version %q is not a version okf understands (want \"0.1\" or \"0.2\"): reading the bundle best-effort (§12)", v.Raw)
		return
	}
	p.Reportf(pos, "okf_version must be a version string such as \"0.2\", found %s: reading the bundle best-effort (§12)", v.Describe())
}
