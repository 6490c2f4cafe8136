package main

import "testing"

// TestEscapeDiffKeepsCRLF: a diff of a file with CRLF line ends keeps them, so that git apply takes
// what okf lint --fix --dry-run (or gen's, index's, migrate's) prints; the CR was written \r, and
// no hunk of a CRLF file applied. A CR anywhere else in a line is still escaped: it would let the
// rest of the line overwrite its start on a terminal.
func TestEscapeDiffKeepsCRLF(t *testing.T) {
	for in, want := range map[string]string{
		"-tags: \"a, b\"\r\n+tags: [a, b]\r\n": "-tags: \"a, b\"\r\n+tags: [a, b]\r\n",
		" a\rb\r\n":                            " a\\rb\r\n",
		" x\r":                                 " x\\r",
		" esc\x1b[31m\r\n":                     " esc\\x1b[31m\r\n",
	} {
		if got := escapeDiff(in); got != want {
			t.Errorf("escapeDiff(%q) = %q, want %q", in, got, want)
		}
	}
}
