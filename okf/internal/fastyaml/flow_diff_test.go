package fastyaml

import (
	"math/rand"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// reviewPieces are the bits TestFastYAMLFlowSoup builds flow mappings from: mostly the subset's own
// (plain words, ": ", ", "), mixed with every character that changes how YAML reads a flow
// collection (indicators, quotes, ':' before various characters, spaces, non-ASCII of 2 to 4 bytes).
var reviewPieces = []string{
	"a", "b", "k", "x_y", "a-b", "a.b", "a/b", "true", "null", "~", "yes", "<<", "0", "12", "1.5", "-3", ".5", "0x1F",
	"2026-06-06", "2026-06-06T10:00:00Z", "2026-6-6", "é", "日本", "😀", "ü ö",
	": ", ":", ":/", ":a", ":1", ": :", ", ", ",", " ,", " ", "  ", "{", "}", "[", "]", "[]", "{}", "[a, b]", "[ a ]",
	"\"", "'", "\"x\"", "'y z'", "''", "\"\"", "\\", "#", " #", "a#b", "?", "? ", "&x ", "*x", "!", "!!str ", "|", ">",
	"%", "@", "`", "-", "- ", "=", "<", "+", "*", "\u00a0",
}

func soup(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString("{")
	if r.Intn(3) == 0 {
		b.WriteString(" ")
	}
	pairs := r.Intn(4)
	for i := 0; i < pairs; i++ {
		if i > 0 {
			b.WriteString([]string{", ", ",", " , ", ",  "}[r.Intn(4)])
		}
		// A mostly well-formed pair, with random pieces spliced in.
		parts := []string{[]string{"a", "b", "k", "by", "at", "x_y", "a-b", "a.b", "a/b", "true", "null", "e1"}[r.Intn(12)],
			": ", reviewPieces[r.Intn(len(reviewPieces))]}
		if r.Intn(2) == 0 {
			parts[2] = reviewPieces[r.Intn(27)] // a value of the subset
		}
		if r.Intn(2) == 0 {
			parts = append(parts, reviewPieces[r.Intn(len(reviewPieces))])
		}
		for j := r.Intn(3) * r.Intn(2); j > 0; j-- {
			at := r.Intn(len(parts) + 1)
			parts = append(parts[:at], append([]string{reviewPieces[r.Intn(len(reviewPieces))]}, parts[at:]...)...)
		}
		b.WriteString(strings.Join(parts, ""))
	}
	if r.Intn(3) == 0 {
		b.WriteString(" ")
	}
	b.WriteString("}")
	if r.Intn(10) == 0 {
		b.WriteString(reviewPieces[r.Intn(len(reviewPieces))])
	}
	return b.String()
}

func soupDoc(r *rand.Rand) string {
	var b strings.Builder
	lead := []string{"", "é: x\n", "t: 'é😀'\n"}[r.Intn(3)]
	b.WriteString(lead)
	switch r.Intn(4) {
	case 0:
		b.WriteString("g: " + soup(r) + "\n")
	case 1:
		b.WriteString("l:\n  - " + soup(r) + "\n  - " + soup(r) + "\n")
	case 2:
		b.WriteString("l:\n- " + soup(r) + "\n- x: " + soup(r) + "\n  y: " + soup(r) + "\n")
	default:
		b.WriteString("g:   " + soup(r) + "\nh: " + soup(r) + "\n")
	}
	if r.Intn(4) == 0 {
		b.WriteString([]string{"  deeper\n", "z: 1\n", "- a\n", "  z: 1\n"}[r.Intn(4)])
	}
	return b.String()
}

// TestFastYAMLFlowSoup is a second, independent differential check of one-line flow mappings:
// random mappings from reviewPieces, in block mappings and sequences, after non-ASCII text.
// OKF_SOUP=n runs n cases instead of the default.
func TestFastYAMLFlowSoup(t *testing.T) {
	n := 20000
	if s := os.Getenv("OKF_SOUP"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	r := rand.New(rand.NewSource(7))
	taken := 0
	for i := 0; i < n; i++ {
		s := soupDoc(r)
		fast, full, ok := nodesOf(t, s)
		if !ok {
			continue
		}
		taken++
		if !reflect.DeepEqual(fast, full) {
			t.Fatalf("%q:\nfast %s\nfull %s", s, dumpNode(fast), dumpNode(full))
		}
	}
	t.Logf("%d of %d taken", taken, n)
	if taken < n/20 {
		t.Errorf("the fast path took only %d of %d", taken, n)
	}
}
