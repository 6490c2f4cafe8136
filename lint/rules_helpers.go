package lint

import (
	"fmt"
	"strings"

	"github.com/okf-tools/okf/okf"
)

// Helpers shared by the family rules. Spec meaning (tiers, staleness, path resolution, timestamp
// forms) lives in okf/; these only walk the model and place findings.

// withFrontmatter calls fn for every concept whose frontmatter could be read. Concepts without one
// are the conformance rules' business (§11); the family rules have nothing to look at.
func withFrontmatter(b *okf.Bundle, fn func(c *okf.Concept, fm *okf.Frontmatter)) {
	for _, c := range b.Concepts {
		if c.Frontmatter != nil && c.Frontmatter.Present {
			fn(c, c.Frontmatter)
		}
	}
}

// fileStart is the position of a finding about a whole file's frontmatter (a missing key): the
// opening --- line.
func fileStart(c *okf.Concept) okf.Position {
	return okf.Position{Path: c.Path, Line: 1, Col: 1}
}

// at returns where a value was written, or fallback when it has no position (absent).
func at(v okf.Value, fallback okf.Position) okf.Position {
	if v.Pos.Line > 0 {
		return v.Pos
	}
	return fallback
}

// isAttestedComputation reports whether the concept is of `type: Attested Computation` (§10.1).
func isAttestedComputation(fm *okf.Frontmatter) bool { return okf.IsAttestedComputation(fm) }

// namedTimestamp is one timestamp-valued field. Its dotted name ("sources[2].last_modified") is
// built only when a finding needs it: the fields of 10,000 concepts are walked by four rules.
type namedTimestamp struct {
	field string // "generated.at", "last_modified", "usage_window.from", …
	index int    // the sources or verified index, -1 for top-level fields
	ts    okf.Timestamp
}

// name renders the field's dotted name for messages.
func (n namedTimestamp) name() string {
	switch {
	case n.index < 0:
		return n.field
	case n.field == "verified.at":
		return fmt.Sprintf("verified[%d].at", n.index)
	}
	return fmt.Sprintf("sources[%d].%s", n.index, n.field)
}

// timestampFields appends to buf every timestamp-valued field of the v0.2 families (§5, D10):
// generated.at, verified[].at, stale_after, sources[].last_modified and the usage windows. The legacy
// v0.1 `timestamp` is left to the legacy rule, which spells out the migration.
func timestampFields(buf []namedTimestamp, fm *okf.Frontmatter) []namedTimestamp {
	out := buf[:0]
	add := func(field string, index int, ts okf.Timestamp) {
		if ts.Form != okf.TimeAbsent {
			out = append(out, namedTimestamp{field, index, ts})
		}
	}
	window := func(prefix string, index int, w *okf.Window) {
		if w != nil {
			add(prefix+".from", index, w.From)
			add(prefix+".to", index, w.To)
		}
	}
	if fm.Generated != nil {
		add("generated.at", -1, fm.Generated.At)
	}
	for i, e := range fm.Verified.Items {
		if fm.Verified.Shape == okf.VerifiedMapping {
			add("verified.at", -1, e.At)
		} else {
			add("verified.at", i, e.At)
		}
	}
	add("stale_after", -1, fm.StaleAfter())
	for i, s := range fm.Sources.Items {
		add("last_modified", i, s.LastModified)
		window("usage_window", i, s.UsageWindow)
	}
	window("usage_window", -1, fm.UsageWindow())
	return out
}

// rfc3339 renders an instant the way the spec writes timestamps (§5).
func rfc3339(ts okf.Timestamp) string {
	return ts.Time.UTC().Format("2006-01-02T15:04:05Z07:00")
}

// fmtQuoted describes a scalar with its text: `a string "yes"`.
func fmtQuoted(describe, raw string) string {
	return fmt.Sprintf("%s %q", describe, raw)
}

// pathField is one path-valued field (§6.2, D14). Its dotted name is built only for a finding.
type pathField struct {
	field string // "resource", "computation", "executor.resource", …
	index int    // the sources index for sources[].resource, else -1
	v     okf.Value
}

// name renders the field's dotted name for messages.
func (f pathField) name() string {
	if f.index < 0 {
		return f.field
	}
	return fmt.Sprintf("sources[%d].resource", f.index)
}

// pathFields appends to buf the path-valued fields of a frontmatter that hold text (§6.2):
// resource, sources[].resource, computation, executor.resource and attester.resource.
func pathFields(buf []pathField, fm *okf.Frontmatter) []pathField {
	out := buf[:0]
	add := func(name string, index int, v okf.Value) {
		if v.Kind == okf.Scalar && strings.TrimSpace(v.Raw) != "" {
			out = append(out, pathField{name, index, v})
		}
	}
	add("resource", -1, fm.Resource)
	for i, s := range fm.Sources.Items {
		add("sources[].resource", i, s.Resource)
	}
	add("computation", -1, fm.Computation())
	if fm.Executor() != nil {
		add("executor.resource", -1, fm.Executor().Resource)
	}
	if fm.Attester() != nil {
		add("attester.resource", -1, fm.Attester().Resource)
	}
	return out
}

// lookedFor says where a path-valued field that resolved to nothing was looked for (D14): "/x" from
// the root only; a bare relative path from the concept's directory, then from the root.
func lookedFor(b *okf.Bundle, from, value string, r okf.Resolution) string {
	v := strings.TrimSpace(value)
	if strings.HasPrefix(v, "/") {
		return fmt.Sprintf("looked for %q", "/"+r.Target)
	}
	root := b.ResolvePath("", "/"+v)
	if root.Escapes || root.Target == r.Target {
		return fmt.Sprintf("looked for %q", "/"+r.Target)
	}
	return fmt.Sprintf("looked for %q and %q", "/"+r.Target, "/"+root.Target)
}

// resolveLocal resolves a link target (D15) and reports whether it is local. Web URLs and
// same-document fragments, most of a bundle's links and never checked, are skipped without the
// call into okf: four rules walk every link of 10,000 concepts.
func resolveLocal(b *okf.Bundle, from, target string) (okf.Resolution, bool) {
	if strings.HasPrefix(target, "https://") || strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "#") {
		return okf.Resolution{}, false
	}
	r := b.ResolveLink(from, target)
	return r, r.Kind == okf.RefLocal
}
