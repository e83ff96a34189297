import type { HttpHandler, HttpRequest, InvocationContext } from "@azure/functions";

/** The classes of `@azure/functions` a call needs, passed in so the module is loaded only when used. */
export interface AzureFunctionsClasses {
  HttpRequest: typeof HttpRequest;
  InvocationContext: typeof InvocationContext;
}

/**
 * Calls an Azure Functions v4 HTTP handler with a fetch-style request, through the library's own
 * HttpRequest and InvocationContext (route prefix `api`), and gives its answer as a Response.
 *
 * @example
 * const response = await callAzureHandler(handler, await import("@azure/functions"), "/ping");
 */
export async function callAzureHandler(
  handler: HttpHandler,
  azure: AzureFunctionsClasses,
  path: string,
  init: RequestInit = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((v, k) => {
    headers[k] = v;
  });
  const body = init.body;
  const request = new azure.HttpRequest({
    url: `http://localhost:7071/api${path}`,
    method: (init.method ?? "GET") as never,
    headers,
    ...(body !== undefined && body !== null
      ? { body: { bytes: typeof body === "string" ? new TextEncoder().encode(body) : (body as Uint8Array) } }
      : {}),
  });
  const result = await handler(request, new azure.InvocationContext({ functionName: "incasso" }));
  const out = result as { status?: number; headers?: Record<string, string>; body?: Uint8Array };
  return new Response(out.body && out.body.byteLength > 0 ? (out.body as Uint8Array<ArrayBuffer>) : null, {
    status: out.status ?? 200,
    headers: out.headers ?? {},
  });
}
