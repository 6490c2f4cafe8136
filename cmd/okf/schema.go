package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/okf-tools/okf/internal/suggest"
	"github.com/okf-tools/okf/schemas"
	"github.com/urfave/cli/v2"
)

func schemaCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "schema",
		Usage:     "print the JSON Schemas (draft 2020-12) of a concept's frontmatter, its families and .okf.yaml",
		ArgsUsage: "[NAME]",
		Description: "Without NAME, lists the schemas. With NAME (" + strings.Join(schemas.Names(), ", ") + "), prints that\n" +
			"schema, for editors and other tools: okf schema concept > concept.schema.json. okf lint checks every\n" +
			"concept against the concept schema (rule OKF905).",
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usageErr("schema takes at most one schema name, got %d", c.NArg())
			}
			if c.NArg() == 0 {
				tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
				for _, n := range schemas.Names() {
					b, _ := schemas.Text(n)
					var doc struct {
						Title string `json:"title"`
					}
					_ = json.Unmarshal(b, &doc)
					fmt.Fprintf(tw, "%s\t%s\n", n, doc.Title)
				}
				return tw.Flush()
			}
			name := strings.TrimSuffix(c.Args().First(), ".schema.json")
			b, ok := schemas.Text(name)
			if !ok {
				return usageErr("%v", suggest.UnknownValue("schema", name, schemas.Names()))
			}
			_, err := e.stdout.Write(b)
			return err
		},
	}
}
