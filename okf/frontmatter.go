package okf

import (
	"bytes"
	"fmt"
	"io/fs"
	"strconv"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/okf/internal/fastyaml"
	"go.yaml.in/yaml/v3"
)

// Frontmatter is a concept's YAML block: every family of the spec read into typed values with
// positions, plus the YAML text itself. The yaml.Node (with comments, key order and unknown keys) is
// the source of truth and is re-read on demand by Node, so that a loaded bundle does not keep tens of
// thousands of nodes alive; the typed values below are copies taken from it at load time.
//
// The keys few concepts write (stale_after, usage_window, the Attested Computation contract,
// okf_version) are read through methods (f.StaleAfter()) rather than fields, so that a concept
// writing none of them does not pay for them. A zero Frontmatter, or one built by hand, is safe to
// read through every field and method: what it does not hold reads as absent.
type Frontmatter struct {
	// Present is false when the file has no frontmatter block or it could not be read.
	Present bool
	path    string
	raw     []byte // the YAML text when parsed outside a bundle (ParseConcept); nil in a bundle
	fsys    fs.FS  // where to re-read the file from, for a bundle's concepts
	line    int    // file line of the first YAML line
	merges  bool   // the YAML text holds "<<", which a merge key needs (MayMerge)

	// Keys lists the top-level keys in the order written, with each value's shape and position.
	Keys []Key

	Type, Title, Description, Resource Value
	// Tags is the `tags` list (§4.1); Items holds its scalar entries.
	Tags List
	// Sources is the `sources` list (§5.1).
	Sources Sources
	// Generated is `generated: {by, at}` (§5.2), nil when absent.
	Generated *Stamp
	// Verified is `verified` (§5.2): a bare mapping is read as a one-element list.
	Verified Verified
	// Status is `status` as written (§5.4); see StatusOf for its reading.
	Status Value
	// LegacyTimestamp is the v0.1 `timestamp` key, superseded by generated.at (§13.1).
	LegacyTimestamp Timestamp

	// uncommon holds the keys few concepts write, read through the methods UsageWindow,
	// StaleAfter, Runtime, Parameters, Computation, Executor, Attester and OKFVersion. Every
	// concept writing none of them shares one, so each of those concepts costs 400 bytes less: a
	// third of the typed frontmatter of a 10,000-concept bundle (2 MiB of the 34 MiB a
	// 5,678-concept docs bundle keeps). Nil in a Frontmatter built by hand: the methods read it as
	// absent.
	uncommon *uncommon
}

// uncommon holds the rarely written keys of a Frontmatter, documented on its methods. The one
// shared by concepts that write none of them (noUncommon) is never written to: readFrontmatter
// builds a new one when any is present.
type uncommon struct {
	UsageWindow *Window
	StaleAfter  Timestamp
	Runtime     Value
	Parameters  Parameters
	Computation Value
	Executor    *Executor
	Attester    *Attester
	OKFVersion  Value
}

// rare returns f's uncommon part, the empty one when f was built without it (a zero Frontmatter).
func (f *Frontmatter) rare() *uncommon {
	if f == nil || f.uncommon == nil {
		return noUncommon
	}
	return f.uncommon
}

// The keys few concepts write are methods, not fields, so that the concepts writing none of them
// share one empty part (see Frontmatter). Each is safe on a zero Frontmatter: a key not written
// reads as absent (a zero Value, a nil pointer).

// UsageWindow is the shared `usage_window: {from, to}` sibling of `sources` (§5.1), nil when
// absent; a source's own UsageWindow overrides it.
func (f *Frontmatter) UsageWindow() *Window { return f.rare().UsageWindow }

// StaleAfter is `stale_after` (§5.5): the instant after which the concept is stale.
func (f *Frontmatter) StaleAfter() Timestamp { return f.rare().StaleAfter }

// Runtime is the `runtime` of an Attested Computation's contract (§10.2).
func (f *Frontmatter) Runtime() Value { return f.rare().Runtime }

// Parameters is the `parameters` list of an Attested Computation's contract (§10.2).
func (f *Frontmatter) Parameters() Parameters { return f.rare().Parameters }

// Computation is the `computation` key of an Attested Computation (§10.3): the path of the file
// that holds the computation, when it is not a code block under `# Computation`.
func (f *Frontmatter) Computation() Value { return f.rare().Computation }

// Executor is `executor: {resource, receipt}` of an Attested Computation (§10.2), nil when absent.
func (f *Frontmatter) Executor() *Executor { return f.rare().Executor }

// Attester is `attester: {resource}` of an Attested Computation (§10.2), nil when absent.
func (f *Frontmatter) Attester() *Attester { return f.rare().Attester }

// OKFVersion is `okf_version`, meaningful in the bundle-root index.md only (§12).
func (f *Frontmatter) OKFVersion() Value { return f.rare().OKFVersion }

// noUncommon is the uncommon part of a frontmatter that writes none of its keys (and of one that
// could not be read).
var noUncommon = &uncommon{}

// uncommonKeys are the top-level keys read into uncommon.
var uncommonKeys = [...]string{"usage_window", "stale_after", "runtime", "parameters", "computation", "executor", "attester", "okf_version"}

// Key is one top-level frontmatter key: its name, where the key is written, and its value.
type Key struct {
	Name  string   `json:"name"`
	Pos   Position `json:"position"`
	Value Value    `json:"value"`
}

// List is a YAML list with its scalar items.
type List struct {
	Value
	Items []Value
}

// Stamp is an actor and an instant: `generated` or one `verified` entry.
type Stamp struct {
	Value // the mapping itself
	By    Value
	At    Timestamp
}

// VerifiedShape says how `verified` was written.
type VerifiedShape int

// The shapes of `verified` (§5.2, D12).
const (
	VerifiedAbsent  VerifiedShape = iota
	VerifiedMapping               // a bare {by, at}: one entry
	VerifiedList                  // a list of mappings
	VerifiedInvalid               // anything else ("yes", a list with non-mapping items): unverified
)

// Verified is the `verified` family. Entries is empty for VerifiedAbsent and VerifiedInvalid.
type Verified struct {
	Value
	Shape   VerifiedShape
	Entries []Stamp
	// Items are the entries as written, one per list item (a bare mapping is one), whatever the
	// shape: a list with one malformed item still has its other entries checked. An item that is
	// not a mapping has only its Value set. Items is Entries unless the shape is VerifiedInvalid;
	// only Entries count toward the trust tier (D12).
	Items []Stamp
}

// Window is a `usage_window: {from, to}`.
type Window struct {
	Value
	From, To Timestamp
}

// Source is one `sources` entry (§5.1).
type Source struct {
	Value                       // the entry itself (a mapping when well formed)
	ID, Resource, Title, Author Value
	UsageCount                  Value
	LastModified                Timestamp
	// UsageWindow overrides the shared window for this entry.
	UsageWindow *Window
}

// Sources is the `sources` list.
type Sources struct {
	Value
	Items []Source
}

// Parameter is one `parameters` entry of an Attested Computation (§10.2).
type Parameter struct {
	Value
	Name, Type, Required Value
}

// Parameters is the `parameters` list.
type Parameters struct {
	Value
	Items []Parameter
}

// Executor is `executor: {resource, receipt}` (§10.2).
type Executor struct {
	Value
	Resource Value
	// Receipt lists the fields a run must return.
	Receipt List
}

// Attester is `attester: {resource}` (§10.2).
type Attester struct {
	Value
	Resource Value
}

// KeyPos returns where the top-level key name is written, or the first line of the block when
// it is not: the place to report a missing or misplaced key.
func (f *Frontmatter) KeyPos(name string) Position {
	if k, ok := f.Key(name); ok {
		return k.Pos
	}
	return Position{Path: f.path, Line: 1, Col: 1}
}

// Key returns the top-level key named name, if written.
func (f *Frontmatter) Key(name string) (Key, bool) {
	for _, k := range f.Keys {
		if k.Name == name {
			return k, true
		}
	}
	return Key{}, false
}

// Raw returns the YAML text between the delimiters. A bundle's concepts do not keep it in memory:
// it is read again from the bundle's file system.
func (f *Frontmatter) Raw() ([]byte, error) {
	if !f.Present {
		return nil, fmt.Errorf("%s: no frontmatter", f.path)
	}
	if f.raw != nil || f.fsys == nil {
		return f.raw, nil
	}
	src, err := fs.ReadFile(f.fsys, f.path)
	if err != nil {
		return nil, err
	}
	sp := SplitFrontmatter(src)
	if sp.Status != FrontmatterOK {
		return nil, fmt.Errorf("%s: frontmatter changed since the bundle was loaded", f.path)
	}
	return sp.YAML, nil
}

// MayMerge reports whether the YAML text holds "<<", which a merge key needs. When false, the
// typed fields hold exactly what the YAML's own mappings say; when true, they may also hold keys a
// merge brought in (D3), which a plain reading of the node tree (schemas.ValueOf) does not see.
func (f *Frontmatter) MayMerge() bool { return f.merges }

// Line returns the file line on which the YAML text starts.
func (f *Frontmatter) Line() int { return f.line }

// Node re-reads the frontmatter into a yaml.Node (the document's top mapping) whose lines are file
// lines. This is the source of truth for rewriting a file: key order, comments and unknown keys.
func (f *Frontmatter) Node() (*yaml.Node, error) {
	raw, err := f.Raw()
	if err != nil {
		return nil, err
	}
	m, err := decodeYAML(raw, f.line, nil)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// yamlError is an unparseable frontmatter block, with the file line the YAML parser named.
type yamlError struct {
	Line int
	Msg  string
}

func (e *yamlError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

var yamlLineRE = &lazyRegexp{expr: `^yaml: (?:line (\d+): )?(.*)$`}

// yamlParserProblems are the messages of yaml.v3's parser stage (parserc.go). yaml.v3 reports a
// parser error's line 0-based but a scanner error's 1-based (decode.go, parser.fail), so the
// former need one added.
var yamlParserProblems = []string{
	"did not find expected <document start>",
	"did not find expected node content",
	"did not find expected key",
	"did not find expected '-' indicator",
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found undefined tag handle",
}

// yamlErrorLine reads the line number out of a yaml.v3 error message, the one place that does.
// It returns a 1-based line within the text that was parsed and the message without its prefix.
// yaml.v3 omits the line when its mark is on the first line (for both stages), so none means 1.
func yamlErrorLine(err error) (line int, msg string) {
	s := err.Error()
	m := yamlLineRE.get().FindStringSubmatch(s)
	if m == nil {
		return 1, s
	}
	msg = m[2]
	if m[1] == "" {
		return 1, msg
	}
	line, _ = strconv.Atoi(m[1])
	for _, p := range yamlParserProblems {
		if msg == p {
			line++
			break
		}
	}
	return line, msg
}

// decodeYAML parses a frontmatter block, shifts every node to file lines, and checks what yaml.v3
// lets through into a Node but D3 calls unparseable: duplicate keys and a top level that is not a
// mapping. An empty block yields an empty mapping. With a scratch, the tree lives in its memory
// until the next call with it (see fastyaml.Unmarshal).
func decodeYAML(raw []byte, firstLine int, s *fastyaml.Scratch) (*yaml.Node, error) {
	var doc yaml.Node
	if err := fastyaml.Unmarshal(raw, &doc, s); err != nil {
		line, msg := yamlErrorLine(err)
		// An error found at the end of the text (an unclosed bracket or quote) is reported on
		// the last line of the block, not on the closing delimiter after it.
		if last := bytes.Count(bytes.TrimRight(raw, "\r\n"), []byte{'\n'}) + 1; line > last {
			line = last
		}
		return nil, &yamlError{Line: line + firstLine - 1, Msg: msg}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: firstLine, Column: 1}, nil
	}
	shiftLines(&doc, firstLine-1)
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		if top.ShortTag() == "!!null" && len(bytes.TrimSpace(stripComments(raw))) == 0 {
			return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: firstLine, Column: 1, HeadComment: top.HeadComment}, nil
		}
		return nil, &yamlError{Line: top.Line, Msg: fmt.Sprintf("frontmatter must be a mapping of keys to values, found %s", valueOf("", top).Describe())}
	}
	// Keep head comments written above the first key with the mapping (yaml.v3 puts them on doc).
	if doc.HeadComment != "" && top.HeadComment == "" {
		top.HeadComment = doc.HeadComment
	}
	if err := checkDuplicates(top); err != nil {
		return nil, err
	}
	if err := CheckYAMLAliases(top); err != nil {
		ae := err.(*AliasError)
		return nil, &yamlError{Line: ae.Line, Msg: ae.Msg}
	}
	return top, nil
}

func stripComments(raw []byte) []byte {
	var out []byte
	for _, l := range bytes.Split(raw, []byte{'\n'}) {
		t := bytes.TrimSpace(l)
		if len(t) > 0 && t[0] != '#' {
			out = append(out, t...)
		}
	}
	return out
}

func shiftLines(n *yaml.Node, by int) {
	n.Line += by
	for _, c := range n.Content {
		shiftLines(c, by)
	}
}

// checkDuplicates reports the first key written twice in any mapping (D3: unparseable). Bound:
// linear in the keys. Mappings are usually small, and up to 16 keys are compared pairwise (at most
// 120 comparisons, no allocation); a larger mapping goes through a map (40,000 keys: 40,000
// look-ups, where pairwise took 800 million comparisons).
func checkDuplicates(n *yaml.Node) error {
	if n.Kind == yaml.MappingNode && len(n.Content) > 32 {
		seen := make(map[string]*yaml.Node, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				continue
			}
			if prev, ok := seen[k.Value]; ok {
				return &yamlError{Line: k.Line, Msg: fmt.Sprintf("key %s written twice (first on line %d)", escape.Quote(k.Value), prev.Line)}
			}
			seen[k.Value] = k
		}
	} else if n.Kind == yaml.MappingNode {
		for i := 2; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				continue
			}
			for j := 0; j < i; j += 2 {
				if prev := n.Content[j]; prev.Kind == yaml.ScalarNode && prev.Value == k.Value {
					return &yamlError{Line: k.Line, Msg: fmt.Sprintf("key %s written twice (first on line %d)", escape.Quote(k.Value), prev.Line)}
				}
			}
		}
	}
	for _, c := range n.Content {
		if err := checkDuplicates(c); err != nil {
			return err
		}
	}
	return nil
}

// readFrontmatter extracts every family from the top mapping m, read from the YAML text yamlText.
// With reuse (a dropped concept's, see scratch.spare) it fills that Frontmatter and its Keys'
// storage instead of allocating them: together the largest allocation of a parse.
func readFrontmatter(path string, raw, yamlText []byte, line int, m *yaml.Node, reuse *Frontmatter) *Frontmatter {
	f := reuse
	var keys []Key
	written := 0 // how much of keys' storage an earlier file wrote
	if f == nil {
		f = &Frontmatter{}
	} else {
		keys, written = f.Keys[:0], len(f.Keys)
	}
	if n := len(m.Content) / 2; cap(keys) < n {
		keys = make([]Key, 0, n)
	}
	*f = Frontmatter{Present: true, path: path, raw: raw, line: line, merges: bytes.Contains(yamlText, []byte("<<")), Keys: keys}
	merges := false
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if isMergeKey(k) {
			merges = true
			continue
		}
		f.Keys = append(f.Keys, Key{Name: k.Value, Pos: Position{Path: path, Line: clamp32(k.Line), Col: clamp32(k.Column)}, Value: valueOf(path, m.Content[i+1])})
	}
	if merges {
		// The keys a `<<` brings in are the concept's keys too (D3), at the place they are written.
		eachMerged(m, func(k, v *yaml.Node) bool {
			f.Keys = append(f.Keys, Key{Name: k.Value, Pos: Position{Path: path, Line: clamp32(k.Line), Col: clamp32(k.Column)}, Value: valueOf(path, v)})
			return false
		})
	}
	f.Type = field(path, m, "type")
	f.Title = field(path, m, "title")
	f.Description = field(path, m, "description")
	f.Resource = field(path, m, "resource")
	f.Tags = listOf(path, m, "tags")
	f.Sources = sourcesOf(path, m)
	if k, v := lookup(m, "generated"); k != nil {
		s := stampOf(path, k, v)
		f.Generated = &s
	}
	f.Verified = verifiedOf(path, m)
	f.Status = field(path, m, "status")
	f.LegacyTimestamp = timestampOf(field(path, m, "timestamp"))
	f.uncommon = noUncommon
	for _, key := range uncommonKeys {
		if k, _ := lookup(m, key); k != nil {
			f.uncommon = uncommonOf(path, m)
			break
		}
	}
	if n := len(f.Keys); n < written && written <= cap(f.Keys) {
		clear(f.Keys[n:written]) // an earlier file's keys: no string of it kept alive
	}
	return f
}

// uncommonOf reads the rarely written keys from the top mapping m.
func uncommonOf(path string, m *yaml.Node) *uncommon {
	u := &uncommon{}
	u.UsageWindow = windowOf(path, m)
	u.StaleAfter = timestampOf(field(path, m, "stale_after"))
	u.Runtime = field(path, m, "runtime")
	u.Parameters = parametersOf(path, m)
	u.Computation = field(path, m, "computation")
	if k, v := lookup(m, "executor"); k != nil {
		e := &Executor{Value: valueOf(path, v)}
		e.Resource = field(path, v, "resource")
		e.Receipt = listOf(path, v, "receipt")
		u.Executor = e
	}
	if k, v := lookup(m, "attester"); k != nil {
		u.Attester = &Attester{Value: valueOf(path, v), Resource: field(path, v, "resource")}
	}
	u.OKFVersion = field(path, m, "okf_version")
	return u
}

func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func listOf(path string, m *yaml.Node, key string) List {
	k, v := lookup(m, key)
	if k == nil {
		return List{}
	}
	l := List{Value: valueOf(path, v)}
	if v = deref(v); v.Kind == yaml.SequenceNode {
		l.Items = make([]Value, len(v.Content))
		for i, c := range v.Content {
			l.Items[i] = valueOf(path, c)
		}
	}
	return l
}

func stampOf(path string, k, v *yaml.Node) Stamp {
	v = deref(v)
	return Stamp{Value: valueOf(path, v), By: field(path, v, "by"), At: timestampOf(field(path, v, "at"))}
}

func verifiedOf(path string, m *yaml.Node) Verified {
	k, v := lookup(m, "verified")
	if k == nil {
		return Verified{}
	}
	v = deref(v)
	out := Verified{Value: valueOf(path, v), Shape: VerifiedInvalid}
	switch v.Kind {
	case yaml.MappingNode:
		out.Shape = VerifiedMapping
		out.Entries = []Stamp{stampOf(path, nil, v)}
		out.Items = out.Entries
	case yaml.SequenceNode:
		items := make([]Stamp, 0, len(v.Content))
		valid := true
		for _, c := range v.Content {
			if c = deref(c); c.Kind != yaml.MappingNode {
				valid = false
				items = append(items, Stamp{Value: valueOf(path, c)})
				continue
			}
			items = append(items, stampOf(path, nil, c))
		}
		out.Items = items
		if valid {
			out.Shape = VerifiedList
			out.Entries = items
		}
	}
	return out
}

func windowOf(path string, m *yaml.Node) *Window {
	k, v := lookup(m, "usage_window")
	if k == nil {
		return nil
	}
	v = deref(v)
	return &Window{Value: valueOf(path, v), From: timestampOf(field(path, v, "from")), To: timestampOf(field(path, v, "to"))}
}

func sourcesOf(path string, m *yaml.Node) Sources {
	k, v := lookup(m, "sources")
	if k == nil {
		return Sources{}
	}
	v = deref(v)
	out := Sources{Value: valueOf(path, v)}
	if v.Kind != yaml.SequenceNode {
		return out
	}
	out.Items = make([]Source, len(v.Content))
	for i, c := range v.Content {
		c = deref(c)
		s := Source{Value: valueOf(path, c)}
		s.ID = field(path, c, "id")
		s.Resource = field(path, c, "resource")
		s.Title = field(path, c, "title")
		s.Author = field(path, c, "author")
		s.UsageCount = field(path, c, "usage_count")
		s.LastModified = timestampOf(field(path, c, "last_modified"))
		s.UsageWindow = windowOf(path, c)
		out.Items[i] = s
	}
	return out
}

func parametersOf(path string, m *yaml.Node) Parameters {
	k, v := lookup(m, "parameters")
	if k == nil {
		return Parameters{}
	}
	v = deref(v)
	out := Parameters{Value: valueOf(path, v)}
	if v.Kind != yaml.SequenceNode {
		return out
	}
	out.Items = make([]Parameter, len(v.Content))
	for i, c := range v.Content {
		c = deref(c)
		out.Items[i] = Parameter{Value: valueOf(path, c), Name: field(path, c, "name"), Type: field(path, c, "type"), Required: field(path, c, "required")}
	}
	return out
}
