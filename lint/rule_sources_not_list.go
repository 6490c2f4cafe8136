package lint

import "github.com/okf-tools/okf/okf"

// SourcesNotList reports a `sources` value that is not a list (§5.1): nothing in it can be cited or
// followed.
var SourcesNotList = &Rule{Code: "OKF501", Name: "sources-not-list", Severity: okf.Warning, Spec: "§5.1", Scope: ScopeConcept,
	Title: "sources is not a list",
	Doc: "`sources` is a list of entries, each with a `resource` and optionally `id`, `title`, `author`, " +
		"`usage_count` and `last_modified` (§5.1). A single mapping or a string is not read.\n\n" +
		"Bad:\n\n    sources: https://wiki.acme/finance/revenue\n\n" +
		"Good:\n\n    sources:\n      - id: rev-policy\n        resource: https://wiki.acme/finance/revenue",
	Check: checkSourcesNotList}

func checkSourcesNotList(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		s := fm.Sources
		if !s.Present() || s.Kind == okf.Sequence {
			return
		}
		if s.Kind == okf.Mapping {
			p.Reportf(at(s.Value, fileStart(c)), "sources must be a list, found a mapping: put a dash before the entry, sources: [{ resource: … }] (§5.1)")
			return
		}
		p.Reportf(at(s.Value, fileStart(c)), "sources must be a list of { resource, id, … } entries, found %s (§5.1)", s.Describe())
	})
}
