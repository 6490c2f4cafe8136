package okf

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// tameBoth runs tameBody with the link costs bounded (as loads do) and counted exactly.
func tameBoth(t *testing.T, src []byte) (bounded, exact []tamed) {
	t.Helper()
	out1, f1 := tameBody(src, 0)
	exactLinkCosts = true
	defer func() { exactLinkCosts = false }()
	out2, f2 := tameBody(src, 0)
	if string(out1) != string(out2) || !reflect.DeepEqual(f1, f2) {
		t.Fatalf("bounded and exact link costs differ: %v vs %v", f1, f2)
	}
	return f1, f2
}

// TestLinkScanBound: the bound is never below the cost, on random lines of the bytes the scan
// reads.
func TestLinkScanBound(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	pieces := []string{"](", "[", "]", "(", ")", "<", ">", " ", "\t", "a", "b.md"}
	for range 100_000 {
		var b strings.Builder
		for range r.Intn(40) {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		line := []byte(b.String())
		if c, u := linkScanCost(line), linkScanBound(line); u < c {
			t.Fatalf("linkScanBound(%q) = %d, below its cost %d", line, u, c)
		}
	}
}

// TestTameLinkBudget: a file whose lines each stay under a line's bound of link destinations but
// together pass the file's budget is blanked from the line that passes it, the same with the
// costs bounded as counted exactly; lines whose bound is large but cost small (closed links), which
// are counted at once, come between them.
func TestTameLinkBudget(t *testing.T) {
	open := strings.Repeat("[a](", 700) + "\n"       // ~2,800 bytes costing ~1 MB, under 1<<20 + 16 × its length
	closed := strings.Repeat("[a](b) ", 2000) + "\n" // a bound far past 1<<20, a cost of 2,000
	long := strings.Repeat("[a](", 3000) + "\n"      // past a line's bound: blanked alone
	var b strings.Builder
	b.WriteString(long)
	for i := range 1200 {
		b.WriteString(open)
		if i%100 == 0 {
			b.WriteString(closed)
		}
		if i%7 == 0 {
			b.WriteString("\n")
		}
	}
	src := []byte(b.String())
	found, _ := tameBoth(t, src)
	n := 0
	if len(found) == 0 || found[0] != (tamed{off: 0, reason: "a line with too many unfinished link destinations is not parsed"}) {
		t.Fatalf("blanked first: %v, want the long line", found)
	}
	for _, f := range found[1:] {
		if f.reason != "a line past the file's budget of link destinations is not parsed" {
			t.Fatalf("blanked: %v", f)
		}
		n++
	}
	if n == 0 || n > 300 {
		t.Fatalf("%d lines past the budget, want some of the last ones", n)
	}
	// Random bodies of the same pieces and plain lines.
	r := rand.New(rand.NewSource(2))
	for range 30 {
		b.Reset()
		for range 400 + r.Intn(800) {
			switch r.Intn(5) {
			case 4:
				b.WriteString(long)
			case 0:
				b.WriteString(open)
			case 1:
				b.WriteString(closed)
			case 2:
				b.WriteString("Some [text](t.md) and more.\n")
			default:
				b.WriteString("\n")
			}
		}
		tameBoth(t, []byte(b.String()))
	}
}
