package main

import (
	"errors"
	"fmt"

	"github.com/okf-tools/okf/internal/bytesize"
	"github.com/okf-tools/okf/okf"
	"github.com/urfave/cli/v2"
)

// maxFileSizeFlag is --max-file-size, on every command that reads a bundle.
func maxFileSizeFlag() cli.Flag {
	return &cli.StringFlag{Name: "max-file-size", Usage: "skip and report bundle files larger than `SIZE` (8MiB, 512KiB, a number of bytes); default: max_file_size in .okf.yaml, else 8MiB"}
}

// flagMaxFileSize reads --max-file-size (0 when not given).
func flagMaxFileSize(c *cli.Context) (int64, error) {
	s := c.String("max-file-size")
	if s == "" {
		return 0, nil
	}
	n, err := bytesize.Parse(s)
	if err != nil {
		return 0, usageErr("--max-file-size: %v", err)
	}
	return n, nil
}

// openErr gives the error of opening a bundle the exit every command gives it: a configuration
// with problems (each printed at its position, "file:line:col: message") and a path in no bundle
// are exit 2, as is another problem with the paths named; a bundle that cannot be read is fatal
// (exit 3), its message led by prefix.
func openErr(err error, prefix string) error {
	var ce *okf.ConfigError
	var nb *okf.NotBundleError
	var pe *okf.PathError
	switch {
	case errors.As(err, &ce):
		lines := make([]string, len(ce.Problems))
		for i, p := range ce.Problems {
			lines[i] = p.String()
		}
		if l := ce.MoreLine(); l != "" {
			lines = append(lines, l)
		}
		return &exitError{code: exitUsage, lines: lines, msg: fmt.Sprintf("%s: %s; nothing was done", ce.Path, countOf(len(ce.Problems)+ce.More, "configuration problem"))}
	case errors.As(err, &nb):
		return usageErr("%s", nb.Msg)
	case errors.As(err, &pe):
		return usageErr("%s", pe.Msg)
	}
	return fatalErr("%s%v", prefix, err)
}

// readCheckoutFile reads a file named by a flag or found by name in the working directory (the
// checkout, untrusted): confined to the working directory when it lies inside it (a link leading
// out is refused), regular files only, at most the default size limit.
func readCheckoutFile(p string) ([]byte, error) {
	wd, err := okf.OpenFileSystem(".", 0)
	if err != nil {
		return okf.ReadFileLimit(p, 0)
	}
	defer wd.Close()
	return wd.ReadPath(p)
}
