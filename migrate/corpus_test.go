package migrate_test

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/okf-tools/okf/lint"
	"github.com/okf-tools/okf/migrate"
	"github.com/okf-tools/okf/okf"
	"github.com/okf-tools/okf/trust"
	"go.yaml.in/yaml/v3"
)

var now = time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)

// copyTree copies a bundle into a temporary folder: the shared corpus is never modified.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// snapshot is what the acceptance test compares: each concept's frontmatter as YAML reads it and
// its body, by path.
type snapshot map[string]struct {
	fm   map[string]any
	body string
}

func snap(t *testing.T, dir string) snapshot {
	t.Helper()
	s := snapshot{}
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") || d.Name() == "index.md" || d.Name() == "log.md" {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		sp := okf.SplitFrontmatter(data)
		var fm map[string]any
		if sp.Status == okf.FrontmatterOK {
			if err := yaml.Unmarshal(sp.YAML, &fm); err != nil {
				fm = map[string]any{"\x00unparseable": string(data)} // compared as the whole text
			}
		}
		s[filepath.ToSlash(rel)] = struct {
			fm   map[string]any
			body string
		}{fm, string(sp.Body)}
		return nil
	})
	return s
}

var (
	citationsHeadRE = regexp.MustCompile(`(?i)^(#{1,6})\s*citations\s*$`)
	headRE          = regexp.MustCompile(`^(#{1,6})\s`)
	bareURLRE       = regexp.MustCompile(`https?://[^\s>)\]]+`)
	citationsRE     = regexp.MustCompile(`(?im)^#{1,6}\s*citations\s*$`)
)

// withoutCitations removes a `# Citations` section from a body line by line (up to the next
// heading of the same or a higher level), independently of the package, and returns the body and
// the URLs the section listed.
func withoutCitations(body string) (string, []string) {
	lines := strings.SplitAfter(body, "\n")
	var out []string
	var urls []string
	level := 0
	for _, l := range lines {
		trim := strings.TrimRight(l, "\r\n")
		if m := citationsHeadRE.FindStringSubmatch(trim); m != nil {
			level = len(m[1])
			continue
		}
		if level > 0 {
			if m := headRE.FindStringSubmatch(trim); m != nil && len(m[1]) <= level {
				level = 0
			} else {
				urls = append(urls, bareURLRE.FindAllString(trim, -1)...)
				continue
			}
		}
		out = append(out, l)
	}
	return strings.Join(out, ""), urls
}

func TestCorpusBundles(t *testing.T) {
	for _, name := range []string{"antigravity", "ml_experiment_trail", "js-ecosystem-refs", "tempguru_event_staffing"} {
		t.Run(name, func(t *testing.T) {
			src := filepath.Join("..", "..", "shared", "corpus", name)
			if _, err := os.Stat(src); err != nil {
				t.Skipf("corpus bundle %s absent: %v", name, err)
			}
			dir := copyTree(t, src)
			before := snap(t, dir)
			b0, err := okf.LoadDir(dir, okf.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			errorsBefore := map[string]bool{}
			for _, d := range lint.Run(b0, lint.Options{Now: now}) {
				if d.Severity == okf.Error {
					errorsBefore[d.Pos.Path+" "+d.Code] = true
				}
			}
			oldTS := map[string]time.Time{}
			for _, c := range b0.Concepts {
				if ts := c.Frontmatter.LegacyTimestamp; ts.Usable() {
					oldTS[c.Path] = ts.Time
				}
			}
			if len(oldTS) == 0 {
				t.Fatal("no v0.1 timestamp in the bundle: the test checks nothing")
			}

			plan := migrate.Run(b0, migrate.Options{Now: now})
			for _, p := range plan.Left {
				t.Errorf("left: %s: %s", p.Pos, p.Message)
			}
			if _, refused, err := migrate.Apply(dir, plan); err != nil || len(refused) > 0 {
				t.Fatalf("apply: %v %v", err, refused)
			}

			// Lint: no legacy finding, no error that was not there before.
			b1, err := okf.LoadDir(dir, okf.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range lint.Run(b1, lint.Options{Now: now}) {
				switch {
				case d.Code == lint.LegacyTimestamp.Code || d.Code == lint.LegacyCitations.Code || d.Code == lint.LegacyBundle.Code:
					t.Errorf("legacy finding after migrate: %s", d)
				case d.Severity == okf.Error && !errorsBefore[d.Pos.Path+" "+d.Code]:
					t.Errorf("new error after migrate: %s", d)
				}
			}

			// Frontmatter: every key and value is still there, or mapped as documented; bodies
			// are unchanged but for the Citations section.
			checkMapped(t, before, snap(t, dir), nil, nil)

			// Trust: each concept's generated time is its old timestamp, and no longer legacy.
			rep := trust.Build(b1, trust.Options{Now: now})
			for _, c := range rep.Concepts {
				want, ok := oldTS[c.Path]
				if !ok {
					continue
				}
				if c.Generated == nil || !c.Generated.At.Equal(want) || c.Generated.By != migrate.Actor {
					t.Errorf("%s: trust generated = %+v, want %s by %s", c.Path, c.Generated, want, migrate.Actor)
				}
			}

			// The root index declares 0.2, and log.md records the migration.
			if v := b1.OKFVersion(); v.Raw != "0.2" {
				t.Errorf("okf_version = %q, want 0.2", v.Raw)
			}
			logText, err := os.ReadFile(filepath.Join(dir, "log.md"))
			if err != nil || !strings.Contains(string(logText), "## 2026-12-01") || !strings.Contains(string(logText), "okf migrate") {
				t.Errorf("log.md has no migration entry: %v\n%s", err, logText)
			}

			// Idempotent: a second run changes no byte.
			again := migrate.Run(b1, migrate.Options{Now: now.Add(48 * time.Hour)})
			if again.Changed() {
				t.Errorf("second run would change:\n%s", again.Diff())
			}
		})
	}
}

// sameInstant compares a v0.1 timestamp with generated.at as YAML decoded them (a time.Time for a
// plain timestamp, a string for a quoted one).
func sameInstant(a, b any) bool {
	ta, ok1 := instant(a)
	tb, ok2 := instant(b)
	return ok1 && ok2 && ta.Equal(tb)
}

func instant(v any) (time.Time, bool) {
	switch x := v.(type) {
	case time.Time:
		return x, true
	case string:
		t, form := okf.ParseTimestamp(x)
		return t, form != okf.Invalid && form != okf.Empty
	}
	return time.Time{}, false
}

// TestProjectFixtures runs the migration over every bundle in ../testdata/bundles (valid, invalid,
// trust, attest, gen): files it cannot migrate safely are listed and untouched, lint reports no
// legacy finding outside them and no new error, and a second run changes nothing.
func TestProjectFixtures(t *testing.T) {
	var dirs []string
	for _, pattern := range []string{"../testdata/bundles/*", "../testdata/bundles/*/*", "../lint/testdata/rules/*/*"} {
		m, _ := filepath.Glob(pattern)
		for _, d := range m {
			if st, err := os.Stat(filepath.Join(d, "index.md")); err == nil && !st.IsDir() || strings.Contains(d, "invalid/") || strings.Contains(d, "/rules/") && isDir(d) {
				dirs = append(dirs, d)
			}
		}
	}
	if len(dirs) < 10 {
		t.Fatalf("found only %d fixture bundles", len(dirs))
	}
	for _, src := range dirs {
		t.Run(filepath.ToSlash(strings.TrimPrefix(strings.TrimPrefix(src, "../testdata/bundles/"), "../lint/testdata/")), func(t *testing.T) {
			dir := copyTree(t, src)
			b0, err := okf.LoadDir(dir, okf.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			errorsBefore := map[string]bool{}
			for _, d := range lint.Run(b0, lint.Options{Now: now}) {
				if d.Severity == okf.Error {
					errorsBefore[d.Pos.Path+" "+d.Code] = true
				}
			}
			plan := migrate.Run(b0, migrate.Options{Now: now})
			left := map[string]bool{}
			for _, p := range plan.Left {
				left[p.Pos.Path] = true
				if len(plan.Changes) > 0 && p.Untouched {
					for _, c := range plan.Changes {
						if c.Path == p.Pos.Path {
							t.Errorf("%s is listed untouched but changed", c.Path)
						}
					}
				}
			}
			before := snap(t, dir)
			untouched := map[string]bool{}
			for _, p := range plan.Left {
				if p.Untouched {
					untouched[p.Pos.Path] = true
				}
			}
			if _, refused, err := migrate.Apply(dir, plan); err != nil || len(refused) > 0 {
				t.Fatalf("apply: %v %v", err, refused)
			}
			checkMapped(t, before, snap(t, dir), untouched, left)
			b1, err := okf.LoadDir(dir, okf.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range lint.Run(b1, lint.Options{Now: now}) {
				switch {
				case (d.Code == lint.LegacyTimestamp.Code || d.Code == lint.LegacyCitations.Code) && !left[d.Pos.Path]:
					t.Errorf("legacy finding after migrate in a migrated file: %s", d)
				case d.Code == lint.LegacyBundle.Code:
					t.Errorf("still a v0.1 bundle: %s", d)
				case d.Severity == okf.Error && !errorsBefore[d.Pos.Path+" "+d.Code]:
					t.Errorf("new error after migrate: %s", d)
				}
			}
			if again := migrate.Run(b1, migrate.Options{Now: now}); again.Changed() {
				t.Errorf("second run would change:\n%s", again.Diff())
			}
		})
	}
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// checkMapped compares two snapshots per the documented mapping: timestamp → generated {by, at}
// (the same instant), a tags string → its list, # Citations → sources with the cited URLs, every
// other key unchanged, no key added but generated and sources, the body unchanged but for the
// Citations section. Files in untouched must not change at all.
func checkMapped(t *testing.T, before, after snapshot, untouched, listed map[string]bool) {
	t.Helper()
	for p, old := range before {
		nw := after[p]
		if untouched[p] {
			if !reflect.DeepEqual(old.fm, nw.fm) || old.body != nw.body {
				t.Errorf("%s: listed as untouched but changed", p)
			}
			continue
		}
		for k, v := range old.fm {
			switch k {
			case "timestamp":
				if _, still := nw.fm["timestamp"]; still {
					if !listed[p] || !reflect.DeepEqual(nw.fm[k], v) {
						t.Errorf("%s: timestamp still there and not listed", p)
					}
					continue
				}
				if _, had := old.fm["generated"]; had {
					continue // removed as redundant; generated itself is compared as any key
				}
				g, _ := nw.fm["generated"].(map[string]any)
				if g == nil || !isProducer(g["by"], old.fm) {
					t.Errorf("%s: generated = %v, want by %s or the file's producer", p, nw.fm["generated"], migrate.Actor)
					continue
				}
				if !sameInstant(v, g["at"]) {
					t.Errorf("%s: generated.at = %v, want the old timestamp %v", p, g["at"], v)
				}
			case "tags":
				if s, ok := v.(string); ok {
					// What the string means, read without okf: a flow list's items, else its
					// comma-separated parts; a string with brackets that is no flow list, or with
					// quotes, is not clear and stays as it was.
					var want any
					ts := strings.TrimSpace(s)
					var items []string
					switch {
					case strings.HasPrefix(ts, "[") && yaml.Unmarshal([]byte(ts), &items) == nil && len(items) > 0:
						var l []any
						for _, it := range items {
							l = append(l, strings.TrimSpace(it))
						}
						want = l
					case strings.ContainsAny(ts, "[]{}\"'"):
						want = s
					default:
						var l []any
						for _, part := range strings.Split(s, ",") {
							if part = strings.TrimSpace(part); part != "" {
								l = append(l, part)
							}
						}
						want = l
					}
					if !reflect.DeepEqual(nw.fm[k], want) {
						t.Errorf("%s: tags = %v, want %v", p, nw.fm[k], want)
					}
					continue
				}
				fallthrough
			default:
				if !reflect.DeepEqual(instants(nw.fm[k]), instants(v)) {
					t.Errorf("%s: %s = %#v, was %#v", p, k, nw.fm[k], v)
				}
			}
		}
		for k := range nw.fm {
			if _, was := old.fm[k]; !was && k != "generated" && k != "sources" {
				t.Errorf("%s: new key %s", p, k)
			}
		}
		// Body: unchanged but for the Citations section, whose URLs are now sources.
		wantBody, urls := withoutCitations(old.body)
		if strings.TrimRight(nw.body, "\r\n") != strings.TrimRight(wantBody, "\r\n") {
			t.Errorf("%s: body changed beyond the Citations section:\n--- want\n%s\n--- got\n%s", p, wantBody, nw.body)
		}
		if _, had := old.fm["sources"]; had {
			continue // sources were there before: compared as any other key
		}
		var resources []string
		srcs, _ := nw.fm["sources"].([]any)
		for _, s := range srcs {
			m, _ := s.(map[string]any)
			r, _ := m["resource"].(string)
			resources = append(resources, r)
		}
		// Every cited URL is a source, in order (a citation without a URL may add one more).
		j := 0
		for _, r := range resources {
			if j < len(urls) && r == urls[j] {
				j++
			}
		}
		if j != len(urls) || len(resources) > 0 && !citationsRE.MatchString(old.body) {
			t.Errorf("%s: sources %v, want the cited %v", p, resources, urls)
		}
	}

}

// isProducer reports whether by is Actor or the value of one of the file's producer keys.
func isProducer(by any, fm map[string]any) bool {
	if by == migrate.Actor {
		return true
	}
	for _, k := range migrate.ProducerKeys {
		if v, ok := fm[k]; ok && v == by {
			return true
		}
	}
	return false
}

// instants returns v with every value that reads as a timestamp (D10) replaced by its instant, so a
// date-only or offset-less value and its migrated datetime compare equal.
func instants(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = instants(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = instants(e)
		}
		return out
	case time.Time:
		return x.UTC()
	case string:
		if t, form := okf.ParseTimestamp(x); form == okf.Full || form == okf.DateOnly || form == okf.NoOffset {
			return t
		}
	}
	return v
}
