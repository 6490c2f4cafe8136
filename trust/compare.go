package trust

import (
	"bytes"
	"slices"

	"github.com/okf-tools/okf/okf"
)

// Change is a value that moved between the base revision and now.
type Change struct {
	ID   string `json:"id"`
	From string `json:"from"`
	To   string `json:"to"`
}

// Changes is what moved since the base revision (--base). A concept is compared when the filters
// select it on either side, so a concept that left a filtered tier still shows its move.
type Changes struct {
	// Base names the revision compared with, as the user wrote it.
	Base    string   `json:"base"`
	Added   []string `json:"added"`
	Removed []string `json:"removed"`
	Tier    []Change `json:"tier"`
	Status  []Change `json:"status"`
	// NewlyStale are concepts stale now that were not stale in the base, at the same clock.
	NewlyStale []string `json:"newly_stale"`
	// ChangedSinceVerified are verified concepts whose content changed without a new verification
	// since the base: generated.at moved past the last verification (D12), or the body or a
	// frontmatter key other than generated, verified, status and stale_after changed while the
	// latest verification stayed the same.
	ChangedSinceVerified []string `json:"changed_since_verified"`
	// Touched are the listed concepts this change added or whose file differs from the base.
	Touched []string `json:"touched"`
}

// Empty reports whether nothing moved.
func (c *Changes) Empty() bool {
	return len(c.Added)+len(c.Removed)+len(c.Tier)+len(c.Status)+len(c.NewlyStale)+len(c.ChangedSinceVerified) == 0
}

// Compare records in r what moved since base, a report built from the bundle at revision name with
// the same options (and so the same clock).
func (r *Report) Compare(base *Report, name string) {
	ch := &Changes{Base: name, Added: []string{}, Removed: []string{}, Tier: []Change{}, Status: []Change{},
		NewlyStale: []string{}, ChangedSinceVerified: []string{}, Touched: []string{}}
	ids := map[string]bool{}
	for id := range r.all {
		ids[id] = true
	}
	for id := range base.all {
		ids[id] = true
	}
	sorted := make([]string, 0, len(ids))
	for id := range ids {
		sorted = append(sorted, id)
	}
	slices.Sort(sorted)
	for _, id := range sorted {
		now, old := r.all[id], base.all[id]
		switch {
		case old == nil:
			if now.selected {
				ch.Added = append(ch.Added, id)
				now.Touched = true
				ch.Touched = append(ch.Touched, id)
			}
			continue
		case now == nil:
			if old.selected {
				ch.Removed = append(ch.Removed, id)
			}
			continue
		case !now.selected && !old.selected:
			continue
		}
		if now.Tier != old.Tier {
			ch.Tier = append(ch.Tier, Change{ID: id, From: old.Tier.String(), To: now.Tier.String()})
		}
		if now.Status != old.Status {
			ch.Status = append(ch.Status, Change{ID: id, From: old.Status.String(), To: now.Status.String()})
		}
		if now.Freshness == FreshStale && old.Freshness != FreshStale {
			ch.NewlyStale = append(ch.NewlyStale, id)
		}
		differs := fileDiffers(r.bundle, base.bundle, now.Path, old.Path)
		if differs && now.selected {
			now.Touched = true
			ch.Touched = append(ch.Touched, id)
		}
		edited := differs && now.Verified != nil && sameStamp(now.Verified, old.Verified) &&
			contentChanged(r.bundle, base.bundle, now.Path, old.Path)
		if now.Verified != nil && (now.ChangedSinceVerified && !old.ChangedSinceVerified || edited) {
			ch.ChangedSinceVerified = append(ch.ChangedSinceVerified, id)
		}
		if edited {
			// The headline and the queue count what the changes list shows.
			now.ChangedSinceVerified = true
			now.contentEdited = true
		}
	}
	r.Changes = ch
	r.Totals, r.Directories = totals(r.Concepts)
	r.Queue = queue(r.Concepts)
}

// fileDiffers reports whether a concept file's bytes differ between two versions of the bundle.
func fileDiffers(nb, ob *okf.Bundle, np, op string) bool {
	nd, err1 := nb.ReadFile(np)
	od, err2 := ob.ReadFile(op)
	if err1 != nil || err2 != nil {
		return (err1 == nil) != (err2 == nil)
	}
	return !bytes.Equal(nd, od)
}

// contentChanged reports whether what a verification vouches for differs between two versions of
// a concept file (see contentDigest). Identical bytes are the quick answer.
func contentChanged(nb, ob *okf.Bundle, np, op string) bool {
	nd, err1 := nb.ReadFile(np)
	od, err2 := ob.ReadFile(op)
	if err1 != nil || err2 != nil {
		return false
	}
	return !bytes.Equal(nd, od) && contentDigest(nd) != contentDigest(od)
}

func sameStamp(a, b *Stamp) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.By == b.By && a.At.Equal(b.At)
}
