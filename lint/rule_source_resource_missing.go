package lint

import (
	"strings"

	"github.com/okf-tools/okf/okf"
)

// SourceResourceMissing reports a `sources` entry without its REQUIRED `resource` (§5.1), or an
// entry that is not a mapping at all.
var SourceResourceMissing = &Rule{Code: "OKF502", Name: "source-resource-missing", Severity: okf.Warning, Spec: "§5.1", Scope: ScopeConcept,
	Title: "sources entry without resource",
	Doc: "`resource` is REQUIRED within a `sources` entry (§5.1): an absolute URL, a bundle path, or a scope descriptor " +
		"such as `all queries in BigQuery project X`.\n\n" +
		"Bad:\n\n    sources:\n      - id: rev-policy\n        title: Revenue recognition policy\n\n" +
		"Good:\n\n    sources:\n      - id: rev-policy\n        resource: https://wiki.acme/finance/revenue-recognition\n        title: Revenue recognition policy",
	Check: checkSourceResourceMissing}

func checkSourceResourceMissing(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		for i, s := range fm.Sources.Items {
			pos := at(s.Value, at(fm.Sources.Value, fileStart(c)))
			switch {
			case s.Kind != okf.Mapping:
				if s.IsString() && strings.TrimSpace(s.Raw) != "" {
					// Only text can be the resource it names; a number or a boolean is no URL or path.
					p.Reportf(pos, "sources[%d] must be a mapping with a resource, found %s: write - resource: %s (§5.1)", i, fmtQuoted(s.Describe(), s.Raw), s.Raw)
				} else {
					p.Reportf(pos, "sources[%d] must be a mapping with a resource, found %s (§5.1)", i, s.Describe())
				}
			case !s.Resource.Present():
				p.Reportf(pos, "sources[%d] has no resource: name the URL, bundle path or scope it derives from (§5.1, REQUIRED)", i)
			case s.Resource.Kind != okf.Scalar || strings.TrimSpace(s.Resource.Raw) == "":
				p.Reportf(at(s.Resource, pos), "sources[%d].resource is %s: name the URL, bundle path or scope it derives from (§5.1, REQUIRED)", i, s.Resource.Describe())
			}
		}
	})
}
