import type { FlagSpec } from "./flag-spec.js";

/**
 * Where the data is, for every command. Their variables are read by the storage target, in this
 * order: --database-url, --data-dir, INCASSO_DATABASE_URL or DATABASE_URL, INCASSO_DATA_DIR,
 * `./.data` (the flags win; a database URL in the environment wins over a data directory there).
 *
 * @example
 * addFlags(command, STORAGE_FLAGS);
 */
export const STORAGE_FLAGS: readonly FlagSpec[] = [
  {
    name: "data-dir",
    value: "DIR",
    env: "INCASSO_DATA_DIR",
    envReadElsewhere: true,
    defaultText: "./.data",
    description: "embedded PostgreSQL data directory",
  },
  {
    name: "database-url",
    value: "URL",
    env: "INCASSO_DATABASE_URL",
    alsoEnv: ["DATABASE_URL"],
    envReadElsewhere: true,
    description: "PostgreSQL server instead of a data directory",
  },
];

/**
 * `--json`: the answer as JSON on stdout, and an error as a JSON problem on stderr. A choice of one
 * call, so it has no variable.
 *
 * @example
 * addFlags(command, [JSON_FLAG]);
 */
export const JSON_FLAG: FlagSpec = {
  name: "json",
  description: "print JSON; errors as JSON problems on stderr",
};

/**
 * `--log-level`, for the commands that run until stopped (serve, worker).
 *
 * @example
 * addFlags(command, [LOG_LEVEL_FLAG]);
 */
export const LOG_LEVEL_FLAG: FlagSpec = {
  name: "log-level",
  value: "LEVEL",
  env: "INCASSO_LOG_LEVEL",
  defaultText: "info",
  description: "trace, debug, info, warn, error, fatal or silent",
};

/**
 * `--allow-private-webhook-targets`, for every command that sends webhooks.
 *
 * @example
 * addFlags(command, [ALLOW_PRIVATE_TARGETS_FLAG]);
 */
export const ALLOW_PRIVATE_TARGETS_FLAG: FlagSpec = {
  name: "allow-private-webhook-targets",
  env: "INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS",
  description: "let webhooks go to loopback and private networks, in development only",
};

/**
 * The document checker and title writer: OpenAI when OPENAI_API_KEY is set (a secret, so never a
 * flag: a command line is visible to every user of the machine), else the offline rules and
 * template.
 *
 * @example
 * addFlags(command, OPENAI_FLAGS);
 */
export const OPENAI_FLAGS: readonly FlagSpec[] = [
  {
    name: "openai-model",
    value: "MODEL",
    env: "INCASSO_OPENAI_MODEL",
    defaultText: "gpt-4.1-mini",
    description: "OpenAI model of the checker and title writer, with OPENAI_API_KEY",
  },
  {
    name: "openai-timeout-ms",
    value: "MS",
    env: "INCASSO_OPENAI_TIMEOUT_MS",
    defaultText: "60000 checks, 20000 titles",
    description: "time per OpenAI request, in milliseconds",
  },
  {
    name: "openai-base-url",
    value: "URL",
    env: "INCASSO_OPENAI_BASE_URL",
    alsoEnv: ["OPENAI_BASE_URL"],
    defaultText: "https://api.openai.com/v1",
    description: "another OpenAI-compatible endpoint, such as a gateway",
  },
];

/**
 * `--organisation NAME`, as the operator commands name an organisation.
 *
 * @example
 * const flags = [ORGANISATION_FLAG, LIMIT_FLAG];
 */
export const ORGANISATION_FLAG: FlagSpec = {
  name: "organisation",
  value: "NAME",
  description: "the organisation, as its keys name it",
};

/**
 * `--limit N` of a listing.
 *
 * @example
 * const flags = [LIMIT_FLAG];
 */
export const LIMIT_FLAG: FlagSpec = { name: "limit", value: "N", description: "at most N rows" };

/**
 * A flag of one command, declared in its table.
 *
 * @example
 * const out = flag("out", "where to write the PDF; default: its name", "FILE");
 */
export const flag = (name: string, description: string, value?: string): FlagSpec =>
  value === undefined ? { name, description } : { name, value, description };
