/**
 * What both service clients share: one {@link Transport} built from the
 * client options, the `baseUrl`, per-call options, and the JSON and console
 * forms that never show the key.
 *
 * @module
 */
import { type ClientOptions, type RequestSpec, Transport } from "./transport.ts";
import type { ProblemReader } from "./errors.ts";

/** Per-call options of every client method. */
export interface CallOptions {
  /** Abort signal. */
  signal?: AbortSignal;
}

/**
 * Base class of `CatalogClient` and `InsiderClient`.
 *
 * @example
 * ```ts
 * import { connect } from "../../mod.ts";
 * const { catalog } = await connect();
 * console.log(JSON.stringify(catalog)); // {"client":"CatalogClient","baseUrl":…} — no key
 * ```
 */
export abstract class ServiceClient {
  readonly #t: Transport;
  /** Creates a client; `problem` applies the service's status table to error answers. */
  constructor(opts: ClientOptions, problem?: ProblemReader) {
    this.#t = new Transport(opts, problem);
  }

  /** The transport every request of this client goes through. */
  protected get transport(): Transport {
    return this.#t;
  }

  /**
   * A `GET` of `spec.path` (with its query and signal), its JSON answer
   * handed to `accept` ({@link Transport.read}): every read of either
   * service but the trade search (a `POST`) and the document's JSON form.
   */
  protected async get<T>(
    spec: Omit<RequestSpec, "method" | "body">,
    accept: (body: unknown) => T,
  ): Promise<T> {
    return await this.#t.read({ ...spec, method: "GET" }, accept);
  }

  /** True once this client has read the offline emulator's demo data (see `shared/demo.ts`). */
  get demo(): boolean {
    return this.#t.demo;
  }

  /** Base URL of the service. */
  get baseUrl(): string {
    return this.#t.baseUrl;
  }

  /** JSON form (no key). */
  toJSON(): Record<string, unknown> {
    return { client: this.constructor.name, ...this.#t.toJSON() };
  }

  /** Console form (no key). */
  [Symbol.for("Deno.customInspect")](): string {
    return `${this.constructor.name} { baseUrl: ${
      JSON.stringify(this.baseUrl)
    }, apiKey: "[redacted]" }`;
  }
}
