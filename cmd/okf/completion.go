package main

import (
	"fmt"

	"github.com/okf-tools/okf/internal/suggest"
	"github.com/urfave/cli/v2"
)

// The bash and zsh scripts ask okf itself for the words that may come next (urfave/cli's
// --generate-bash-completion, hidden), so they stay right as commands and flags change; with no
// word to offer they fall back to file names.
const bashCompletion = `# bash completion for okf; load with: source <(okf completion bash)
_okf_complete() {
  local cur opts
  COMPREPLY=()
  cur="${COMP_WORDS[COMP_CWORD]}"
  if [[ "$cur" == "-"* ]]; then
    opts=$("${COMP_WORDS[@]:0:$COMP_CWORD}" "$cur" --generate-bash-completion 2>/dev/null)
  else
    opts=$("${COMP_WORDS[@]:0:$COMP_CWORD}" --generate-bash-completion 2>/dev/null)
  fi
  COMPREPLY=($(compgen -W "${opts}" -- "${cur}"))
  return 0
}
complete -o bashdefault -o default -F _okf_complete okf
`

const zshCompletion = `#compdef okf
# zsh completion for okf; load with: source <(okf completion zsh), or save as _okf in your fpath
_okf() {
  local -a opts
  local cur
  cur=${words[-1]}
  if [[ "$cur" == "-"* ]]; then
    opts=("${(@f)$(${words[@]:0:#words[@]-1} "$cur" --generate-bash-completion 2>/dev/null)}")
  else
    opts=("${(@f)$(${words[@]:0:#words[@]-1} --generate-bash-completion 2>/dev/null)}")
  fi
  if [[ "${opts[1]}" != "" ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
if (( $+functions[compdef] )); then
  compdef _okf okf
fi
`

func completionCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script (bash, zsh or fish)",
		ArgsUsage: "bash|zsh|fish",
		Description: "Load it in your shell's startup file:\n\n" +
			"   bash:  source <(okf completion bash)\n" +
			"   zsh:   source <(okf completion zsh)\n" +
			"   fish:  okf completion fish | source",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageErr("completion takes one shell: bash, zsh or fish")
			}
			switch c.Args().First() {
			case "bash":
				fmt.Fprint(e.stdout, bashCompletion)
			case "zsh":
				fmt.Fprint(e.stdout, zshCompletion)
			case "fish":
				s, err := c.App.ToFishCompletion()
				if err != nil {
					return fatalErr("%v", err)
				}
				fmt.Fprint(e.stdout, s)
			default:
				return usageErr("completion: %v", suggest.UnknownValue("shell", c.Args().First(), []string{"bash", "zsh", "fish"}))
			}
			return nil
		},
	}
}
