// Command okf checks, reports on and generates Open Knowledge Format (OKF) v0.2 bundles.
package main

import (
	"os"

	"github.com/okf-tools/okf/attest"
	"github.com/okf-tools/okf/internal/heapfloor"
)

func main() {
	// First: when okf is re-executed as the sandbox launcher for an attester, this confines the
	// process and execs the attester, never returning (see attest/sandbox.go).
	attest.SandboxMain()
	// A batch run's first collections come before it has read much (see heapfloor); okf serve and
	// okf lsp give the default collector back when they start serving.
	heapfloor.Start(heapfloor.Floor)
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}
