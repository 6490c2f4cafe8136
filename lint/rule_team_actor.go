package lint

import (
	"strings"

	"github.com/okf-tools/okf/okf"
)

// ActorTeam reports a `team:` actor in `generated.by` or `verified[].by`. It is not one of §7's three
// forms; D12 counts it as non-human, so a team's sign-off makes a concept machine-confirmed, not
// human-reviewed. In `sources[].author` it is not reported: the spec's own §5.1 example uses it.
var ActorTeam = &Rule{Code: "OKF305", Name: "team-actor", Severity: okf.Info, Decision: "D12", Scope: ScopeConcept,
	Title: "team: actor in generated or verified",
	Doc: "`team:<id>` is seen in real bundles but is not one of §7's forms (`human:`, `process:`, " +
		"`<producer>/<version>`). okf accepts it and counts it as non-human (D12): a verification by a team makes the " +
		"concept machine-confirmed. If a person signed off, name them. `team:` as a `sources[].author` is fine " +
		"(§5.1 uses it) and not reported.\n\n" +
		"Bad:\n\n    verified: { by: team:finance, at: 2026-06-25T09:00:00Z }\n\n" +
		"Good:\n\n    verified: { by: human:kliu, at: 2026-06-25T09:00:00Z }",
	Check: checkActorTeam}

func checkActorTeam(p *Pass) {
	sc := p.buffers()
	buf := sc.actors[:0]
	defer func() { sc.actors = buf }()
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		buf = actorFields(buf, fm, false)
		for _, f := range buf {
			if f.v.Kind == okf.Scalar && okf.ClassifyActor(f.v.Raw) == okf.ActorTeam {
				p.Reportf(at(f.v, fileStart(c)), "%s %q is not one of the §7 actor forms: counted as non-human (D12); if a person signed off, write human:<id>", f.name(), strings.TrimSpace(f.v.Raw))
			}
		}
	})
}
