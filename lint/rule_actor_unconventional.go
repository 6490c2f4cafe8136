package lint

import (
	"fmt"
	"strings"

	"github.com/okf-tools/okf/okf"
)

// ActorUnconventional reports an actor that follows none of §7's three forms. Trust tiers key off
// the `human:` prefix (§5.3), so a person written as "Jane Doe" is silently counted as a machine.
var ActorUnconventional = &Rule{Code: "OKF304", Name: "actor-unconventional", Severity: okf.Warning, Spec: "§7", Decision: "D12", Scope: ScopeConcept,
	Title: "actor follows none of the §7 conventions",
	Doc: "`generated.by`, `verified[].by` and `sources[].author` are actors (§5.1, §7): `<producer>/<version>` for " +
		"agents and tools, `human:<id>` for a person, `process:<id>` for an automated process. Consumers key trust off " +
		"the `human:` prefix, so producers MUST use it for human-confirmed content (§7). `team:<id>` is accepted " +
		"(the spec's own §5.1 example uses it for an author; see team-actor).\n\n" +
		"Bad:\n\n    verified: { by: Jane Doe, at: 2026-06-25T09:00:00Z }\n\n" +
		"Good:\n\n    verified: { by: human:jdoe, at: 2026-06-25T09:00:00Z }",
	Check: checkActorUnconventional}

// actorField is one actor-valued field. Its dotted name is built only for a finding.
type actorField struct {
	field string // "generated.by", "verified.by", "author"
	index int    // the verified or sources index, -1 for a single value
	v     okf.Value
}

// name renders the field's dotted name for messages ("verified[1].by", "sources[0].author").
func (a actorField) name() string {
	switch {
	case a.index < 0:
		return a.field
	case a.field == "author":
		return fmt.Sprintf("sources[%d].author", a.index)
	}
	return fmt.Sprintf("verified[%d].by", a.index)
}

// actorFields appends to buf the actor-valued fields of a frontmatter (§7, §5.1): generated.by,
// verified[].by and, when author is true, sources[].author.
func actorFields(buf []actorField, fm *okf.Frontmatter, author bool) []actorField {
	out := buf[:0]
	if fm.Generated != nil && fm.Generated.By.Present() {
		out = append(out, actorField{"generated.by", -1, fm.Generated.By})
	}
	for i, e := range fm.Verified.Items {
		if !e.By.Present() {
			continue
		}
		if fm.Verified.Shape == okf.VerifiedMapping {
			out = append(out, actorField{"verified.by", -1, e.By})
		} else {
			out = append(out, actorField{"verified.by", i, e.By})
		}
	}
	if author {
		for i, s := range fm.Sources.Items {
			if s.Author.Present() {
				out = append(out, actorField{"author", i, s.Author})
			}
		}
	}
	return out
}

func checkActorUnconventional(p *Pass) {
	sc := p.buffers()
	buf := sc.actors[:0]
	defer func() { sc.actors = buf }()
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		buf = actorFields(buf, fm, true)
		for _, f := range buf {
			v := f.v
			if v.Kind != okf.Scalar || strings.TrimSpace(v.Raw) == "" {
				continue // a blank or non-scalar by is generated-by-missing's or verified-entry-incomplete's
			}
			if okf.ClassifyActor(v.Raw) != okf.ActorUnknown {
				continue
			}
			p.ReportText(at(v, fileStart(c)), f.name()+" "+quote(v.Raw)+" follows none of the actor conventions: write human:<id> for a person, process:<id> for a process or <producer>/<version> for an agent (§7)")
		}
	})
}
