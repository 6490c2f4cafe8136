package okf

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// TimeForm classifies how a timestamp was written (decisions D10).
type TimeForm int

// The forms a timestamp can take. Only Full conforms to §5 as amended in 2026 (a datetime with an
// explicit offset); DateOnly and NoOffset are read conservatively and warned about; Empty counts as
// absent; Invalid cannot be read at all.
const (
	TimeAbsent TimeForm = iota
	Full
	DateOnly
	NoOffset
	Empty
	Invalid
)

var timeFormNames = [...]string{"absent", "full", "date-only", "no-offset", "empty", "invalid"}

// String names the form.
func (f TimeForm) String() string { return timeFormNames[f] }

// Timestamp is a timestamp-valued frontmatter field: its value as written, the instant it was read
// as, and how it was written.
type Timestamp struct {
	Value
	Time time.Time `json:"time,omitzero"`
	Form TimeForm  `json:"form"`
}

// Usable reports whether the timestamp yields an instant (Full, DateOnly or NoOffset).
func (t Timestamp) Usable() bool { return t.Form == Full || t.Form == DateOnly || t.Form == NoOffset }

// Approximate reports whether the instant was inferred conservatively (D10), so reports can say so.
func (t Timestamp) Approximate() bool { return t.Form == DateOnly || t.Form == NoOffset }

var (
	fullLayouts     = []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05.999999999Z07:00"}
	noOffsetLayouts = []string{"2006-01-02T15:04:05.999999999", "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05.999999999", "2006-01-02 15:04:05", "2006-01-02 15:04"}
)

// ParseTimestamp reads a timestamp per D10. A full RFC 3339 / ISO 8601 datetime with an offset
// ("Z", "+02:00", fractions allowed) is Full. A date-only value is read as 00:00 UTC of that day, an
// offset-less datetime as UTC. An empty string is Empty; anything else is Invalid. The returned time
// is always in UTC.
func ParseTimestamp(raw string) (time.Time, TimeForm) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return time.Time{}, Empty
	}
	// ISO 8601 allows a lowercase t/z; time.Parse does not.
	norm := s
	if len(norm) > 10 && (norm[10] == 't') {
		norm = norm[:10] + "T" + norm[11:]
	}
	if strings.HasSuffix(norm, "z") {
		norm = norm[:len(norm)-1] + "Z"
	}
	// Every layout starts with a 10-character date: one of exactly 10 characters can only be a date,
	// and one with no zone (Z, + or - after the date) can only be offset-less. Going there directly
	// leaves out the layouts that cannot match, each of which cost a failed time.Parse (and its
	// error's allocation) on most timestamps of a bundle that writes dates or offset-less times.
	switch {
	case len(norm) == 10:
		if t, err := time.Parse("2006-01-02", norm); err == nil {
			return t.UTC(), DateOnly
		}
		return time.Time{}, Invalid
	case len(norm) > 10 && !strings.ContainsAny(norm[10:], "Z+-"):
		return parseNoOffset(norm)
	}
	for _, l := range fullLayouts {
		if t, err := time.Parse(l, norm); err == nil {
			return t.UTC(), Full
		}
	}
	// "+0200" and "+02" offsets: ISO 8601 basic forms.
	for _, l := range []string{"2006-01-02T15:04:05.999999999-0700", "2006-01-02T15:04:05-07"} {
		if t, err := time.Parse(l, norm); err == nil {
			return t.UTC(), Full
		}
	}
	if t, err := time.Parse("2006-01-02", norm); err == nil {
		return t.UTC(), DateOnly
	}
	return parseNoOffset(norm)
}

// parseNoOffset reads an offset-less datetime (D10: as UTC).
func parseNoOffset(norm string) (time.Time, TimeForm) {
	// Only the layouts with the input's separator after the date ('T' or ' ') and its number of
	// colons (one: hours and minutes) can match; the others would each fail and allocate an error.
	layouts := noOffsetLayouts[:3]
	if len(norm) > 10 && norm[10] == ' ' {
		layouts = noOffsetLayouts[3:]
	}
	if len(norm) > 11 && strings.Count(norm[11:], ":") == 1 {
		layouts = layouts[2:]
	} else {
		layouts = layouts[:2]
	}
	for _, l := range layouts {
		if t, err := time.Parse(l, norm); err == nil {
			return t.UTC(), NoOffset
		}
	}
	return time.Time{}, Invalid
}

// timestampOf reads a value as a timestamp; a non-scalar is Invalid.
func timestampOf(v Value) Timestamp {
	t := Timestamp{Value: v}
	switch v.Kind {
	case Absent:
		t.Form = TimeAbsent
	case Null:
		t.Form = Empty
	case Scalar:
		t.Time, t.Form = ParseTimestamp(v.Raw)
	default:
		t.Form = Invalid
	}
	return t
}

// ParseNow reads a --now value (D11): an RFC 3339 instant, or a bare date meaning 00:00 UTC.
// An offset-less datetime is refused: the clock must be unambiguous.
func ParseNow(s string) (time.Time, error) {
	t, form := ParseTimestamp(s)
	switch form {
	case Full, DateOnly:
		return t, nil
	case NoOffset:
		return time.Time{}, fmt.Errorf("invalid time %q: add an offset such as Z (for example %sZ)", s, strings.TrimSpace(s))
	}
	return time.Time{}, fmt.Errorf("invalid time %q: want an RFC 3339 instant such as 2026-11-30T00:00:00Z or a date such as 2026-11-30", s)
}

// ResolveNow picks the clock per D11: the flag value, else the OKF_NOW environment variable (getenv
// is injected for tests), else the system clock.
func ResolveNow(flag string, getenv func(string) string) (time.Time, error) {
	if flag != "" {
		return ParseNow(flag)
	}
	if getenv != nil {
		if env := getenv("OKF_NOW"); env != "" {
			t, err := ParseNow(env)
			if err != nil {
				return time.Time{}, fmt.Errorf("OKF_NOW: %w", err)
			}
			return t, nil
		}
	}
	return time.Now().UTC(), nil
}

// ParseWindow reads an "expiring soon" window (D11) as --expiring-within and the configuration
// write it: whole days ("30d") or a Go duration ("720h", "36h"); "0" turns the window off.
// Negative and fractional-day values are refused.
func ParseWindow(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if n, ok := strings.CutSuffix(s, "d"); ok && n != "" && strings.Trim(n, "0123456789") == "" {
		days, err := strconv.Atoi(n)
		if err != nil || days > 100000 {
			return 0, fmt.Errorf("duration %q is too long", s)
		}
		return time.Duration(days) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("invalid duration %q: want whole days such as 30d or a duration such as 720h", s)
	}
	return d, nil
}
