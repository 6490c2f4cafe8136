package generate

import (
	"errors"
	"fmt"
	"path"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/okf-tools/okf/internal/suggest"
	"github.com/okf-tools/okf/okf"
	"go.yaml.in/yaml/v3"
)

// ConfigFile is the name of the optional configuration file in the content repository. Its keys
// are the long flag names of `okf gen` (with "_" or "-"); flags given on the command line win.
const ConfigFile = "okf-gen.yaml"

// Config is okf-gen.yaml. Relative paths in it are read from the file's own folder by the caller.
type Config struct {
	Posts             string `yaml:"posts"`
	Site              string `yaml:"site"`
	Out               string `yaml:"out"`
	URL               string `yaml:"url"`
	Engine            string `yaml:"engine"`
	Authors           string `yaml:"authors"`
	MarkdownIsMDX     *bool  `yaml:"md_as_mdx"`
	SkipFuture        *bool  `yaml:"skip_future"`
	MaxFileSize       string `yaml:"max_file_size"`
	Layout            string `yaml:"layout"`
	Actor             string `yaml:"actor"`
	Type              string `yaml:"type"`
	GroupBy           string `yaml:"group_by"`
	All               *bool  `yaml:"all"`
	Strict            *bool  `yaml:"strict"`
	DescriptionLength *int   `yaml:"description_length"`
	// ConceptsFile is `concepts:` written as a path; Concepts is `concepts:` written inline.
	ConceptsFile string        `yaml:"-"`
	Concepts     []ConceptSpec `yaml:"-"`
}

// ConfigKeys are the keys okf-gen.yaml may hold (a "-" may stand for each "_").
func ConfigKeys() []string {
	keys := []string{"concepts"}
	t := reflect.TypeOf(Config{})
	for i := 0; i < t.NumField(); i++ {
		if k := t.Field(i).Tag.Get("yaml"); k != "" && k != "-" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// ParseConfig reads okf-gen.yaml; name is the file as shown in positions. It checks the whole file
// as okf checks a bundle's .okf.yaml: YAML that does not parse, an unknown key, a value of the wrong
// type, an engine or group_by okf does not know are each a problem at its line and column, with a
// "did you mean" when a valid word is close, all of them in one *okf.ConfigError (okf gen exits 2),
// so a typo never silently falls back to a default.
func ParseConfig(name string, src []byte) (*Config, error) {
	var probs []okf.ConfigProblem
	more := 0 // past okf.MaxConfigProblems, counted only (the file is the checkout's)
	add := func(n *yaml.Node, suggestion, format string, a ...any) {
		if len(probs) >= okf.MaxConfigProblems {
			more++
			return
		}
		probs = append(probs, okf.ConfigProblem{Pos: okf.Position{Path: name, Line: int32(n.Line), Col: int32(n.Column)},
			Msg: fmt.Sprintf(format, a...), Suggestion: suggestion})
	}
	fail := func() (*Config, error) {
		sort.SliceStable(probs, func(i, j int) bool { return probs[i].Pos.Less(probs[j].Pos) })
		return nil, &okf.ConfigError{Path: name, Problems: probs, More: more}
	}
	var raw yaml.Node
	if err := yaml.Unmarshal(src, &raw); err != nil {
		msg, line := strings.TrimPrefix(err.Error(), "yaml: "), 0
		if m := yamlLine().FindStringSubmatch(err.Error()); m != nil {
			line, _ = strconv.Atoi(m[1])
			msg = m[2]
		}
		probs = append(probs, okf.ConfigProblem{Pos: okf.Position{Path: name, Line: int32(line)}, Msg: "not valid YAML: " + msg})
		return fail()
	}
	cfg := &Config{}
	if len(raw.Content) == 0 {
		return cfg, nil
	}
	top := raw.Content[0]
	if top.Kind != yaml.MappingNode {
		if top.Kind == yaml.ScalarNode && top.ShortTag() == "!!null" {
			return cfg, nil
		}
		add(top, "", "expected a mapping of option names to values")
		return fail()
	}
	known := ConfigKeys()
	rest := &yaml.Node{Kind: yaml.MappingNode, Line: top.Line, Column: top.Column}
	var written []string // each key of rest as the file spells it
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		name := strings.ReplaceAll(k.Value, "-", "_")
		if !slices.Contains(known, name) {
			if s := suggest.Closest(name, known); s != "" {
				add(k, s, "unknown key %q", k.Value)
			} else {
				add(k, "", "unknown key %q; valid keys: %s", k.Value, strings.Join(known, ", "))
			}
			continue
		}
		if name != "concepts" {
			rest.Content = append(rest.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name, Line: k.Line, Column: k.Column}, v)
			written = append(written, k.Value)
			continue
		}
		switch v.Kind {
		case yaml.ScalarNode:
			cfg.ConceptsFile = v.Value
		case yaml.MappingNode:
			specs, err := conceptSpecs(v)
			if err != nil {
				add(v, "", "concepts: %v", err)
				continue
			}
			cfg.Concepts = specs
		default:
			add(v, "", "concepts: expected a file path or a mapping of concept names to posts")
		}
	}
	// Each value is decoded alone, so a type error names its key and the key's own position.
	for i := 0; i+1 < len(rest.Content); i += 2 {
		k, v := rest.Content[i], rest.Content[i+1]
		one := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{k, v}}
		if err := one.Decode(cfg); err != nil {
			add(v, "", "%s: expected %s", written[i/2], configKind(k.Value))
			continue
		}
		switch k.Value {
		case "engine":
			if _, err := LookupEngine(cfg.Engine); err != nil {
				add(v, suggest.Closest(cfg.Engine, EngineNames()), "%s: %q: expected one of %s", written[i/2], cfg.Engine, strings.Join(EngineNames(), ", "))
			}
		case "group_by":
			if g := cfg.GroupBy; g != GroupByDirectory && g != GroupByType {
				add(v, suggest.Closest(g, []string{GroupByDirectory, GroupByType}), "%s: %q: expected %q or %q", written[i/2], g, GroupByDirectory, GroupByType)
			}
		}
	}
	if len(probs) > 0 {
		return fail()
	}
	return cfg, nil
}

var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })

// configKind says what a key's value must be, for an error message.
func configKind(key string) string {
	t := reflect.TypeOf(Config{})
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Tag.Get("yaml") != key {
			continue
		}
		switch ft := f.Type; {
		case ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Bool:
			return "true or false"
		case ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Int:
			return "a whole number"
		}
	}
	return "a string"
}

// ConceptSpec is one concept to make: its name (the file name in the layout) and its post's slug,
// with optional overrides of the post's type, title, description and tags (the way to make a
// change to what gen owns that lasts).
type ConceptSpec struct {
	Name        string
	Slug        string
	Type        string
	Title       string
	Description string
	// Tags replaces the post's tags when HasTags is true (an empty list removes them).
	Tags    []string
	HasTags bool
}

// ParseConceptMap reads a concept map (--concepts): a mapping of concept names to post slugs,
//
//	ownership: rust-ownership
//	lifetimes: { post: rust-lifetimes, type: Guide, title: Lifetimes, description: …, tags: [rust] }
//
// optionally nested under a top-level `concepts:` key. The result is sorted by name.
func ParseConceptMap(src []byte) ([]ConceptSpec, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, fmt.Errorf("not valid YAML: %v", err)
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	top := doc.Content[0]
	if top.Kind == yaml.MappingNode && len(top.Content) == 2 && top.Content[0].Value == "concepts" && top.Content[1].Kind == yaml.MappingNode {
		top = top.Content[1]
	}
	return conceptSpecs(top)
}

func conceptSpecs(m *yaml.Node) ([]ConceptSpec, error) {
	if m.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: expected a mapping of concept names to post slugs", m.Line)
	}
	var specs []ConceptSpec
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		s := ConceptSpec{Name: strings.TrimSpace(k.Value)}
		if err := checkName(s.Name); err != nil {
			return nil, fmt.Errorf("line %d: concept %q: %v", k.Line, k.Value, err)
		}
		if seen[s.Name] {
			return nil, fmt.Errorf("line %d: concept %q is named twice", k.Line, s.Name)
		}
		seen[s.Name] = true
		switch v.Kind {
		case yaml.ScalarNode:
			s.Slug = strings.TrimSpace(v.Value)
		case yaml.MappingNode:
			for j := 0; j+1 < len(v.Content); j += 2 {
				kk, vv := v.Content[j], v.Content[j+1]
				switch kk.Value {
				case "post", "slug":
					s.Slug = strings.TrimSpace(vv.Value)
				case "type":
					s.Type = strings.TrimSpace(vv.Value)
				case "title":
					s.Title = strings.TrimSpace(vv.Value)
				case "description":
					s.Description = strings.TrimSpace(vv.Value)
				case "tags":
					s.Tags, s.HasTags = tagsOf(vv), true
				default:
					return nil, fmt.Errorf("line %d: concept %q: unknown key %q, expected post, type, title, description or tags", kk.Line, s.Name, kk.Value)
				}
			}
		default:
			return nil, fmt.Errorf("line %d: concept %q: expected a post slug or a mapping with post, type, title, description, tags", v.Line, s.Name)
		}
		if s.Slug == "" {
			s.Slug = s.Name
		}
		specs = append(specs, s)
	}
	sort.Slice(specs, func(i, j int) bool { return specs[i].Name < specs[j].Name })
	return specs, nil
}

// checkName refuses concept names that would not make a plain concept file inside the bundle.
func checkName(name string) error {
	switch {
	case name == "":
		return errors.New("empty name")
	case strings.ContainsAny(name, "\\\x00") || strings.HasPrefix(name, "/"):
		return errors.New("expected a relative slash path without backslashes")
	}
	for _, part := range strings.Split(name, "/") {
		if part == "" || part == "." || part == ".." || strings.HasPrefix(part, ".") {
			return errors.New("expected path parts that are not empty, '.', '..' or hidden")
		}
	}
	return nil
}

// DefaultLayout places concepts under concepts/.
const DefaultLayout = "concepts/{name}.md"

// ConceptPath expands a layout ({name}, {slug}) into the concept's slash path in the bundle, and
// refuses a result that leaves the bundle, is hidden, is not a .md file or is a reserved file
// (§3.1: index.md, log.md).
func ConceptPath(layout, name, slug string) (string, error) {
	p := strings.NewReplacer("{name}", name, "{slug}", slug).Replace(layout)
	if !strings.HasSuffix(p, ".md") {
		return "", fmt.Errorf("layout %q gives %q: expected a path ending in .md", layout, p)
	}
	clean := path.Clean(p)
	if clean != p || checkName(clean) != nil {
		return "", fmt.Errorf("layout %q gives %q: expected a clean relative path inside the bundle", layout, p)
	}
	if b := path.Base(clean); b == "index.md" || b == "log.md" {
		return "", fmt.Errorf("layout %q gives %q: index.md and log.md are reserved (§3.1)", layout, p)
	}
	return clean, nil
}
