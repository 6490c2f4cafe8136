package serve

import (
	"bytes"
	"strings"

	"github.com/kljensen/snowball/english"
	"github.com/okf-tools/okf/okf"
)

// pairFields are the fields whose adjacent words are indexed as pairs: the short ones, where two
// words side by side are mostly a name. In a body they are as often chance.
var pairFields = [...]int{fieldTitle, fieldHeadings, fieldDescription, fieldTags, fieldAnchor, fieldPath}

// stems caches the stem of each word met while a builder reads pairs (a word's stem is computed
// once per builder, not per occurrence), the first maxStemCache words only: a bundle's whole
// vocabulary is rarely more (30,000 words in the largest at hand), and a bundle of distinct words
// would otherwise make the cache as large as the index.
type stems map[string]string

const maxStemCache = 1 << 16

func (c stems) of(w string) string {
	s, ok := c[w]
	if !ok {
		s = stemOf(w)
		if len(c) < maxStemCache {
			// Cloned: w is part of a field's text, which the map would otherwise keep alive.
			c[strings.Clone(w)] = strings.Clone(s)
		}
	}
	return s
}

// maxPairs is how many pairs one field of one concept gives the pair index: those of its first
// words. A real field has far fewer (the most of 5,677 real concepts: 577, in anchor text, which
// maxAnchor bounds); a field of thousands of distinct words would otherwise give as many pairs,
// each a term of its own.
const maxPairs = 1024

// eachPair calls each with every pair of adjacent words of text ("a b", their stems), stop words
// left out, line by line (a heading or an anchor entry is one line: no pair spans two), the first
// maxPairs of them, and returns how many it gave.
func eachPair(text []byte, c stems, each func(pair []byte)) int32 {
	var n int32
	var words []string
	var pair []byte
	for rest := string(text); len(rest) > 0 && n < maxPairs; {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		words = tokens(line, words[:0])
		prev := ""
		for _, w := range words {
			if english.IsStopWord(w) {
				continue
			}
			w = c.of(w)
			if prev != "" {
				if n == maxPairs {
					break
				}
				pair = append(append(append(pair[:0], prev...), ' '), w...)
				each(pair)
				n++
			}
			prev = w
		}
	}
	return n
}

// queryPairs returns the distinct pairs of adjacent words of a query (stems, stop words left out),
// in the order asked.
func queryPairs(q []string) []string {
	var out []string
	seen := map[string]bool{}
	prev := ""
	for _, w := range q {
		if english.IsStopWord(w) {
			continue
		}
		w = stemOf(w)
		if prev != "" {
			if p := prev + " " + w; !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
		prev = w
	}
	return out
}

// metaText returns the frontmatter of d as written, the words a producer wrote about the concept
// (the type, the sources' titles and authors, the resource, aliases, whatever else), without the
// keys that are fields of their own (title, description, tags) or whose values are dates, counts
// and actors' stamps (notWords). Values only: the keys ("type", "title", "source") are in nearly
// every concept, and counted they would make those words look common to every query that asks for
// them. One pass over its lines and keys (in the order written).
func metaText(d *doc) []byte {
	if d.concept == nil || !d.concept.Frontmatter.Present {
		return nil
	}
	sp := okf.SplitFrontmatter(d.text)
	if sp.Status != okf.FrontmatterOK {
		return nil
	}
	keys := d.concept.Frontmatter.Keys
	var out []byte
	k, left := 0, false // keys[:k] start at or before this line; left: the last of them is left out
	for line, rest := int32(sp.YAMLLine), sp.YAML; len(rest) > 0; line++ {
		l := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			l, rest = rest[:i+1], rest[i+1:]
		} else {
			rest = nil
		}
		for k < len(keys) && keys[k].Pos.Line <= line {
			left = ownField[keys[k].Name] || notWords[keys[k].Name]
			k++
		}
		if left {
			continue
		}
		// A nested key (a source's last_modified) is left out by its line.
		if key, value := yamlKeyValue(l); !notWords[key] {
			out = append(out, value...)
		}
	}
	return out
}

// ownField are the top-level keys that are search fields of their own.
var ownField = map[string]bool{"title": true, "description": true, "tags": true}

// notWords are the keys of the spec's stamps, dates and counts (§5, §12) and v0.1's timestamp:
// numbers and actor names in every concept, nothing a question asks for.
var notWords = map[string]bool{
	"generated": true, "verified": true, "stale_after": true, "timestamp": true, "okf_version": true,
	"usage_window": true, "usage_count": true, "last_modified": true,
}

// yamlKeyValue splits a line of YAML into its mapping key ("" when it has none) and the rest: the
// value as written, without the indentation and list dashes (`  - title: Revenue` is "title" and
// " Revenue").
func yamlKeyValue(l []byte) (string, []byte) {
	l = bytes.TrimLeft(l, " \t")
	for bytes.HasPrefix(l, []byte("- ")) {
		l = bytes.TrimLeft(l[2:], " \t")
	}
	for i, c := range l {
		switch {
		case c == ':' && i > 0 && (i+1 == len(l) || l[i+1] == ' ' || l[i+1] == '\t' || l[i+1] == '\n' || l[i+1] == '\r'):
			return string(l[:i]), l[i+1:]
		case c == '_' || c == '-' || c == '.' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9'):
			continue
		}
		return "", l
	}
	return "", l
}

// maxMarker is the longest citation marker or link destination bodyWords leaves out, in bytes: a
// file name or a path is rarely longer, and a run of text past it is not one.
const maxMarker = 512

// bodyWords returns the text of body the body field indexes: body without its citation markers
// (`^[source.md]`, which a producer may write after every paragraph: the source's file name, the
// same in every concept drawn from it, would weigh as the concept's own words and lengthen its
// body) and without its links' destinations (`[Model Serving](/concepts/model-serving.md)` keeps
// "Model Serving": the destination's words are the words of the concept linked to, which are its
// own anchor text, not this one's). Each is on one line and at most maxMarker bytes; anything else
// is kept as written. One pass: each byte is looked at a bounded number of times (a start whose end
// is not found leaves what it scanned known to hold none, so the next start does not scan it
// again). A body with neither is returned as it is; one with them is written after dst's bytes.
func bodyWords(dst, body []byte) []byte {
	out, found := dst, false
	last := 0
	var clear [2]int // by kind: body[start:clear[kind]] holds no closing byte nor newline
	for i := 0; i+1 < len(body); i++ {
		kind := -1
		switch {
		case body[i] == '^' && body[i+1] == '[':
			kind = 0
		case body[i] == ']' && body[i+1] == '(':
			kind = 1
		}
		if kind < 0 {
			continue
		}
		closer := "])"[kind]
		end := min(len(body), i+2+maxMarker)
		j := max(i+2, clear[kind])
		for j < end && body[j] != closer && body[j] != '\n' {
			j++
		}
		if j < end && body[j] == closer {
			out = append(append(out, body[last:i]...), ' ')
			found = true
			last = j + 1
			i = j
			continue
		}
		clear[kind] = j
	}
	if !found {
		return body
	}
	return append(out, body[last:]...)
}
