//go:build !unix

package main

import "os"

// ttyWidth cannot ask the terminal on this system; $COLUMNS or 80 is used.
func ttyWidth(*os.File) int { return 0 }
