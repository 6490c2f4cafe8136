// Command okf checks, reports on and generates Open Knowledge Format (OKF) v0.2 bundles.
package main

import "os"

func main() {
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}
