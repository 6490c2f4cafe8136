package okf

import (
	"strings"
	"time"
)

// Tier is a trust tier (§5.3), lowest to highest.
type Tier int

// The trust tiers (D12).
const (
	Unverified Tier = iota
	MachineConfirmed
	HumanReviewed
)

var tierNames = [...]string{"unverified", "machine-confirmed", "human-reviewed"}

// String returns the tier's kebab-case name, used in every report.
func (t Tier) String() string { return tierNames[t] }

// MarshalText makes a Tier serialize as its name.
func (t Tier) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// ParseTier reads a tier name.
func ParseTier(s string) (Tier, bool) {
	for i, n := range tierNames {
		if n == s {
			return Tier(i), true
		}
	}
	return 0, false
}

// TierOf derives the trust tier from `verified` (§5.3, D12): absent or malformed is unverified; an
// entry whose `by` is a human actor by ClassifyActor ("human:" and a non-empty id, §7) makes it
// human-reviewed; otherwise any entry with a non-empty `by` makes it machine-confirmed, so a bare
// "human:" or a look-alike such as "humans/1.0" confirms, but never as a person. Entries without
// `by` do not count. Tier and actor classification are one reading, so lint and trust agree.
func TierOf(v Verified) Tier {
	tier := Unverified
	for _, e := range v.Entries {
		by := strings.TrimSpace(e.By.Text())
		if by == "" {
			continue
		}
		if ClassifyActor(by) == ActorHuman {
			return HumanReviewed
		}
		tier = MachineConfirmed
	}
	return tier
}

// LastVerified returns the entry with the latest usable `at` among entries that count (have a
// `by`). ok is false when there is none.
func LastVerified(v Verified) (Stamp, bool) {
	var best Stamp
	found := false
	for _, e := range v.Entries {
		if strings.TrimSpace(e.By.Text()) == "" || !e.At.Usable() {
			continue
		}
		if !found || e.At.Time.After(best.At.Time) {
			best, found = e, true
		}
	}
	return best, found
}

// GeneratedAt returns when the content last changed: `generated.at`, or the legacy v0.1 `timestamp`
// when `generated` is absent (§13.1). legacy reports the fallback was used.
func GeneratedAt(f *Frontmatter) (t Timestamp, legacy bool) {
	if f.Generated != nil {
		return f.Generated.At, false
	}
	if f.LegacyTimestamp.Form != TimeAbsent {
		return f.LegacyTimestamp, true
	}
	return Timestamp{}, false
}

// ChangedSinceVerified reports whether the content changed after its last verification (D12): the
// generated instant is later than the latest `verified[].at`.
func ChangedSinceVerified(f *Frontmatter) bool {
	last, ok := LastVerified(f.Verified)
	if !ok {
		return false
	}
	gen, _ := GeneratedAt(f)
	return gen.Usable() && gen.Time.After(last.At.Time)
}

// Status is a lifecycle status (§5.4).
type Status int

// The statuses (D13). Absent means stable.
const (
	Stable Status = iota
	Draft
	Deprecated
)

var statusNames = [...]string{"stable", "draft", "deprecated"}

// String returns the status name.
func (s Status) String() string { return statusNames[s] }

// MarshalText makes a Status serialize as its name.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// ParseStatus reads a status name.
func ParseStatus(s string) (Status, bool) {
	for i, n := range statusNames {
		if n == s {
			return Status(i), true
		}
	}
	return Stable, false
}

// StatusOf reads `status` per D13: absent is stable; an unknown value is treated as stable and known
// is false so a linter can warn.
func StatusOf(v Value) (s Status, known bool) {
	if !v.Present() {
		return Stable, true
	}
	return ParseStatus(strings.TrimSpace(v.Text()))
}

// DefaultExpiringWindow is how far ahead "expiring soon" looks when no window is given (D11).
const DefaultExpiringWindow = 30 * 24 * time.Hour

// Freshness is a concept's staleness against a given clock (§5.5, D11).
type Freshness struct {
	// Stale is true when now >= stale_after.
	Stale bool
	// Expiring is true when stale_after falls within the window after now (and is not yet reached).
	Expiring bool
	// Since is the stale_after instant (zero when absent or unreadable).
	Since time.Time
	// Approximate is true when stale_after was date-only or offset-less (D10).
	Approximate bool
}

// FreshnessOf judges staleness at now. An absent or unreadable stale_after never makes a concept
// stale. window <= 0 disables "expiring".
func FreshnessOf(staleAfter Timestamp, now time.Time, window time.Duration) Freshness {
	if !staleAfter.Usable() {
		return Freshness{}
	}
	f := Freshness{Since: staleAfter.Time, Approximate: staleAfter.Approximate()}
	if !now.Before(staleAfter.Time) {
		f.Stale = true
	} else if window > 0 && staleAfter.Time.Sub(now) <= window {
		f.Expiring = true
	}
	return f
}

// ActorKind classifies an actor string by the §7 convention.
type ActorKind int

// The actor kinds. Team ("team:…") is seen in real bundles but is not one of §7's three forms.
const (
	ActorUnknown ActorKind = iota
	ActorHuman
	ActorProcess
	ActorAgent
	ActorTeam
)

var actorNames = [...]string{"unknown", "human", "process", "agent", "team"}

// String names the actor kind.
func (k ActorKind) String() string { return actorNames[k] }

// ClassifyActor reads an actor string: "human:<id>", "process:<id>", "<producer>/<version>", and
// "team:<id>" (outside §7, non-human per D12). Anything else, including an empty id, is unknown.
func ClassifyActor(s string) ActorKind {
	s = strings.TrimSpace(s)
	cut := func(prefix string) bool {
		rest, ok := strings.CutPrefix(s, prefix)
		return ok && strings.TrimSpace(rest) != ""
	}
	switch {
	case cut("human:"):
		return ActorHuman
	case cut("process:"):
		return ActorProcess
	case cut("team:"):
		return ActorTeam
	}
	if p, v, ok := strings.Cut(s, "/"); ok && p != "" && v != "" && !strings.ContainsAny(s, " \t:") {
		return ActorAgent
	}
	return ActorUnknown
}
