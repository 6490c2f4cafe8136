package lint

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/okf"
)

// BaselineVersion is the format version written in baseline files.
const BaselineVersion = 1

// Baseline is a set of accepted findings, so a team can adopt okf lint on a legacy bundle and fail
// only on new findings. Entries are keyed by path, code and a hash of the message, never by line or
// column: an edit elsewhere in a file moves findings without making them new.
type Baseline struct {
	Version  int             `json:"version"`
	Findings []BaselineEntry `json:"findings"`
}

// BaselineEntry is one accepted finding (Count of them, for identical findings in one file).
type BaselineEntry struct {
	Path  string `json:"path"`
	Code  string `json:"code"`
	Hash  string `json:"hash"`
	Count int    `json:"count,omitempty"`
	// Message is kept for people reading the file; matching uses Hash.
	Message string `json:"message"`
}

type baselineKey struct{ path, code, hash string }

func messageHash(msg string) string {
	sum := sha256.Sum256([]byte(msg))
	return hex.EncodeToString(sum[:8])
}

// NewBaseline records findings (with bundle-relative paths) as a baseline, sorted so that the file
// is stable under version control.
func NewBaseline(ds []okf.Diagnostic) *Baseline {
	counts := map[baselineKey]*BaselineEntry{}
	for _, d := range ds {
		k := baselineKey{d.Pos.Path, d.Code, messageHash(d.Message)}
		if e, ok := counts[k]; ok {
			e.Count++
			continue
		}
		counts[k] = &BaselineEntry{Path: k.path, Code: k.code, Hash: k.hash, Count: 1, Message: d.Message}
	}
	b := &Baseline{Version: BaselineVersion, Findings: []BaselineEntry{}}
	for _, e := range counts {
		b.Findings = append(b.Findings, *e)
	}
	sort.Slice(b.Findings, func(i, j int) bool {
		x, y := b.Findings[i], b.Findings[j]
		if x.Path != y.Path {
			return x.Path < y.Path
		}
		if x.Code != y.Code {
			return x.Code < y.Code
		}
		return x.Hash < y.Hash
	})
	return b
}

// Marshal renders the baseline as indented JSON ending in a newline. Its paths come from the
// bundle, so it is escaped as all JSON okf writes (escape.JSONLog): a baseline printed or
// diffed in a CI log carries no workflow command.
func (b *Baseline) Marshal() []byte {
	out, _ := json.MarshalIndent(b, "", "  ")
	return append(escape.JSONLog(out), '\n')
}

// ParseBaseline reads a baseline file written by NewBaseline.
func ParseBaseline(data []byte) (*Baseline, error) {
	var b Baseline
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("not a baseline file: %v", err)
	}
	if b.Version != BaselineVersion {
		return nil, fmt.Errorf("baseline version %d is not supported (want %d)", b.Version, BaselineVersion)
	}
	return &b, nil
}

// Filter returns the findings the baseline does not account for. Each entry absorbs at most Count
// matching findings, so a second copy of an accepted problem in the same file is still new.
func (b *Baseline) Filter(ds []okf.Diagnostic) []okf.Diagnostic {
	if b == nil {
		return ds
	}
	left := map[baselineKey]int{}
	for _, e := range b.Findings {
		n := e.Count
		if n <= 0 {
			n = 1
		}
		left[baselineKey{e.Path, e.Code, e.Hash}] += n
	}
	var out []okf.Diagnostic
	for _, d := range ds {
		k := baselineKey{d.Pos.Path, d.Code, messageHash(d.Message)}
		if left[k] > 0 {
			left[k]--
			continue
		}
		out = append(out, d)
	}
	return out
}

// DefaultBaseline is where WriteBaseline writes when no file is named: a hidden file at the bundle
// root, so it is never taken for a concept (D5).
const DefaultBaseline = ".okf-baseline.json"

// WriteBaseline records ds as the baseline of the bundle at root, in file (DefaultBaseline at the
// root when file is ""). A file in the bundle is written the one way okf edits a bundle
// (okf.ApplyChanges, under the bundle's lock): only if it still holds what was read, never through a
// link, atomically. A file the user names outside the bundle is written as a report is
// (okf.WriteFileAtomic: never through a link that leaves its checkout). It returns the path written.
func WriteBaseline(root, file string, ds []okf.Diagnostic) (string, error) {
	data := NewBaseline(ds).Marshal()
	if file == "" {
		file = filepath.Join(root, DefaultBaseline)
	}
	ar, err1 := filepath.Abs(root)
	af, err2 := filepath.Abs(file)
	rel, inside := okf.RelInside(ar, af)
	if err1 != nil || err2 != nil || !inside || rel == "" {
		if err := okf.WriteFileAtomic(file, data, 0o644); err != nil {
			return file, err
		}
		return file, nil
	}
	unlock, err := okf.LockBundle(root, "okf lint --write-baseline")
	if err != nil {
		return file, err
	}
	defer unlock()
	r, err := okf.OpenFileSystem(root, okf.MaxConfigFileSize)
	if err != nil {
		return file, err
	}
	old, err := okf.ReadForChange(r, rel)
	r.Close()
	if err != nil {
		return file, err
	}
	_, refused, err := okf.ApplyChanges(root, []okf.FileChange{{Path: rel, Old: old, New: data}})
	if err != nil {
		return file, err
	}
	if len(refused) > 0 {
		return file, fmt.Errorf("%s %s", filepath.ToSlash(file), refused[0].Why)
	}
	return file, nil
}
