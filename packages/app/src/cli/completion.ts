import type { Command } from "commander";
import { allCommands, commandPath } from "./program.js";
import { UsageError } from "./usage-error.js";

/**
 * The words a shell may complete after a command path: its subcommands and its flags. The path
 * `""` is `incasso` itself.
 *
 * @example
 * completionTable(buildProgram()).get("keys"); // ["create", "list", "revoke", "--help"]
 */
export function completionTable(root: Command): Map<string, string[]> {
  const table = new Map<string, string[]>();
  for (const command of allCommands(root)) {
    const words = [
      ...command.commands.map((c) => c.name()),
      ...command.options.flatMap((o) => (o.long ? [o.long] : [])),
      "--help",
    ];
    table.set(commandPath(command), [...new Set(words)]);
  }
  return table;
}

/**
 * The bash completion function of `incasso`: it finds the command path among the words typed so
 * far (a word that extends a known path; flag values are skipped) and offers that path's words.
 * zsh runs it through bashcompinit, its own emulation of bash's `complete`.
 *
 * @example
 * process.stdout.write(bashCompletion(buildProgram()));
 */
export function bashCompletion(root: Command): string {
  const table = completionTable(root);
  const paths = [...table.keys()].filter((p) => p !== "");
  const cases = [...table].map(([path, words]) => `    "${path}") words="${words.join(" ")}" ;;`).join("\n");
  return `# incasso completion for bash (source it, or save it in /etc/bash_completion.d/incasso)
_incasso() {
  local cur path candidate word words i
  cur="\${COMP_WORDS[COMP_CWORD]}"
  path=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    [[ "$word" == -* ]] && continue
    candidate="\${path:+$path }$word"
    case "$candidate" in
      ${paths.map((p) => `"${p}"`).join("|")}) path="$candidate" ;;
    esac
  done
  case "$path" in
${cases}
    *) words="" ;;
  esac
  if [[ "$path" == "completion" && "$cur" != -* ]]; then words="bash zsh"; fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _incasso incasso
`;
}

/**
 * The zsh completion of `incasso`: the bash function through zsh's bashcompinit.
 *
 * @example
 * process.stdout.write(zshCompletion(buildProgram()));
 */
export function zshCompletion(root: Command): string {
  return `# incasso completion for zsh (in ~/.zshrc: source <(incasso completion zsh))
autoload -U +X compinit && compinit
autoload -U +X bashcompinit && bashcompinit
${bashCompletion(root).split("\n").slice(1).join("\n")}`;
}

/**
 * `incasso completion bash|zsh`: prints the script.
 *
 * @example
 * await printCompletion("bash", buildProgram());
 */
export async function printCompletion(shell: string, root: Command): Promise<void> {
  if (shell === "bash") process.stdout.write(bashCompletion(root));
  else if (shell === "zsh") process.stdout.write(zshCompletion(root));
  else throw new UsageError(`completion takes bash or zsh, not ${shell}`);
}
