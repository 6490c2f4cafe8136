package okf

import (
	"bytes"
	"path"
	"strings"
)

// Ignore is a list of gitignore-syntax patterns (D5: `.okfignore` at the bundle root, and the
// configuration's ignore list). Later patterns win; "!" re-includes; a trailing "/" matches folders
// only; a pattern with a "/" before its end is anchored at the root; "**" matches any number of
// folders.
type Ignore struct {
	rules   []ignoreRule
	dropped int
}

// MaxIgnorePatterns and MaxIgnorePatternLen bound an Ignore list. Bound: every pattern is matched
// against every path (and every finding's path for overrides), and the lists come with the bundle:
// 20,000 patterns over 5,000 files took a minute. Patterns past the first MaxIgnorePatterns, and
// any longer than MaxIgnorePatternLen bytes (no path a checkout holds is that long), are not added;
// Dropped counts them.
const (
	MaxIgnorePatterns   = 512
	MaxIgnorePatternLen = 1024
)

// Dropped is how many patterns Add left out (MaxIgnorePatterns, MaxIgnorePatternLen).
func (ig *Ignore) Dropped() int { return ig.dropped }

type ignoreRule struct {
	pattern  string
	negate   bool
	dirOnly  bool
	anchored bool
	segs     []string // pattern split at "/", once
}

// ParseIgnore reads gitignore-syntax text: blank lines and "#" comments are skipped, "\#" and "\!"
// escape a leading character, trailing unescaped spaces are trimmed.
func ParseIgnore(text []byte) *Ignore {
	ig := &Ignore{}
	// Split, not bufio.Scanner: a line over the scanner's 64 KiB would silently end the list.
	for _, line := range bytes.Split(text, []byte{'\n'}) {
		ig.Add(string(line))
	}
	return ig
}

// Add appends one pattern line.
func (ig *Ignore) Add(line string) {
	line = strings.TrimSuffix(line, "\r")
	for strings.HasSuffix(line, " ") && !strings.HasSuffix(line, "\\ ") {
		line = line[:len(line)-1]
	}
	if line == "" || strings.HasPrefix(line, "#") {
		return
	}
	r := ignoreRule{}
	if strings.HasPrefix(line, "!") {
		r.negate = true
		line = line[1:]
	} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly = true
		line = strings.TrimSuffix(line, "/")
	}
	if strings.Contains(line, "/") {
		r.anchored = true
		line = strings.TrimPrefix(line, "/")
	}
	if line == "" {
		return
	}
	if len(ig.rules) >= MaxIgnorePatterns || len(line) > MaxIgnorePatternLen {
		ig.dropped++
		return
	}
	r.pattern = line
	r.segs = strings.Split(line, "/")
	ig.rules = append(ig.rules, r)
}

// Match reports whether the slash path p (from the root) is ignored. isDir says whether p is a
// folder. A path inside an ignored folder is ignored too (the loader does not descend into one).
func (ig *Ignore) Match(p string, isDir bool) bool {
	if ig == nil {
		return false
	}
	ignored := false
	for _, r := range ig.rules {
		if r.dirOnly && !isDir {
			continue
		}
		if r.matches(p) {
			ignored = !r.negate
		}
	}
	return ignored
}

func (r ignoreRule) matches(p string) bool {
	if r.anchored {
		return globMatch(r.segs, strings.Split(p, "/"))
	}
	// An unanchored pattern matches the last path element (gitignore: at any depth).
	return globMatch([]string{r.pattern}, []string{path.Base(p)})
}

// globMatch matches pattern segments against path segments, with "**" for any number of segments.
//
// Bound: at most len(pat) × (len(segs)+1) segment matches (path.Match, itself linear in the
// segment for Go's glob syntax, which never backtracks across stars), whatever the pattern: the
// table below records, for each pattern suffix, which path suffixes it matches, so a pattern such
// as **/**/**/…/a is polynomial instead of trying every way to split the path (exponential).
func globMatch(pat, segs []string) bool {
	if !hasDoubleStar(pat) {
		// The common case: one segment each, no table.
		if len(pat) != len(segs) {
			return false
		}
		for i := range pat {
			if ok, err := path.Match(pat[i], segs[i]); err != nil || !ok {
				return false
			}
		}
		return true
	}
	// next[j]: pat[i+1:] matches segs[j:]; cur[j]: pat[i:] matches segs[j:].
	next := make([]bool, len(segs)+1)
	cur := make([]bool, len(segs)+1)
	next[len(segs)] = true // the empty pattern matches only the empty path
	for i := len(pat) - 1; i >= 0; i-- {
		if pat[i] == "**" {
			// "**" takes zero or more segments: pat[i:] matches segs[j:] when pat[i+1:] matches
			// segs[k:] for some k ≥ j.
			cur[len(segs)] = next[len(segs)]
			for j := len(segs) - 1; j >= 0; j-- {
				cur[j] = next[j] || cur[j+1]
			}
		} else {
			cur[len(segs)] = false
			for j := len(segs) - 1; j >= 0; j-- {
				cur[j] = false
				if next[j+1] {
					ok, err := path.Match(pat[i], segs[j])
					cur[j] = err == nil && ok
				}
			}
		}
		next, cur = cur, next
	}
	return next[0]
}

func hasDoubleStar(pat []string) bool {
	for _, p := range pat {
		if p == "**" {
			return true
		}
	}
	return false
}
