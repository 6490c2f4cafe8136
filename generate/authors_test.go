package generate

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestAuthorsNoMadeUpIdentity: an author line is split into several people only where every part
// is a full name (two or more words), a Markdown link or an author key; "Last, First", a company
// with "&", and a name with a suffix (PhD, Jr.) stay one person; a URL or a bare e-mail address is
// credited in the body, never turned into an identity.
func TestAuthorsNoMadeUpIdentity(t *testing.T) {
	for _, tc := range []struct {
		in     string
		people string // entries joined by " | ", each text, "!" marking credit-only
		actor  string // the first author's actor
	}{
		{"Doe, Jane", "Doe, Jane", "human:doe-jane"},
		{"Procter & Gamble Editorial", "Procter & Gamble Editorial", "human:procter-gamble-editorial"},
		{"Jane Doe, PhD", "Jane Doe, PhD", "human:jane-doe-phd"},
		{"Jane Doe, Jr.", "Jane Doe, Jr.", "human:jane-doe-jr"},
		{"Jane Doe, PhD, Alan Turing", "Jane Doe, PhD | Alan Turing", "human:jane-doe-phd"},
		{"Jane Doe, MD and Alan Turing", "Jane Doe, MD | Alan Turing", "human:jane-doe-md"},
		{"https://example.com/ada", "!https://example.com/ada", ""},
		{"ada@example.com", "!ada@example.com", ""},
		{"www.example.com", "!www.example.com", ""},
		{"Ada Lovelace, https://example.com/alan", "Ada Lovelace | !https://example.com/alan", "human:ada-lovelace"},
		// Still split: full names, links, keys.
		{"Ada Lovelace and Alan Turing", "Ada Lovelace | Alan Turing", "human:ada-lovelace"},
		{"Ada Lovelace <ada@example.com>, Alan Turing", "Ada Lovelace | Alan Turing", "human:ada-lovelace"},
		{"[Ada](https://a.example) (IBM), [Alan](https://b.example)", "Ada | Alan", "human:ada"},
		{"ada, alan", "ada | alan", ""},
	} {
		_, _, entries := readAuthorList(&yaml.Node{Kind: yaml.ScalarNode, Value: tc.in}, false)
		var got []string
		for _, e := range entries {
			s := e.text
			if e.credit {
				s = "!" + s
			}
			got = append(got, s)
		}
		if g := strings.Join(got, " | "); g != tc.people {
			t.Errorf("%q: people %q, want %q", tc.in, g, tc.people)
		}
		actor := ""
		if len(entries) > 0 && entries[0].person() {
			actor = Actor(entries[0].text)
		}
		if actor != tc.actor {
			t.Errorf("%q: actor %q, want %q", tc.in, actor, tc.actor)
		}
	}
}

// TestAuthorsURLCreditOnly: a post whose author is a URL has no source author, and the body
// credits the URL as text.
func TestAuthorsURLCreditOnly(t *testing.T) {
	posts := t.TempDir()
	writeFiles(t, posts, map[string]string{
		"a.md": "---\ntitle: A\nauthor: https://example.com/ada\n---\nText.\n",
		"b.md": "---\ntitle: B\nauthor: ada@example.com\n---\nText.\n",
	})
	plan := run(t, Options{Posts: posts, Out: t.TempDir(), Site: "https://x.example", Engine: "generic", All: true, Now: t0})
	a, b := fileOf(plan, "concepts/a.md"), fileOf(plan, "concepts/b.md")
	if strings.Contains(a, "human:") || !strings.Contains(a, `(author: https\://example\.com/ada)`) {
		t.Errorf("a:\n%s", a)
	}
	if strings.Contains(b, "human:") || !strings.Contains(b, `(author: ada\@example\.com)`) {
		t.Errorf("b:\n%s", b)
	}
}

// TestAuthorsSplit: Markdown links and comma/"and" lists are one person each; a key-shaped value
// that no authors file resolves is never an identity, with the default engine too.
func TestAuthorsSplit(t *testing.T) {
	posts := t.TempDir()
	writeFiles(t, posts, map[string]string{
		"a.md": "---\ntitle: A\nauthor: \"[Guangya Liu](https://github.com/gyliu513) (IBM), [Sujay Solomon](https://github.com/sujay) (Google)\"\n---\nText.\n",
		"b.md": "---\ntitle: B\nauthors: ['default']\n---\nText.\n",
		"c.md": "---\ntitle: C\nauthors: Ada Lovelace <ada@example.com> and Alan Turing\n---\nText.\n",
	})
	plan := run(t, Options{Posts: posts, Out: t.TempDir(), Site: "https://x.example", Engine: "generic", All: true, Now: t0})
	a, b, c := fileOf(plan, "concepts/a.md"), fileOf(plan, "concepts/b.md"), fileOf(plan, "concepts/c.md")
	if !strings.Contains(a, "author: human:guangya-liu\n") || !strings.Contains(a, `(author: Guangya Liu \(IBM\), Sujay Solomon \(Google\))`) || strings.Contains(a, "github.com") {
		t.Errorf("a:\n%s", a)
	}
	if strings.Contains(b, "human:default") || !strings.Contains(b, "(author: default)") {
		t.Errorf("b:\n%s", b)
	}
	if !strings.Contains(c, "author: human:ada-lovelace\n") || !strings.Contains(c, "Ada Lovelace, Alan Turing") {
		t.Errorf("c:\n%s", c)
	}
}
