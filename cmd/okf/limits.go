package main

import (
	"github.com/okf-tools/okf/lint"
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

// openBundleRoot opens the bundle at dir for reading with the size limit of --max-file-size, else
// .okf.yaml's max_file_size (read through the root, within the default limit), else the default.
// An unreadable root is fatal (exit 3), its message led by prefix.
func openBundleRoot(c *cli.Context, dir, prefix string) (*okf.Root, error) {
	limit, err := flagMaxFileSize(c)
	if err != nil {
		return nil, err
	}
	r, err := okf.OpenBundle(dir, limit)
	if err != nil {
		return nil, fatalErr("%s%v", prefix, err)
	}
	if limit == 0 {
		if data, err := r.ReadFile(lint.ConfigName); err == nil {
			if cfg := lint.ParseConfig(lint.ConfigName, data); cfg.MaxFileSize > 0 {
				r = okf.NewRoot(r, cfg.MaxFileSize)
			}
		}
	}
	return r, nil
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
