package main

import (
	"os"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"
)

// sparseCmd is "sparse FILE SIZE": it makes FILE of SIZE bytes without writing them (a hole), so a
// session can hold a 200 MB file without disk or a committed fixture.
func sparseCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: sparse FILE SIZE")
	}
	n, err := strconv.ParseInt(args[1], 10, 64)
	if err != nil {
		ts.Fatalf("sparse: bad size %q", args[1])
	}
	f, err := os.Create(ts.MkAbs(args[0]))
	ts.Check(err)
	ts.Check(f.Truncate(n))
	ts.Check(f.Close())
}
