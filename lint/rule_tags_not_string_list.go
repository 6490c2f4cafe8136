package lint

import (
	"fmt"
	"strings"

	"github.com/okf-tools/okf/okf"
)

// TagsNotStringList reports `tags` that is not a YAML list of strings (§4.1). A consumer that
// filters by tag cannot read anything else; a breach of the field's defined shape is a warning (D1).
var TagsNotStringList = &Rule{Code: "OKF104", Name: "tags-not-string-list", Severity: okf.Warning, Spec: "§4.1", Scope: ScopeConcept,
	Fix: &Fixer{Make: fixTags,
		Doc: "rewrites a tags string as the list it means (\"sales, orders\" → [sales, orders]; a string that is itself a flow list, \"[okf, agent]\" → [okf, agent]) and quotes an item YAML reads as a number or boolean, as written (2026 → \"2026\"); a string whose tags are not clear (\"a, [b\") and other shapes are left to you"},
	Title: "tags is not a list of strings",
	Doc: "`tags` is \"a YAML list of short strings\" (§4.1). A comma-separated string, a mapping, a nested list, an " +
		"empty item, or an unquoted number or boolean (which YAML reads as a number or boolean) is reported.\n\n" +
		"Bad:\n\n    tags: \"sales, orders\"\n    tags: [sales, 2026]\n\n" +
		"Good:\n\n    tags: [sales, orders, \"2026\"]",
	Check: checkTagsNotStringList}

func checkTagsNotStringList(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		t := fm.Tags
		switch t.Kind {
		case okf.Absent:
			return
		case okf.Sequence:
		case okf.Scalar:
			if t.IsString() {
				// The advice is the list --fix writes (okf.TagsFromString), or none when the
				// string's meaning is not mechanical: never a list that splits a list.
				if items, ok := okf.TagsFromString(t.Raw); ok {
					p.ReportText(at(t.Value, fileStart(c)), "tags must be a list of strings, found the string "+quote(t.Raw)+": write tags: "+clip(okf.FlowList(items))+" (§4.1)")
				} else {
					p.ReportText(at(t.Value, fileStart(c)), "tags must be a list of strings, found the string "+quote(t.Raw)+", whose tags are not clear: write them as a YAML list of strings, tags: [a, b] (§4.1)")
				}
				return
			}
			p.Reportf(at(t.Value, fileStart(c)), "tags must be a list of strings, found %s: write tags: %s (§4.1)", t.Describe(), okf.FlowList([]string{t.Raw}))
			return
		default:
			p.Reportf(at(t.Value, fileStart(c)), "tags must be a list of strings, found %s (§4.1)", t.Describe())
			return
		}
		for i, it := range t.Items {
			switch {
			case it.IsString() && strings.TrimSpace(it.Raw) == "":
				p.Reportf(at(it, t.Pos), "tags[%d] is empty: remove it or write a tag (§4.1)", i)
			case it.IsString():
			case it.Kind == okf.Scalar:
				p.Reportf(at(it, t.Pos), "tags[%d] is %s, expected a string: quote it, %s (§4.1)", i, it.Describe(), fmt.Sprintf("%q", it.Raw))
			default:
				p.Reportf(at(it, t.Pos), "tags[%d] is %s, expected a string (§4.1)", i, it.Describe())
			}
		}
	})
}
