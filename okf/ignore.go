package okf

import (
	"bufio"
	"bytes"
	"path"
	"strings"
)

// Ignore is a list of gitignore-syntax patterns (D5: `.okfignore` at the bundle root, and the
// configuration's ignore list). Later patterns win; "!" re-includes; a trailing "/" matches folders
// only; a pattern with a "/" before its end is anchored at the root; "**" matches any number of
// folders.
type Ignore struct {
	rules []ignoreRule
}

type ignoreRule struct {
	pattern  string
	negate   bool
	dirOnly  bool
	anchored bool
}

// ParseIgnore reads gitignore-syntax text: blank lines and "#" comments are skipped, "\#" and "\!"
// escape a leading character, trailing unescaped spaces are trimmed.
func ParseIgnore(text []byte) *Ignore {
	ig := &Ignore{}
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		ig.Add(sc.Text())
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
	r.pattern = line
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
		return globMatch(strings.Split(r.pattern, "/"), strings.Split(p, "/"))
	}
	// An unanchored pattern matches the last path element (gitignore: at any depth).
	return globMatch([]string{r.pattern}, []string{path.Base(p)})
}

// globMatch matches pattern segments against path segments, with "**" for any number of segments.
func globMatch(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			rest := pat[1:]
			if len(rest) == 0 {
				return true
			}
			for i := 0; i <= len(segs); i++ {
				if globMatch(rest, segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], segs[0]); err != nil || !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}
