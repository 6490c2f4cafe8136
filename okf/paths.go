package okf

import (
	"bytes"
	"path"
	"strings"
)

// RefKind says what a path-valued field or a link target names.
type RefKind int

// The kinds of reference (§6, D14, D15).
const (
	// RefEmpty: nothing written.
	RefEmpty RefKind = iota
	// RefExternal: an absolute URL (any scheme: https:, mailto:, …). Never checked.
	RefExternal
	// RefFragment: a link to a place in the same document ("#x"). Never checked.
	RefFragment
	// RefLocal: a path inside (or trying to leave) the bundle.
	RefLocal
)

// Resolution is where a path or link leads inside the bundle.
type Resolution struct {
	Kind RefKind
	// Target is the cleaned slash path from the bundle root ("" is the root itself).
	Target string
	// Exists is true when Target is a file or folder of the bundle; IsDir when a folder.
	Exists, IsDir bool
	// RootOnly is true when a bare relative path did not resolve from the concept's directory but
	// did from the bundle root: it works, but "/path" says so explicitly (D14, info).
	RootOnly bool
	// Escapes is true when the path tries to leave the bundle root: it is never opened (D14).
	Escapes bool
}

// FileSet answers whether a slash path (from the bundle root) exists, and whether it is a folder.
type FileSet interface {
	Stat(p string) (exists, isDir bool)
}

// IsURL reports whether s is an absolute URL (has a scheme: a letter, then letters, digits, "+",
// "-" or ".", then ":"). A one-letter scheme is taken for a Windows drive and is not a URL. It scans
// by hand rather than with a regexp: lint resolves every link of a bundle several times.
func IsURL(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case c == ':':
			return i > 1
		default:
			return false
		}
	}
	return false
}

// joinInside joins rel onto dir (both slash paths from the root) and reports whether the result
// would climb above the root. path.Clean alone would hide "/../x" as "/x".
//
// Links are resolved by the thousand, and nearly all are clean, or clean after leading "../"
// ("b.md", "sub/c.md", "../s029/p.md" from "dir"): those are joined with at most one allocation;
// any other is handed to joinInsideSegments.
func joinInside(dir, rel string) (string, bool) {
	if !strings.HasPrefix(rel, "/") && dir != "" && dir != "." {
		if cleanSegments(dir) {
			// Leading "../" climb out of dir and "./" stay; the rest, when clean, is appended.
			prefix, rest := dir, rel
			for {
				if r, ok := strings.CutPrefix(rest, "../"); ok {
					if prefix == "" {
						return "", true
					}
					prefix, rest = prefix[:max(strings.LastIndexByte(prefix, '/'), 0)], r
				} else if r, ok := strings.CutPrefix(rest, "./"); ok {
					rest = r
				} else {
					break
				}
			}
			if cleanSegments(rest) {
				switch {
				case prefix == "":
					return rest, false
				case rest == "":
					return prefix, false
				}
				return prefix + "/" + rest, false
			}
		}
	} else if r := strings.TrimPrefix(rel, "/"); cleanSegments(r) {
		return r, false
	}
	return joinInsideSegments(dir, rel)
}

// cleanSegments reports whether s is empty or a "/"-separated list of segments none of which is
// empty, "." or "..".
func cleanSegments(s string) bool {
	if s == "" {
		return true
	}
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != '/' {
			continue
		}
		switch s[start:i] {
		case "", ".", "..":
			return false
		}
		start = i + 1
	}
	return true
}

// joinInsideSegments is joinInside for any dir and rel ("../b.md" from "docs/x"), one segment at a
// time, into one buffer: dir's segments are taken as written, rel's "", "." and ".." are read.
func joinInsideSegments(dir, rel string) (string, bool) {
	var arr [256]byte
	buf, n := arr[:0], 0 // the path so far and its number of segments
	push := func(seg string) {
		if n > 0 {
			buf = append(buf, '/')
		}
		buf = append(buf, seg...)
		n++
	}
	if !strings.HasPrefix(rel, "/") && dir != "" && dir != "." {
		for seg := range strings.SplitSeq(dir, "/") {
			push(seg)
		}
	}
	for seg := range strings.SplitSeq(rel, "/") {
		switch seg {
		case "", ".":
		case "..":
			if n == 0 {
				return "", true
			}
			n--
			if i := bytes.LastIndexByte(buf, '/'); n > 0 && i >= 0 {
				buf = buf[:i]
			} else {
				buf = buf[:0]
			}
		default:
			push(seg)
		}
	}
	return string(buf), false
}

// ResolvePath resolves a path-valued field (§6.2, D14) written in the file at from (a slash path from
// the root). An absolute URL is external; "/x" is from the bundle root; a bare relative path is
// tried from the concept's own directory first, then from the root (RootOnly). A path that tries to
// leave the root sets Escapes and never Exists.
func ResolvePath(files FileSet, from, value string) Resolution {
	v := strings.TrimSpace(value)
	if v == "" {
		return Resolution{Kind: RefEmpty}
	}
	if IsURL(v) {
		return Resolution{Kind: RefExternal, Target: v}
	}
	dir := path.Dir(from)
	r := Resolution{Kind: RefLocal}
	target, escapes := joinInside(dir, v)
	if escapes {
		r.Escapes = true
		return r
	}
	r.Target = target
	r.Exists, r.IsDir = files.Stat(target)
	if r.Exists || strings.HasPrefix(v, "/") {
		return r
	}
	if rootTarget, esc := joinInside("", v); !esc {
		if ok, isDir := files.Stat(rootTarget); ok {
			return Resolution{Kind: RefLocal, Target: rootTarget, Exists: true, IsDir: isDir, RootOnly: true}
		}
	}
	return r
}

// ResolveLink resolves a Markdown link target (§6.1, D15) written in the file at from, as written
// in the file. Backslash escapes and character references are decoded first (CommonMark: the
// destination a renderer links to), then fragments and queries are stripped and percent-escapes
// decoded (SplitLinkDestination); "/x" is from the root and any other local target from the file's
// own directory, as Markdown renderers read it.
func ResolveLink(files FileSet, from, target string) Resolution {
	t := DecodeLinkDestination(strings.Trim(target, asciiSpace))
	if t == "" {
		return Resolution{Kind: RefEmpty}
	}
	if IsURL(t) || strings.HasPrefix(t, "//") {
		return Resolution{Kind: RefExternal, Target: t}
	}
	t, _, _ = splitDecoded(t)
	if t == "" {
		return Resolution{Kind: RefFragment}
	}
	t = percentDecode(t)
	r := Resolution{Kind: RefLocal}
	resolved, escapes := joinInside(path.Dir(from), t)
	if escapes {
		r.Escapes = true
		return r
	}
	r.Target = resolved
	r.Exists, r.IsDir = files.Stat(resolved)
	return r
}
