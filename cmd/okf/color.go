package main

import (
	"github.com/okf-tools/okf/internal/suggest"
	"github.com/urfave/cli/v2"
)

// colorFlag is --color, the same on every command that colours its output.
func colorFlag() cli.Flag {
	return &cli.StringFlag{Name: "color", Value: "auto", Usage: "colour the output `WHEN`: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never"}
}

// useColor decides --color for output going to the terminal stdout (toFile: to a file, -o): auto
// colours only a terminal, and never when NO_COLOR is set (https://no-color.org) or TERM is dumb;
// always and never are what they say (always wins over NO_COLOR, as an explicit flag should).
func useColor(c *cli.Context, e *env, toFile bool) (bool, error) {
	switch c.String("color") {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto", "":
		return !toFile && isTerminal(e.stdout) && e.getenv("NO_COLOR") == "" && e.getenv("TERM") != "dumb", nil
	}
	return false, checkColor(c)
}

// checkColor checks --color's value (nil when the command has none): a usage error names the
// nearest value.
func checkColor(c *cli.Context) error {
	switch v := c.String("color"); v {
	case "auto", "always", "never", "":
		return nil
	default:
		return usageErr("--color: %v", suggest.UnknownValue("value", v, []string{"auto", "always", "never"}))
	}
}

// isTerminal reports whether w is a terminal (a character device), the only place colour belongs.
func isTerminal(w any) bool { return trustIsTerminal(w) }
