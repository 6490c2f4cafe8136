package okf

import "bytes"

// SplitStatus says what SplitFrontmatter found at the top of a file.
type SplitStatus int

// The outcomes of splitting a file (decisions D2).
const (
	// NoFrontmatter: the first line (after an optional BOM) is not a delimiter.
	NoFrontmatter SplitStatus = iota
	// FrontmatterOK: an opening and a closing "---" line were found.
	FrontmatterOK
	// Unterminated: the block opens but no later line is a delimiter.
	Unterminated
)

// Split is a file cut into its frontmatter and body, with the offsets needed to map positions in
// either part back to the original file.
type Split struct {
	Status SplitStatus
	// BOM is true when the file started with a UTF-8 byte order mark (skipped).
	BOM bool
	// YAML is the text between the delimiters (empty for an empty block).
	YAML []byte
	// YAMLLine is the file line on which YAML starts (2 for a block that opens on line 1).
	YAMLLine int
	// CloseLine is the file line of the closing delimiter (0 when there is none).
	CloseLine int
	// Body is everything after the closing delimiter's line (the whole file without a BOM when there
	// is no frontmatter, and when the block is unterminated).
	Body []byte
	// BodyOffset is the byte offset of Body in the original file.
	BodyOffset int
	// Loose lists the file lines of delimiters written with spaces or tabs around "---" (D2: read
	// as delimiters, with a warning).
	Loose []int
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// SplitFrontmatter cuts src per decisions D2: the block starts on the first line (a UTF-8 BOM is
// skipped) with a delimiter and ends at the next delimiter line. A delimiter line is "---" once
// surrounding spaces and tabs and a trailing "\r" are stripped, as Google's reference parser reads
// it; those written with spaces or tabs are listed in Loose. A "----" line does not close it. The split is done by hand, not by a library, so that byte offsets
// into the original file are kept for positions.
func SplitFrontmatter(src []byte) Split {
	s := Split{Body: src}
	off := 0
	if bytes.HasPrefix(src, bom) {
		s.BOM = true
		off = len(bom)
		s.Body = src[off:]
		s.BodyOffset = off
	}
	first, next := nextLine(src, off)
	ok, loose := delim(first)
	if !ok {
		return s
	}
	if loose {
		s.Loose = append(s.Loose, 1)
	}
	yamlStart := next
	line := 2
	for pos := next; pos < len(src); line++ {
		l, n := nextLine(src, pos)
		if ok, loose := delim(l); ok {
			if loose {
				s.Loose = append(s.Loose, line)
			}
			s.Status = FrontmatterOK
			s.YAML = src[yamlStart:pos]
			s.YAMLLine = 2
			s.CloseLine = line
			s.Body = src[n:]
			s.BodyOffset = n
			return s
		}
		pos = n
	}
	s.Status = Unterminated
	s.YAML = src[yamlStart:]
	s.YAMLLine = 2
	return s
}

// nextLine returns the line starting at off without its "\n" and the offset of the following line.
func nextLine(src []byte, off int) (line []byte, next int) {
	i := bytes.IndexByte(src[off:], '\n')
	if i < 0 {
		return src[off:], len(src)
	}
	return src[off : off+i], off + i + 1
}

// delim reports whether line is a frontmatter delimiter (D2), and whether it is loose: written with
// spaces or tabs around the "---".
func delim(line []byte) (ok, loose bool) {
	line = bytes.TrimSuffix(line, []byte{'\r'})
	if string(line) == "---" {
		return true, false
	}
	return string(bytes.Trim(line, " \t")) == "---", true
}

// looseDiagnostics warns about each delimiter written with spaces or tabs (D2): conformant, since
// the reference parser reads it, but other tools reject it.
func (s Split) looseDiagnostics(path string) []Diagnostic {
	var out []Diagnostic
	for _, l := range s.Loose {
		out = append(out, Diagnostic{Pos: Position{Path: path, Line: clamp32(l), Col: 1}, Code: CodeLooseDelimiter, Severity: Warning,
			Message: "frontmatter delimiter has spaces or tabs around ---: the reference parser reads it, other tools do not; write exactly --- (D2)"})
	}
	return out
}
