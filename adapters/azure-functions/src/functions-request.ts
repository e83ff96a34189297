import type { HttpRequest } from "@azure/functions";

/**
 * A web `Request` over the Functions host's `HttpRequest`, at the API's URL, made without copying
 * anything: the method, the headers and the body are the HttpRequest's own (it holds a web Request
 * inside), and a standard Request is built only if a reader asks for a member the HttpRequest does
 * not have (`signal`, `cache`, and the like). Building a standard Request for every call, with its
 * URL parsed again and its headers copied, cost a GET /ping several microseconds of CPU.
 * `instanceof Request` holds, as for srvx's request on node.
 *
 * @example
 * const request = new FunctionsRequest(httpRequest, "https://example.org/api/v1/ping");
 * await api.fetch(request);
 */
export class FunctionsRequest {
  #native: Request | undefined;
  // Read once: each read of the HttpRequest's own goes through its private-field accessors.
  #method: string | undefined;
  #headers: Headers | undefined;

  constructor(
    private readonly source: HttpRequest,
    readonly url: string,
  ) {}

  get method(): string {
    this.#method ??= this.source.method;
    return this.#method;
  }

  get headers(): Headers {
    this.#headers ??= this.source.headers;
    return this.#headers;
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.source.body as ReadableStream<Uint8Array> | null;
  }

  get bodyUsed(): boolean {
    return this.source.bodyUsed;
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return this.source.arrayBuffer();
  }

  blob(): Promise<Blob> {
    return this.source.blob() as Promise<Blob>;
  }

  async bytes(): Promise<Uint8Array> {
    return new Uint8Array(await this.source.arrayBuffer());
  }

  formData(): Promise<FormData> {
    return this.source.formData();
  }

  json(): Promise<unknown> {
    return this.source.json();
  }

  text(): Promise<string> {
    return this.source.text();
  }

  clone(): Request {
    return new FunctionsRequest(this.source.clone(), this.url) as unknown as Request;
  }

  /** A standard Request without the body, for the members only it has. */
  get _native(): Request {
    this.#native ??= new Request(this.url, { method: this.method, headers: this.headers });
    return this.#native;
  }
}

// Every other member of Request (signal, cache, credentials, mode, ...) is read from the standard
// Request built on demand.
for (const key of Object.getOwnPropertyNames(Request.prototype)) {
  if (key === "constructor" || Object.hasOwn(FunctionsRequest.prototype, key)) continue;
  const descriptor = Object.getOwnPropertyDescriptor(Request.prototype, key);
  if (descriptor?.get) {
    Object.defineProperty(FunctionsRequest.prototype, key, {
      configurable: true,
      get(this: FunctionsRequest) {
        return (this._native as unknown as Record<string, unknown>)[key];
      },
    });
  } else if (typeof descriptor?.value === "function") {
    Object.defineProperty(FunctionsRequest.prototype, key, {
      configurable: true,
      writable: true,
      value(this: FunctionsRequest, ...args: unknown[]) {
        return (this._native as unknown as Record<string, (...a: unknown[]) => unknown>)[key]?.(...args);
      },
    });
  }
}
Object.setPrototypeOf(FunctionsRequest.prototype, Request.prototype);
