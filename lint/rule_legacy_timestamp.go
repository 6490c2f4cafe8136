package lint

import (
	"fmt"

	"github.com/okf-tools/okf/okf"
)

// LegacyTimestamp reports the v0.1 `timestamp` key, superseded by `generated.at` (§13.1). D10 reads
// it as `generated.at` when `generated` is absent and ignores it otherwise; the message spells out
// the migration. Ignored beside `generated`, it is a leftover (info): a generator writing both keys
// on each of its 3,509 records got a warning on every one.
var LegacyTimestamp = &Rule{Code: "OKF308", Name: "legacy-timestamp", Severity: okf.Warning, Spec: "§13.1", Decision: "D10", Scope: ScopeBundle, reads: []factRef{factPresent, factV02, factLegacy, factCitations},
	Title: "legacy v0.1 timestamp",
	Doc: "v0.2 records a concept's last content change as `generated: { by, at }` (§5.2); the v0.1 `timestamp` is " +
		"superseded (§13.1). okf falls back to it when `generated` is absent (D10). Move the value into " +
		"`generated.at` and name who wrote the content in `generated.by`.\n\n" +
		"Bad:\n\n    timestamp: '2026-01-15T08:15:00+00:00'\n\n" +
		"Good:\n\n    generated: { by: reference_agent/gemini-2.5-pro, at: 2026-01-15T08:15:00+00:00 }\n\n" +
		"On a v0.1 bundle (see legacy-bundle, OKF309) this finding is info: the bundle gets one warning instead of one per concept. " +
		"Beside `generated` it is info too: okf ignores it there (D10), so it is a leftover to delete, not a value read in its place.",
	Check: checkLegacyTimestamp}

func checkLegacyTimestamp(p *Pass) {
	// On a v0.1 bundle the one legacy-bundle warning (OKF309) says it all; each concept's finding is
	// info there, so it stays available without drowning the rest.
	sev := p.Rule.Severity
	if v01, _ := legacyBundle(p); v01 {
		sev = okf.Info
	}
	reportf := func(pos okf.Position, format string, a ...any) {
		p.Report(okf.Diagnostic{Pos: pos, Code: p.Rule.Code, Severity: sev, Message: fmt.Sprintf(format, a...)})
	}
	for _, l := range factLegacy.all(p) {
		if l == nil {
			continue
		}
		ts, pos := l.ts, l.pos
		switch {
		case l.generated:
			// Ignored (D10 reads it only when generated is absent): a dead key to delete, hygiene
			// (info), not a value okf had to read in place of generated.at.
			p.Report(okf.Diagnostic{Pos: pos, Code: p.Rule.Code, Severity: okf.Info,
				Message: "legacy v0.1 timestamp is superseded by generated.at and ignored because generated is present: delete it (§13.1)"})
		case ts.Usable():
			reportf(pos, "legacy v0.1 timestamp is superseded by generated.at (§13.1): read as generated.at = %s%s; replace it with generated: { by: <actor>, at: %s }", rfc3339(ts), approxNote(ts), rfc3339(ts))
		default:
			reportf(pos, "legacy v0.1 timestamp is superseded by generated.at (§13.1) and cannot be read as a date: replace it with generated: { by: <actor>, at: <ISO 8601 datetime with offset> }")
		}
	}
}

// factLegacy: the concept's v0.1 `timestamp`, nil without one (legacy-timestamp reports it,
// legacy-bundle counts it).
var factLegacy = &fact[*legacyTimestamp]{name: "legacy-timestamp", doc: "the concept's v0.1 `timestamp` key, its position and whether `generated` is written too (nil without one)",
	of: func(in *factInput) *legacyTimestamp {
		fm := in.fm
		if !fm.Present || fm.LegacyTimestamp.Form == okf.TimeAbsent {
			return nil
		}
		return &legacyTimestamp{ts: fm.LegacyTimestamp, pos: fm.KeyPos("timestamp"), generated: fm.Generated != nil}
	}}

// legacyTimestamp is a concept's v0.1 `timestamp`.
type legacyTimestamp struct {
	ts        okf.Timestamp
	pos       okf.Position // the key's
	generated bool         // generated is written too
}
