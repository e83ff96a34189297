import { type Command, Option } from "commander";
import { UsageError } from "./usage-error.js";

/**
 * One flag of a command, declared once: the CLI's parser, its help, its environment variable and
 * docs/configuration.md all follow from this entry. A command's flags are an array of these, so a
 * new flag is one more entry.
 *
 * @example
 * const port: FlagSpec = { name: "port", value: "N", env: "INCASSO_PORT", defaultText: "3000", description: "TCP port of the API" };
 */
export interface FlagSpec {
  /** The long flag without its dashes: `port`, `no-letter-runner`. */
  name: string;
  /** The placeholder of its value (`N`, `LIST`); absent for a switch. */
  value?: string;
  /** A one-letter alias (`p`). */
  short?: string;
  /**
   * The INCASSO_* variable used when the flag is absent (the flag wins). Absent for the arguments
   * of one operation (decision cli-configuration-variables).
   */
  env?: string;
  /** Older or platform variables read after `env`, in this order (`PORT`). */
  alsoEnv?: readonly string[];
  /**
   * The variable is read where the setting is resolved, not by {@link readFlags}: the storage
   * target has its own order (decision cli-configuration-variables).
   */
  envReadElsewhere?: true;
  /** What applies when neither the flag nor a variable is given, as help and docs show it. */
  defaultText?: string;
  /** One line for `--help`. */
  description: string;
}

/**
 * What a command's flags came to: by flag name, a string for a flag with a value, a boolean for a
 * switch, undefined when neither the flag nor its variable is given.
 *
 * @example
 * const values: FlagValues = { port: "8080", "trust-proxy": true };
 */
export type FlagValues = Record<string, string | boolean | undefined>;

/** Commander names a flag's value by its camel-cased name, `--no-x` by `x`. */
function attributeName(spec: FlagSpec): string {
  const name = spec.name.startsWith("no-") ? spec.name.slice(3) : spec.name;
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

function helpText(spec: FlagSpec): string {
  const extras = [
    spec.env ? `env ${[spec.env, ...(spec.alsoEnv ?? [])].join(", ")}` : "",
    spec.defaultText !== undefined ? `default ${spec.defaultText}` : "",
  ].filter(Boolean);
  return extras.length === 0 ? spec.description : `${spec.description} (${extras.join("; ")})`;
}

/**
 * Declares the flags on a command, for the parser and its help.
 *
 * @example
 * addFlags(program.command("serve"), SERVE_FLAGS);
 */
export function addFlags(command: Command, specs: readonly FlagSpec[]): Command {
  for (const spec of specs) {
    const flags = `${spec.short ? `-${spec.short}, ` : ""}--${spec.name}${spec.value ? ` <${spec.value}>` : ""}`;
    command.addOption(new Option(flags, helpText(spec)));
  }
  return command;
}

const TRUE = ["1", "true", "yes", "on"];
const FALSE = ["", "0", "false", "no", "off"];

/**
 * The values of a command's flags: the flag when given, else its variable, else undefined. A switch
 * takes `1`, `true`, `yes`, `on` (or `0`, `false`, `no`, `off`) from its variable; anything else is a
 * usage error naming the variable.
 *
 * @example
 * const values = readFlags(command, SERVE_FLAGS, process.env);
 * values.port; // "8080" from --port 8080 or INCASSO_PORT=8080
 */
export function readFlags(
  command: Command,
  specs: readonly FlagSpec[],
  env: Record<string, string | undefined> = process.env,
): FlagValues {
  const options = command.opts();
  const values: FlagValues = {};
  for (const spec of specs) {
    const attribute = attributeName(spec);
    if (command.getOptionValueSource(attribute) === "cli") {
      const value = options[attribute] as string | boolean;
      values[spec.name] = spec.name.startsWith("no-") ? !value : value;
      continue;
    }
    if (spec.envReadElsewhere) continue;
    const name = [spec.env, ...(spec.alsoEnv ?? [])].find((n) => n !== undefined && env[n] !== undefined);
    const raw = name === undefined ? undefined : env[name];
    if (name === undefined || raw === undefined) {
      if (!spec.value) values[spec.name] = false;
      continue;
    }
    if (spec.value) {
      values[spec.name] = raw;
      continue;
    }
    const word = raw.trim().toLowerCase();
    if (TRUE.includes(word)) values[spec.name] = true;
    else if (FALSE.includes(word)) values[spec.name] = false;
    else throw new UsageError(`${name} must be 1 or 0 (true or false), not ${raw}`);
  }
  return values;
}
