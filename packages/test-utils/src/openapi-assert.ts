import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

type Doc = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
  components: { schemas: Record<string, unknown> };
};

/**
 * Validates response bodies against the API's own OpenAPI document, so a test fails when the server
 * sends something its description does not promise.
 *
 * @example
 * const check = responseValidator(await (await api.fetch(new Request(".../openapi.json"))).json());
 * check("/ping", "get", 200, body); // throws with ajv's errors on a mismatch
 */
export function responseValidator(
  document: unknown,
): (path: string, method: string, status: number, body: unknown) => void {
  const doc = document as Doc;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ $id: "doc", components: doc.components });
  return (path, method, status, body) => {
    const op = doc.paths[path]?.[method.toLowerCase()];
    if (!op) throw new Error(`No ${method} ${path} in the OpenAPI document`);
    const response = op.responses[String(status)];
    if (!response) throw new Error(`${method} ${path} does not document status ${status}`);
    const content = response.content ?? {};
    const media = Object.values(content)[0];
    if (!media) return;
    const schema = JSON.parse(JSON.stringify(media.schema).replaceAll('"#/components/', '"doc#/components/'));
    const validate = ajv.compile(schema);
    if (!validate(body)) {
      throw new Error(
        `${method} ${path} ${status} does not match its schema: ${ajv.errorsText(validate.errors)}`,
      );
    }
  };
}
