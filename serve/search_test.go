package serve

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// searchIDs runs the search tool on s and returns the IDs found, best first.
func searchIDs(t *testing.T, s *Server, query string) []string {
	t.Helper()
	_, out, err := s.search(context.Background(), nil, SearchIn{Query: query, K: maxK})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, h := range out.Hits {
		ids = append(ids, h.ID)
	}
	return ids
}

// writeConcepts writes each file (slash path → text) into a new bundle directory.
func writeConcepts(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, text := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A word is as rare as its stem: a concept that writes "events" where every other concept writes
// "event" scores for the query "events" what it would score were "events" the spelling of all.
// Weighed by the rarity of the spelling, the one concept with a plural would outrank concepts
// that say far more about events.
func TestSearchRarityIsTheStems(t *testing.T) {
	score := func(others string) float64 {
		var b indexBuilder
		for i := range 10 {
			body := others
			if i == 0 {
				body = "events"
			}
			var l [numFields]int32
			l[fieldBody] = b.addField(fieldBody, []byte(body))
			b.endDoc(l)
		}
		for _, h := range b.buildSearch().search([]string{"events"}, 10, nil) {
			if h.doc == 0 {
				return h.score
			}
		}
		t.Fatalf("others %q: document 0 not found", others)
		return 0
	}
	if one, all := score("event"), score("events"); one != all {
		t.Errorf("the one concept spelling it events scores %v; were all spelling it so, %v", one, all)
	}
}

// Two concepts with the same words in the same fields: the one whose title has the query's words
// side by side, as asked, ranks first. Without pairs they tie, and the tie goes to ID order.
func TestSearchAdjacentWords(t *testing.T) {
	dir := writeConcepts(t, map[string]string{
		"a.md": "---\ntype: Metric\ntitle: Margin by gross weight\n---\nNotes.\n",
		"b.md": "---\ntype: Metric\ntitle: Gross margin by weight\n---\nNotes.\n",
		"c.md": "---\ntype: Metric\ntitle: Other\n---\nNothing.\n",
	})
	s, _ := newServer(t, dir, 0)
	if got := searchIDs(t, s, "what is the gross margin"); !slices.Equal(got, []string{"b", "a"}) {
		t.Errorf("gross margin: %q, want b (the words side by side) then a", got)
	}
	// Stop words between the words do not part them; the order asked does.
	if got := searchIDs(t, s, "margin of the weight"); len(got) == 0 || got[0] != "b" {
		t.Errorf("margin of the weight: %q, want b first", got)
	}
}

func TestQueryPairs(t *testing.T) {
	got := queryPairs(tokens("How is the gross margin of goods computed, gross margin?", nil))
	want := []string{"gross margin", "margin good", "good comput", "comput gross"}
	if !slices.Equal(got, want) {
		t.Errorf("pairs %q, want %q", got, want)
	}
	if got := queryPairs(tokens("what is it", nil)); len(got) != 0 {
		t.Errorf("only stop words: %q", got)
	}
}

// The anchor text of a concept is what others call it: an index entry that repeats the concept's
// own title or description adds nothing (those are fields already), and counted again it would
// weigh the title's words once more for every concept that has an index entry.
func TestAnchorsLeaveOutOwnTitle(t *testing.T) {
	dir := writeConcepts(t, map[string]string{
		"index.md": "---\nokf_version: \"0.2\"\n---\n\n# Concepts\n\n" +
			"* [Gross Margin](gross.md) - Revenue less cost of goods.\n" +
			"* [GM](gross.md) - The margin finance reports.\n",
		"gross.md": "---\ntype: Metric\ntitle: Gross Margin\ndescription: Revenue less cost of goods.\n---\nSee [the margin](other.md).\n",
		"other.md": "---\ntype: Metric\ntitle: Other\n---\nLike [gross margin](gross.md), [Gross Margin](gross.md).\n",
	})
	s, _ := newServer(t, dir, 0)
	snap := s.snap.Load()
	anchors := snap.anchors()
	var got string
	for i, d := range snap.docs[:snap.concepts] {
		if d.id == "gross" {
			got = string(anchors[i])
		}
	}
	if want := "GM\nThe margin finance reports.\n"; got != want {
		t.Errorf("anchor text of gross:\n%q\nwant\n%q", got, want)
	}
}

// The frontmatter's other keys are searched by their values (a source's title, an alias, the
// type): the keys themselves are not words of the concept, the title, description and tags,
// fields of their own, are not counted again, and stamps and dates are left out.
func TestMetaText(t *testing.T) {
	dir := writeConcepts(t, map[string]string{
		"ground.md": "---\ntype: venue\ntitle: Example Ground\ndescription: |\n  A ground.\n  Two lines.\ntags:\n  - cricket\n" +
			"aliases:\n  - ECG\n  - The Oval\ngenerated:\n  by: agent:x\n  at: 2026-06-07T10:00:00Z\n" +
			"sources:\n  - id: s1\n    title: Cricsheet match data\n    last_modified: 2026-05-30T00:00:00Z\n---\nStats.\n",
		"other.md": "---\ntype: venue\ntitle: Aliases\n---\nNothing.\n",
	})
	s, _ := newServer(t, dir, 0)
	snap := s.snap.Load()
	d := snap.byID["ground"]
	got := strings.Fields(string(metaText(d)))
	want := []string{"venue", "ECG", "The", "Oval", "s1", "Cricsheet", "match", "data"}
	if !slices.Equal(got, want) {
		t.Errorf("meta words %q, want %q", got, want)
	}
	if ids := searchIDs(t, s, "oval"); !slices.Equal(ids, []string{"ground"}) {
		t.Errorf("oval: %q, want the concept with that alias", ids)
	}
	// "aliases" is a key of ground, the title of other: only other holds the word.
	if ids := searchIDs(t, s, "aliases"); !slices.Equal(ids, []string{"other"}) {
		t.Errorf("aliases: %q, want other only", ids)
	}
}

func TestYAMLKeyValue(t *testing.T) {
	for in, want := range map[string][2]string{
		"title: Revenue\n":         {"title", " Revenue\n"},
		"  - title: Cricsheet\n":   {"title", " Cricsheet\n"},
		"  - ECG\n":                {"", "ECG\n"},
		"resource: https://x/y\n":  {"resource", " https://x/y\n"},
		"sources:\n":               {"sources", "\n"},
		"  a line of text: more\n": {"", "a line of text: more\n"},
		"- - nested: v":            {"nested", " v"},
		"x:y\n":                    {"", "x:y\n"},
	} {
		if k, v := yamlKeyValue([]byte(in)); k != want[0] || string(v) != want[1] {
			t.Errorf("%q: %q %q, want %q %q", in, k, v, want[0], want[1])
		}
	}
}

// The parts of a word in camel case, as the index counts them besides the word (lowercased there).
func TestCamelParts(t *testing.T) {
	for w, want := range map[string][]string{
		"AnimatePresence": {"Animate", "Presence"},
		"useState":        {"use", "State"},
		"HTTPServer":      nil, // a run of capitals
		"getHTTPResponse": {"get", "HTTPResponse"},
		"IcebergCompatV1": {"Iceberg", "Compat", "V1"},
		"getX":            {"get", "X"},
		"v2Api":           nil, // a capital after a digit
		"19T10":           nil,
		"animate":         nil, // no capital
		"Animate":         nil, // a capital first only
		"HTTP":            nil, // capitals only
		"CaféBar":         nil, // not ASCII
		"Ab" + strings.Repeat("Cd", maxPartsWord/2): nil, // too long
	} {
		var got []string
		camelParts([]byte(w), func(from, to int) { got = append(got, w[from:to]) })
		if !slices.Equal(got, want) {
			t.Errorf("%s: parts %q, want %q", w, got, want)
		}
	}
}

// A concept that names a thing in camel case (an identifier: AnimatePresence, useState) is found by
// the words it is made of, as a question asks them; the part counts as a word written apart would.
func TestSearchCamelCaseParts(t *testing.T) {
	dir := writeConcepts(t, map[string]string{
		"motion.md": "---\ntype: Library Notes\ntitle: Motion\n---\nWrap the list in `AnimatePresence` for exit effects.\n",
		"other.md":  "---\ntype: Library Notes\ntitle: Other\n---\nThe exit of a list of effects.\n",
		"state.md":  "---\ntype: Library Notes\ntitle: Hooks\n---\nCall useState in the component.\n",
	})
	s, _ := newServer(t, dir, 0)
	if got := searchIDs(t, s, "animate a list's exit"); len(got) == 0 || got[0] != "motion" {
		t.Errorf("animate a list's exit: %q, want motion first", got)
	}
	if got := searchIDs(t, s, "presence"); !slices.Equal(got, []string{"motion"}) {
		t.Errorf("presence: %q, want motion", got)
	}
	// The word as written is still a word of the index.
	if got := searchIDs(t, s, "AnimatePresence"); !slices.Equal(got, []string{"motion"}) {
		t.Errorf("AnimatePresence: %q, want motion", got)
	}
	if got := searchIDs(t, s, "state"); !slices.Equal(got, []string{"state"}) {
		t.Errorf("state: %q, want state", got)
	}
}

// A body's citation markers and links' destinations are not its words: a source's file name cited
// after every paragraph is the same in every concept drawn from that source, and a destination's
// words are the linked concept's. The link's text stays.
func TestBodyWords(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Plain text, [not a link] and a ^caret.\n", "Plain text, [not a link] and a ^caret.\n"},
		{"Payload. ^[configure-a-load-test.md]\nMore. ^[a.md] ^[b.md]", "Payload.  \nMore.    "},
		{"See [Model Serving](/concepts/model-serving.md) too.", "See [Model Serving  too."},
		// Not closed on its line, or longer than a marker is: kept as written.
		{"Open ^[no end\nnext] line", "Open ^[no end\nnext] line"},
		{"Link [x](" + strings.Repeat("a", maxMarker) + ")", "Link [x](" + strings.Repeat("a", maxMarker) + ")"},
		{"Link [x](" + strings.Repeat("a", maxMarker-1) + ")", "Link [x "},
		{"^[](", " ("},
		{"](^[x]", "](^[x]"[:2] + " "},
	} {
		if got := string(bodyWords(nil, []byte(c.in))); got != c.want {
			t.Errorf("bodyWords(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A concept is not found by the words of the file it cites nor of the concepts it links to, and
// a marker repeated after every paragraph does not make its body look long.
func TestSearchSkipsCitationsAndLinkDestinations(t *testing.T) {
	dir := writeConcepts(t, map[string]string{
		"a.md":        "---\ntype: Concept\ntitle: Payload\n---\nThe payload file. ^[configure-endpoint-throughput.md]\n\nSee [the sizing](capacity.md).\n",
		"capacity.md": "---\ntype: Concept\ntitle: Capacity\n---\nHow to size.\n",
		"b.md":        "---\ntype: Concept\ntitle: Other\n---\nNothing here.\n",
	})
	s, _ := newServer(t, dir, 0)
	for _, q := range []string{"configure endpoint throughput", "capacity md"} {
		if got := searchIDs(t, s, q); slices.Contains(got, "a") {
			t.Errorf("%s: %q, want no a", q, got)
		}
	}
	if got := searchIDs(t, s, "the sizing"); len(got) == 0 || !slices.Contains(got, "a") {
		t.Errorf("the sizing: %q, want a (the link's text)", got)
	}
}
