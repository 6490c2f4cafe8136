package lint

import (
	"fmt"
	"sort"
	"strings"

	"github.com/okf-tools/okf/okf"
)

// TitleDuplicate reports concepts that share a title with another concept of the bundle (info, a
// convention). The title is the display name indexes, search results and agents show (§4.1); two
// concepts with one name cannot be told apart there. Titles are compared without regard to case
// and surrounding spaces; each concept is reported, naming up to three of the others and counting
// the rest.
//
// Versioned copies of one page (docs/v1/setup.md, docs/v2/setup.md, docs/setup.md) share their
// title by design: their paths differ only in version segments (versionFree), which already tell
// them apart, so they are not duplicates of each other.
var TitleDuplicate = &Rule{Code: "OKF108", Name: "title-duplicate", Severity: okf.Info, Scope: ScopeBundle, reads: []factRef{factPresent, factTitle},
	Title: "title shared with another concept",
	Doc: "`title` is the display name consumers show (§4.1). When two concepts share one, an index or a search result " +
		"lists two entries that look the same, and an agent picking by name may open the wrong one. Titles are " +
		"compared without regard to case. Versioned copies of one page are not duplicates: concepts whose paths " +
		"differ only in folders or names that are versions (`v2`, `1.0`, `2.1.x`, `version-3`, `latest`, `next`...) " +
		"may share a title.\n\n" +
		"Bad:\n\n    tables/orders.md:      title: Orders\n    metrics/orders.md:     title: Orders\n\n" +
		"Good:\n\n    tables/orders.md:      title: Orders table\n    metrics/orders.md:     title: Order count\n" +
		"    docs/v1/setup.md:      title: Setup\n    docs/v2/setup.md:      title: Setup",
	Check: checkTitleDuplicate}

func checkTitleDuplicate(p *Pass) {
	type concept struct {
		path  string
		page  string // the path without its version segments
		title okf.Value
	}
	// Most titles are unique: the first concept of each title is remembered by index, and a list is
	// made only for a title a second concept has (a list per title was most of the rule's time).
	first := map[string]int{}
	byTitle := map[string][]concept{}
	titles := factTitle.all(p)
	entry := func(i int) concept { return concept{path: p.Bundle.Concepts[i].Path, title: titles[i]} }
	for i, present := range factPresent.all(p) {
		if !present {
			continue
		}
		if title := titles[i]; title.IsString() {
			if t := strings.ToLower(strings.TrimSpace(title.Text())); t != "" {
				j, seen := first[t]
				switch {
				case !seen:
					first[t] = i
				case byTitle[t] == nil:
					byTitle[t] = []concept{entry(j), entry(i)}
				default:
					byTitle[t] = append(byTitle[t], entry(i))
				}
			}
		}
	}
	for _, cs := range byTitle { // page: here, for the shared titles only
		if len(cs) < 2 {
			continue
		}
		// Sorted once per group; each finding names at most titleDuplicateNamed of the others and
		// counts the rest, so n concepts sharing a title cost O(n log n) time and O(n) output, not
		// n² (a pull request of 10,000 copies of one file would otherwise print a gigabyte).
		sort.Slice(cs, func(i, j int) bool { return cs[i].path < cs[j].path })
		pages := map[string]int{} // concepts per version-free page
		for i := range cs {
			cs[i].page = versionFree(cs[i].path)
			pages[cs[i].page]++
		}
		if len(pages) < 2 {
			continue // all versions of one page
		}
		for _, c := range cs {
			others := make([]string, 0, titleDuplicateNamed)
			for _, o := range cs {
				if len(others) == titleDuplicateNamed {
					break
				}
				if o.page != c.page {
					others = append(others, o.path)
				}
			}
			list := strings.Join(others, ", ")
			if more := len(cs) - pages[c.page] - len(others); more > 0 {
				list += fmt.Sprintf(" and %d more", more)
			}
			t := c.title
			p.Reportf(at(t, okf.Position{Path: c.path, Line: 1, Col: 1}), "title %q is also the title of %s: readers and agents choosing by title cannot tell them apart; make it distinct (§4.1)",
				strings.TrimSpace(t.Raw), list)
		}
	}
}

// versionFree returns a concept's path without its version segments (isVersionSegment): the
// versioned copies of one page have the same one.
func versionFree(p string) string {
	segs := strings.Split(strings.TrimSuffix(p, ".md"), "/")
	out := segs[:0]
	for _, s := range segs {
		if !isVersionSegment(s) {
			out = append(out, s)
		}
	}
	return strings.Join(out, "/")
}

// versionWords are folder names documentation sites give a version.
var versionWords = map[string]bool{"latest": true, "stable": true, "next": true, "current": true, "legacy": true,
	"nightly": true, "canary": true, "unreleased": true, "edge": true, "dev": true}

// isVersionSegment reports whether a path segment names a version: "v2", "1.0", "2.1.x", "v1.2.3-beta",
// "version-3", "release-2024.1", a date ("2024-06"), or a word of versionWords.
func isVersionSegment(s string) bool {
	s = strings.ToLower(s)
	if versionWords[s] {
		return true
	}
	for _, prefix := range []string{"version-", "version", "release-", "release", "v"} {
		if rest, ok := strings.CutPrefix(s, prefix); ok && rest != "" && rest[0] >= '0' && rest[0] <= '9' {
			s = rest
			break
		}
	}
	if s == "" || s[0] < '0' || s[0] > '9' {
		return false
	}
	// Digits separated by . - _, then optionally x or a pre-release word (1.2.3-beta.1).
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9', c == '.', c == '-', c == '_':
		case c == 'x' && (i == len(s)-1 || s[i+1] == '.'):
		default:
			rest := strings.TrimLeft(s[i:], "abcdefghijklmnopqrstuvwxyz")
			word := s[i : len(s)-len(rest)]
			if word != "alpha" && word != "beta" && word != "rc" && word != "pre" {
				return false
			}
			i += len(word) - 1
		}
	}
	return true
}

// titleDuplicateNamed is how many of the other concepts sharing its title an OKF108 finding names.
const titleDuplicateNamed = 3
