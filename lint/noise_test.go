package lint

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/okf-tools/okf/okf"
)

// The classes of finding issue 26 measured as noise on real bundles: each case is a small bundle
// and what the whole rule set must (want) and must not (deny) say about it. A want or deny is
// "CODE severity substring"; an empty severity or substring matches any.
// Run and Stream must agree on every case.

type noiseCase struct {
	name  string
	files map[string]string
	want  []string // each must match at least one finding (count: see wantN)
	wantN map[string]int
	deny  []string // none may match any finding
}

func note(title string, extra ...string) string {
	return "---\ntype: Note\ntitle: " + title + "\n" + strings.Join(extra, "\n") + "\n---\n# Body\n\nText.\n"
}

func noiseRun(t *testing.T, files map[string]string) []okf.Diagnostic {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, text := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(text)}
	}
	b, err := okf.Load(fsys, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	run := Run(b, Options{Now: fixtureNow})
	s := NewStream(Options{Now: fixtureNow})
	b2, err := okf.Load(fsys, okf.LoadOptions{OnConcept: s.OnConcept})
	if err != nil {
		t.Fatal(err)
	}
	stream := s.Finish(b2)
	text := func(ds []okf.Diagnostic) []string {
		var out []string
		for _, d := range ds {
			out = append(out, d.Severity.String()+" "+d.String())
		}
		slices.Sort(out)
		return out
	}
	if a, b := text(run), text(stream); !slices.Equal(a, b) {
		t.Errorf("Run and Stream differ\n--- Run\n%s\n--- Stream\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
	return run
}

func matches(d okf.Diagnostic, spec string) bool {
	parts := strings.SplitN(spec, " ", 3)
	for len(parts) < 3 {
		parts = append(parts, "")
	}
	return d.Code == parts[0] && (parts[1] == "" || d.Severity.String() == parts[1]) && strings.Contains(d.Message, parts[2])
}

func TestNoiseClasses(t *testing.T) {
	logOK := "# Log\n\n## 2026-06-13\n\n* **Creation**: Started.\n"
	cases := []noiseCase{
		{
			name: "status of a bundle with no v0.2 field is a producer key",
			files: map[string]string{
				"a.md": note("A", "status: active"), "b.md": note("B", "status: active"), "c.md": note("C", "status: retired"),
			},
			wantN: map[string]int{"OKF401 info producer key": 1},
			deny:  []string{"OKF401 warning "},
		},
		{
			name: "status of a declared v0.1 bundle is a producer key",
			files: map[string]string{
				"index.md": "---\nokf_version: \"0.1\"\n---\n# Notes\n\n* [A](a.md) - A.\n",
				"a.md":     note("A", "status: active", "generated: { by: human:ann, at: 2026-01-01T00:00:00Z }"),
			},
			wantN: map[string]int{"OKF401 info producer key": 1},
			deny:  []string{"OKF401 warning "},
		},
		{
			name: "status of a bundle that uses v0.2 fields is a lifecycle value",
			files: map[string]string{
				"a.md": note("A", "status: active", "generated: { by: human:ann, at: 2026-01-01T00:00:00Z }"),
				"b.md": note("B", "status: active"),
			},
			wantN: map[string]int{"OKF401 warning status \"active\" is not draft": 2},
			deny:  []string{"OKF401 info "},
		},
		{
			name: "status of a declared v0.2 bundle is a lifecycle value",
			files: map[string]string{
				"index.md": "---\nokf_version: \"0.2\"\n---\n# Notes\n\n* [A](a.md) - A.\n",
				"a.md":     note("A", "status: active"),
			},
			wantN: map[string]int{"OKF401 warning ": 1},
		},
		{
			name: "a newer minor version may add root index keys",
			files: map[string]string{
				"index.md": "---\nokf_version: \"0.3\"\ntitle: Acme\ndescription: The Acme bundle.\nlicense: MIT\n---\n# Notes\n\n* [A](a.md) - A.\n",
				"a.md":     note("A"),
			},
			wantN: map[string]int{`OKF106 warning okf_version "0.3" is newer than okf reads: read as 0.2, best effort (§12)`: 1},
			want:  []string{`OKF106 warning "title", "description", "license"`},
			deny:  []string{"OKF008 error ", "OKF309 "},
		},
		{
			name: "a newer major version is read best-effort too",
			files: map[string]string{
				"index.md": "---\nokf_version: \"1.0\"\ntitle: Acme\n---\n# Notes\n\n* [A](a.md) - A.\n",
				"a.md":     note("A"),
			},
			want: []string{`OKF106 warning okf_version "1.0" is newer than okf reads: read as 0.2, best effort (§12)`},
			deny: []string{"OKF008 error "},
		},
		{
			name: "a root index of a version okf reads carries only okf_version",
			files: map[string]string{
				"index.md": "---\nokf_version: \"0.2\"\ntitle: Acme\n---\n# Notes\n\n* [A](a.md) - A.\n",
				"a.md":     note("A"),
			},
			want: []string{`OKF008 error "title"`},
			deny: []string{"OKF106 "},
		},
		{
			name: "an older or malformed version is not read as newer",
			files: map[string]string{
				"index.md": "---\nokf_version: \"0.0\"\ntitle: Acme\n---\n# Notes\n\n* [A](a.md) - A.\n",
				"a.md":     note("A"),
			},
			want: []string{`OKF008 error "title"`, `OKF106 warning not a version okf understands`},
			deny: []string{"OKF106 warning newer"},
		},
		{
			name: "a long one-sentence description is reported as long, not as sentences",
			files: map[string]string{
				"a.md": note("A", "description: "+strings.Repeat("word ", 50)+"end"),
			},
			want: []string{"OKF111 info 253 characters long"},
			deny: []string{"OKF103 "},
		},
		{
			name:  "two sentences are reported as sentences",
			files: map[string]string{"a.md": note("A", "description: One thing. Another thing.")},
			want:  []string{"OKF103 info 2 sentences"},
			deny:  []string{"OKF111 "},
		},
		{
			name: "versioned copies of one page share its title",
			files: map[string]string{
				"docs/v1/setup.md": note("Setup"), "docs/v2/setup.md": note("Setup"), "docs/setup.md": note("Setup"),
				"api/1.0/auth.md": note("Auth"), "api/2.1.x/auth.md": note("Auth"), "api/latest/auth.md": note("Auth"),
				"api/version-3/auth.md": note("Auth"),
			},
			deny: []string{"OKF108 "},
		},
		{
			name: "different pages sharing a title are duplicates",
			files: map[string]string{
				"tables/orders.md": note("Orders"), "metrics/orders.md": note("Orders"),
				"docs/v1/a.md": note("Intro"), "docs/v2/b.md": note("Intro"),
			},
			wantN: map[string]int{"OKF108 info ": 4},
		},
		{
			name: "a versioned copy beside a different page sharing the title names only the different page",
			files: map[string]string{
				"docs/v1/setup.md": note("Setup"), "docs/v2/setup.md": note("Setup"), "guide/setup-notes.md": note("Setup"),
			},
			wantN: map[string]int{
				`OKF108 info title "Setup" is also the title of guide/setup-notes.md: `:               2,
				`OKF108 info title "Setup" is also the title of docs/v1/setup.md, docs/v2/setup.md: `: 1,
			},
		},
		{
			name: "a link to the repository around the bundle is no escape",
			files: map[string]string{
				"a.md":     note("A") + "\nSee the [readme](../README.md) and [docs](../../docs/guide.md).\n",
				"sub/b.md": note("B") + "\nSee [the repo](../../LICENSE).\n",
			},
			wantN: map[string]int{"OKF607 info leaves the bundle": 3},
			deny:  []string{"OKF603 ", "OKF601 "},
		},
		{
			name: "a path-valued field that leaves the bundle still is an escape",
			files: map[string]string{
				"a.md": note("A", "resource: ../shared/x.md"),
			},
			want: []string{"OKF603 warning resource \"../shared/x.md\" leaves the bundle root"},
			deny: []string{"OKF607 "},
		},
		{
			name: "a link to a hidden file says it is hidden",
			files: map[string]string{
				"a.md":                    note("A") + "\nSee [the workflow](.github/workflows/ci.md) and [notes](sub/.notes.md).\n",
				".github/workflows/ci.md": note("CI"),
				"sub/.notes.md":           note("Notes"),
				"index.md":                "# Notes\n\n* [A](a.md) - A.\n* [Hidden](.hidden.md) - Hidden.\n",
				".hidden.md":              note("Hidden"),
			},
			wantN: map[string]int{"OKF601 info hidden": 2, "OKF801 info hidden": 1},
			deny:  []string{"OKF601 info does not exist", "OKF801 info does not exist"},
		},
		{
			name: "a hidden computation file says it is hidden",
			files: map[string]string{
				"c.md": "---\ntype: Attested Computation\nruntime: bigquery\ncomputation: .sql/c.sql\n" +
					"executor: { resource: .run/x.md, receipt: [job_id] }\nattester: { resource: .att/a.py }\n---\n# Body\n",
				".sql/c.sql": "SELECT 1",
			},
			want: []string{"OKF708 warning hidden", "OKF709 warning hidden", "OKF707 warning hidden"},
			deny: []string{"OKF708 warning does not exist", "OKF709 warning does not exist", "OKF707 warning does not exist"},
		},
		{
			name: "a log heading that is a datetime says so",
			files: map[string]string{
				"a.md":   note("A"),
				"log.md": "# Log\n\n## 2026-06-13T10:00:00Z\n\n* **Creation**: Started.\n",
			},
			want: []string{`OKF009 error is a datetime, not a date: write "## 2026-06-13"`},
			deny: []string{"OKF009 error must begin"},
		},
		{
			name: "a log heading without a date says what is wrong",
			files: map[string]string{
				"a.md": note("A"),
				"log.md": "# Log\n\n## 2026-06-13\n\n* **Creation**: Started.\n\n## 2026/06/12\n\n* x\n\n## 6/11/2026\n\n* y\n\n" +
					"## 2026-6-1\n\n* y\n\n## 20260601\n\n* z\n\n## Notes\n\n* n\n",
			},
			want: []string{
				`OKF009 error "2026/06/12" is not written YYYY-MM-DD: write "## 2026-06-12"`,
				`OKF009 error "6/11/2026" is not written YYYY-MM-DD`,
				`OKF009 error "2026-6-1" is not written YYYY-MM-DD: write "## 2026-06-01"`,
				`OKF009 error "20260601" is not written YYYY-MM-DD: write "## 2026-06-01"`,
				`OKF009 error "Notes" does not begin with a YYYY-MM-DD date: every ## heading`,
			},
			deny: []string{"OKF009 error must begin", `OKF009 error "2026/06/12" does not begin`},
		},
		{
			name:  "a log heading that is a date is fine",
			files: map[string]string{"a.md": note("A"), "log.md": logOK},
			deny:  []string{"OKF009 "},
		},
		{
			name: "a legacy timestamp beside generated is a leftover, not a value read",
			files: map[string]string{
				"a.md": note("A", "timestamp: 2026-01-02T03:04:05Z", "generated: { by: human:ann, at: 2026-01-02T03:04:05Z }"),
				"b.md": note("B", "timestamp: 2026-01-02T03:04:05Z", "verified: { by: human:bob, at: 2026-01-03T00:00:00Z }"),
			},
			wantN: map[string]int{"OKF308 info ignored because generated is present: delete it": 1, "OKF308 warning read as generated.at": 1},
		},
		{
			// D16: an id no footnote cites is info, whether or not the concept cites others; the
			// info is below the default floor of the human formats, so it is no noise there.
			name: "an id no footnote cites is info (D16), also where nothing is cited",
			files: map[string]string{
				"a.md": note("A", "sources:", "  - { id: s1, resource: https://example.com/1 }", "  - { id: s2, resource: https://example.com/2 }"),
			},
			wantN: map[string]int{`OKF505 info sources[0].id "s1" is never cited`: 1, `OKF505 info sources[1].id "s2" is never cited`: 1},
		},
		{
			name: "a source left out where the others are cited is reported",
			files: map[string]string{
				"a.md": "---\ntype: Note\ntitle: A\nsources:\n  - { id: s1, resource: https://example.com/1 }\n  - { id: s2, resource: https://example.com/2 }\n---\n# Body\n\nA claim.[^s1]\n\n[^s1]: One\n",
			},
			wantN: map[string]int{`OKF505 info sources[1].id "s2" is never cited`: 1},
		},
		{
			name: "a concept whose footnotes all miss the ids: OKF504, and the id is uncited (D16)",
			files: map[string]string{
				"a.md": "---\ntype: Note\ntitle: A\nsources:\n  - { id: s1, resource: https://example.com/1 }\n---\n# Body\n\nA claim.[^1]\n\n[^1]: One\n",
			},
			want: []string{"OKF504 warning ", "OKF505 info "},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds := noiseRun(t, c.files)
			dump := func() string {
				var s []string
				for _, d := range ds {
					s = append(s, d.Severity.String()+" "+d.String())
				}
				return strings.Join(s, "\n")
			}
			for _, w := range c.want {
				if !slices.ContainsFunc(ds, func(d okf.Diagnostic) bool { return matches(d, w) }) {
					t.Errorf("no finding %q in\n%s", w, dump())
				}
			}
			for w, n := range c.wantN {
				got := 0
				for _, d := range ds {
					if matches(d, w) {
						got++
					}
				}
				if got != n {
					t.Errorf("%d findings %q, want %d, in\n%s", got, w, n, dump())
				}
			}
			for _, w := range c.deny {
				for _, d := range ds {
					if matches(d, w) {
						t.Errorf("unwanted finding %q: %s", w, d)
					}
				}
			}
		})
	}
}

func TestIsVersionSegment(t *testing.T) {
	for _, s := range []string{"v1", "V2", "1.0", "2.1.x", "v1.2.3-beta.1", "version-3", "version3", "release-2024.1", "2024-06", "latest", "next", "1.0.0-rc1"} {
		if !isVersionSegment(s) {
			t.Errorf("%q is a version", s)
		}
	}
	for _, s := range []string{"docs", "setup", "v", "version", "vue", "x", "1a", "v1-guide", "2fa", "3d-models", "index"} {
		if isVersionSegment(s) {
			t.Errorf("%q is no version", s)
		}
	}
}

// A bundle that declares okf_version "0.2" but whose concepts are written in v0.1 keys only gets the
// one bundle-level legacy finding, not a legacy-timestamp warning per concept.
func TestDeclaredV02WrittenV01(t *testing.T) {
	files := map[string]string{"index.md": "---\nokf_version: \"0.2\"\n---\n# Notes\n\n* [A](a.md) - A.\n* [B](b.md) - B.\n"}
	for _, n := range []string{"a", "b"} {
		files[n+".md"] = note(n, "timestamp: 2026-01-02T03:04:05Z")
	}
	ds := noiseRun(t, files)
	bundle, warn, info := 0, 0, 0
	for _, d := range ds {
		switch {
		case d.Code == LegacyBundle.Code && strings.Contains(d.Message, `declares okf_version "0.2", but its concepts use v0.1 keys`):
			bundle++
		case d.Code == LegacyTimestamp.Code && d.Severity == okf.Warning:
			warn++
		case d.Code == LegacyTimestamp.Code:
			info++
		}
	}
	if bundle != 1 || warn != 0 || info != 2 {
		t.Errorf("%d bundle-level findings, %d per-concept warnings, %d per-concept infos; want 1, 0, 2", bundle, warn, info)
	}
	// One v0.2 field anywhere and it is a v0.2 bundle with leftovers: a warning on each timestamp
	// read in place of generated.at (c.md's, beside generated, is ignored: info).
	files["c.md"] = note("c", "timestamp: 2026-01-02T03:04:05Z", "generated: { by: human:ann, at: 2026-01-02T03:04:05Z }")
	warn = 0
	for _, d := range noiseRun(t, files) {
		if d.Code == LegacyBundle.Code {
			t.Errorf("a v0.2 field is used, yet: %s", d)
		}
		if d.Code == LegacyTimestamp.Code && d.Severity == okf.Warning {
			warn++
		}
	}
	if warn != 2 {
		t.Errorf("%d legacy-timestamp warnings, want 2", warn)
	}
}
