package main

import (
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
	n, err := okf.ParseSize(s)
	if err != nil {
		return 0, usageErr("--max-file-size: %v", err)
	}
	return n, nil
}

// openBundle opens the bundle at dir as every command does (okf.Open): confined, with the size
// limit of --max-file-size, else .okf.yaml's max_file_size, else the default, and .okf.yaml's
// ignore list for every load through it. An unreadable root is fatal (exit 3), its message led by
// prefix.
func openBundle(c *cli.Context, dir, prefix string) (*okf.Opened, error) {
	limit, err := flagMaxFileSize(c)
	if err != nil {
		return nil, err
	}
	o, err := okf.Open(dir, limit)
	if err != nil {
		return nil, fatalErr("%s%v", prefix, err)
	}
	return o, nil
}

// readCheckoutFile reads a file named by a flag or found by name in the working directory (the
// checkout, untrusted): confined to the working directory when it lies inside it (a link leading
// out is refused), regular files only, at most the default size limit.
func readCheckoutFile(p string) ([]byte, error) {
	wd, err := okf.OpenRoot(".", 0)
	if err != nil {
		return okf.ReadFileLimit(p, 0)
	}
	defer wd.Close()
	return wd.ReadPath(p)
}
