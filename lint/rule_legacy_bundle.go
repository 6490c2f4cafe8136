package lint

import (
	"fmt"
	"strings"

	"github.com/okf-tools/okf/okf"
)

// LegacyBundle reports, once, a bundle that is still OKF v0.1 (§13): its root index.md declares
// okf_version "0.1", or it uses the v0.1 `timestamp` or `# Citations` and no v0.2 field anywhere
// (whatever version it declares: a bundle declaring "0.2" whose concepts are all v0.1 is as legacy).
// On such a bundle the per-concept legacy-timestamp warning would fire on every concept (5,120 times
// on a public wiki of 5,678 files) and drown every other finding, so it is reported at info there and
// this one warning says what to do.
var LegacyBundle = &Rule{Code: "OKF309", Name: "legacy-bundle", Severity: okf.Warning, Spec: "§13", Decision: "D9", Scope: ScopeBundle, reads: []factRef{factPresent, factV02, factLegacy, factCitations},
	Title: "bundle is OKF v0.1",
	Doc: "A bundle whose root index.md declares `okf_version: \"0.1\"`, or that uses the v0.1 `timestamp` or a " +
		"`# Citations` list and no v0.2 field (`generated`, `verified`, `sources`, `status`, `stale_after`, " +
		"`usage_window`, the Attested Computation keys) anywhere, is a v0.1 bundle (§13). It gets this one " +
		"finding instead of a legacy-timestamp warning per concept, which on such a bundle is lowered to info. " +
		"`okf migrate` upgrades the bundle in place, losing nothing.\n\n" +
		"Bad:\n\n    ---\n    okf_version: \"0.1\"\n    ---\n\n" +
		"Good (after okf migrate):\n\n    ---\n    okf_version: \"0.2\"\n    ---",
	Check: checkLegacyBundle}

// factV02: the concept writes a field v0.2 added (hasV02Field): evidence the bundle is v0.2
// (legacy-bundle, legacy-timestamp, status-unknown).
var factV02 = &fact[bool]{name: "v02", doc: "whether the concept writes a field v0.2 added",
	of: func(in *factInput) bool { return in.fm.Present && hasV02Field(in.fm) }}

// factCitations: the concept's v0.1 `# Citations` list, and its first item's position.
var factCitations = &fact[citations]{name: "citations", doc: "whether the concept has a v0.1 `# Citations` list, and where its first item is",
	of: func(in *factInput) citations {
		if cs := in.body.Citations; len(cs) > 0 {
			return citations{any: true, first: cs[0].Pos}
		}
		return citations{}
	}}

// citations says whether a concept has a `# Citations` list, and where its first item is.
type citations struct {
	any   bool
	first okf.Position
}

// legacyBundle reports whether the bundle is v0.1, and why. The rules calling it read the facts it
// reads: present, v02, legacy-timestamp and citations.
func legacyBundle(p *Pass) (bool, string) {
	b := p.Bundle
	v := b.OKFVersion()
	why := "it uses v0.1 keys and no v0.2 field"
	if v.Kind == okf.Scalar {
		switch raw := strings.TrimSpace(v.Raw); {
		case raw == "0.1":
			return true, `its root index.md declares okf_version "0.1"`
		case raw == "0.2" || okf.NewerVersion(raw):
			// Declared, but written in v0.1 keys only: still one bundle-level fact, not a
			// warning on each of its 5,678 concepts.
			why = "its root index.md declares okf_version " + quote(raw) + ", but its concepts use v0.1 keys and no v0.2 field"
		}
	}
	legacy := false
	v02, stamps, cites := factV02.all(p), factLegacy.all(p), factCitations.all(p)
	for i, present := range factPresent.all(p) {
		if !present {
			continue
		}
		if v02[i] {
			return false, ""
		}
		if stamps[i] != nil || cites[i].any {
			legacy = true
		}
	}
	if !legacy {
		return false, ""
	}
	return true, why
}

// declaresV02 reports whether a bundle's keys are read with their v0.2 meaning: its root index.md
// declares okf_version "0.2" or a newer version (read as 0.2, §12), or, declaring none that okf
// reads, some concept writes a field v0.2 added (§13.2). A bundle that declares "0.1", or declares
// nothing and writes no v0.2 field, is older than the keys v0.2 gave a meaning: its `status` is a
// producer key of its own (§4.1 extensions), not the §5.4 lifecycle. The rules calling it read the
// facts present and v02.
func declaresV02(p *Pass) (bool, string) {
	if v := p.Bundle.OKFVersion(); v.Kind == okf.Scalar {
		switch raw := strings.TrimSpace(v.Raw); {
		case raw == "0.2" || okf.NewerVersion(raw):
			return true, ""
		case raw == "0.1":
			return false, `its root index.md declares okf_version "0.1"`
		}
	}
	v02 := factV02.all(p)
	for i, present := range factPresent.all(p) {
		if present && v02[i] {
			return true, ""
		}
	}
	return false, `it declares no okf_version "0.2" and writes no field v0.2 added`
}

// hasV02Field reports whether a concept uses a family v0.2 added (§13.2). A key v0.2 defines but
// written with a value v0.2 does not allow is no evidence: v0.1 producers wrote their own `status`
// (`status: active` on every file of a real v0.1 bundle) and `stale_after` words long before v0.2
// gave those keys a meaning.
func hasV02Field(fm *okf.Frontmatter) bool {
	_, knownStatus := okf.StatusOf(fm.Status)
	return fm.Generated != nil || fm.Verified.Present() || fm.Sources.Present() ||
		(fm.Status.Present() && knownStatus) || (fm.StaleAfter().Present() && fm.StaleAfter().Usable()) ||
		fm.UsageWindow() != nil || fm.Runtime().Present() || fm.Parameters().Present() ||
		fm.Computation().Present() || fm.Executor() != nil || fm.Attester() != nil
}

func checkLegacyBundle(p *Pass) {
	b := p.Bundle
	v01, why := legacyBundle(p)
	if !v01 {
		return
	}
	timestamps, citations := 0, 0
	var first okf.Position
	cites := factCitations.all(p)
	for i, l := range factLegacy.all(p) {
		if l != nil {
			timestamps++
			if first.Path == "" {
				first = l.pos
			}
		}
		if cites[i].any {
			citations++
			if first.Path == "" {
				first = cites[i].first
			}
		}
	}
	pos := first
	if x := b.RootIndex(); x != nil {
		pos = okf.Position{Path: x.Path, Line: 1, Col: 1}
		if v := b.OKFVersion(); v.Pos.Line > 0 {
			pos = v.Pos
		}
	}
	var uses []string
	if timestamps > 0 {
		uses = append(uses, fmt.Sprintf("%s the legacy timestamp", conceptCount(timestamps)))
	}
	if citations > 0 {
		uses = append(uses, fmt.Sprintf("%s a # Citations list", conceptCount(citations)))
	}
	detail := ""
	if len(uses) > 0 {
		detail = " (" + strings.Join(uses, ", ") + ")"
	}
	p.Reportf(pos, "this is an OKF v0.1 bundle: %s%s; run okf migrate to upgrade it to v0.2 in place (§13). Per-concept legacy findings are info on a v0.1 bundle", why, detail)
}

func conceptCount(n int) string {
	if n == 1 {
		return "1 concept uses"
	}
	return fmt.Sprintf("%d concepts use", n)
}
