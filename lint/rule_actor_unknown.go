package lint

import (
	"fmt"
	"strings"

	"github.com/okf-tools/okf/okf"
)

// ActorUnconventional reports an actor that follows none of §7's three forms. Trust tiers key off
// the `human:` prefix (§5.3), so a person written as "Jane Doe" is silently counted as a machine.
var ActorUnconventional = &Rule{Code: "OKF304", Name: "actor-unconventional", Severity: okf.Warning, Spec: "§7", Decision: "D12",
	Title: "actor follows none of the §7 conventions",
	Doc: "`generated.by`, `verified[].by` and `sources[].author` are actors (§5.1, §7): `<producer>/<version>` for " +
		"agents and tools, `human:<id>` for a person, `process:<id>` for an automated process. Consumers key trust off " +
		"the `human:` prefix, so producers MUST use it for human-confirmed content (§7). `team:<id>` is accepted " +
		"(the spec's own §5.1 example uses it for an author; see team-actor).\n\n" +
		"Bad:\n\n    verified: { by: Jane Doe, at: 2026-06-25T09:00:00Z }\n\n" +
		"Good:\n\n    verified: { by: human:jdoe, at: 2026-06-25T09:00:00Z }",
	Check: checkActorUnconventional}

// actorField is one actor-valued field with its dotted name.
type actorField struct {
	name string
	v    okf.Value
}

// actorFields lists the actor-valued fields of a frontmatter (§7, §5.1): generated.by, verified[].by
// and, when author is true, sources[].author.
func actorFields(fm *okf.Frontmatter, author bool) []actorField {
	var out []actorField
	if fm.Generated != nil && fm.Generated.By.Present() {
		out = append(out, actorField{"generated.by", fm.Generated.By})
	}
	for i, e := range fm.Verified.Entries {
		name := fmt.Sprintf("verified[%d].by", i)
		if fm.Verified.Shape == okf.VerifiedMapping {
			name = "verified.by"
		}
		if e.By.Present() {
			out = append(out, actorField{name, e.By})
		}
	}
	if author {
		for i, s := range fm.Sources.Items {
			if s.Author.Present() {
				out = append(out, actorField{fmt.Sprintf("sources[%d].author", i), s.Author})
			}
		}
	}
	return out
}

func checkActorUnconventional(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		for _, f := range actorFields(fm, true) {
			v := f.v
			if v.Kind != okf.Scalar || strings.TrimSpace(v.Raw) == "" {
				continue // a blank or non-scalar by is generated-by-missing's or verified-entry-incomplete's
			}
			if okf.ClassifyActor(v.Raw) != okf.ActorUnknown {
				continue
			}
			p.Reportf(at(v, fileStart(c)), "%s %q follows none of the actor conventions: write human:<id> for a person, process:<id> for a process or <producer>/<version> for an agent (§7)", f.name, v.Raw)
		}
	})
}
