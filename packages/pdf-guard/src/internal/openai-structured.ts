import type OpenAI from "openai";
import type { z } from "zod";
import { loadOpenAI } from "./load-openai.js";
import { toStrictJsonSchema } from "./strict-json-schema.js";

/** Connection settings shared by the OpenAI checker and title writer. */
export interface OpenAIConnection {
  apiKey: string;
  model: string;
  baseURL: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  client: OpenAI | undefined;
}

/**
 * Gives the SDK client: the one the host passed in, else a new one made on the first call (the SDK
 * is imported only then, see load-openai.ts). A failed import is not kept, so a later call tries
 * again.
 */
export function lazyOpenAIClient(connection: OpenAIConnection): () => Promise<OpenAI> {
  let client: Promise<OpenAI> | undefined = connection.client
    ? Promise.resolve(connection.client)
    : undefined;
  return () => {
    client ??= loadOpenAI().then(
      (OpenAIClass) =>
        new OpenAIClass({
          apiKey: connection.apiKey,
          baseURL: connection.baseURL,
          timeout: connection.timeoutMs,
          maxRetries: connection.maxRetries,
        }),
      (error: unknown) => {
        client = undefined;
        throw error;
      },
    );
    return client;
  };
}

/** Why a structured answer could not be used; the message is logged, never shown to a client. */
export class StructuredOutputError extends Error {
  readonly code: "model_refused" | "model_incomplete" | "model_output_invalid";
  constructor(code: StructuredOutputError["code"], message: string) {
    super(message);
    this.name = "StructuredOutputError";
    this.code = code;
  }
}

/**
 * Sends one Responses API request with a strict JSON schema (made from the zod schema, reduced to
 * the subset strict mode accepts) as the output format, and validates the answer with the full zod
 * schema: the JSON schema constrains the model, the validation adds what strict mode cannot say
 * (lengths) and protects us when the model or a proxy does not comply.
 */
export async function requestStructured<T extends z.ZodObject>(
  client: OpenAI,
  request: {
    model: string;
    instructions: string;
    content: OpenAI.Responses.ResponseInputContent[];
    schemaName: string;
    schema: T;
    signal: AbortSignal;
  },
): Promise<z.infer<T>> {
  const response = await client.responses.create(
    {
      model: request.model,
      instructions: request.instructions,
      input: [{ role: "user", content: request.content }],
      text: {
        format: {
          type: "json_schema",
          name: request.schemaName,
          schema: toStrictJsonSchema(request.schema),
          strict: true,
        },
      },
      store: false,
    },
    { signal: request.signal },
  );
  if (response.status === "incomplete") {
    throw new StructuredOutputError(
      "model_incomplete",
      `the answer is incomplete (${response.incomplete_details?.reason ?? "no reason given"})`,
    );
  }
  let text = "";
  for (const item of response.output ?? []) {
    if (item.type !== "message") continue;
    for (const part of item.content) {
      if (part.type === "refusal")
        throw new StructuredOutputError("model_refused", `the model refused: ${part.refusal}`);
      if (part.type === "output_text") text += part.text;
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new StructuredOutputError("model_output_invalid", "the answer is not JSON");
  }
  const parsed = request.schema.safeParse(json);
  if (!parsed.success) {
    throw new StructuredOutputError(
      "model_output_invalid",
      `the answer does not match the schema: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  }
  return parsed.data;
}
