//go:build unix

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// ttyWidth asks the terminal behind f for its width in columns (0 when it cannot say).
func ttyWidth(f *os.File) int {
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}
