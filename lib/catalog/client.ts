/**
 * The pitch catalog client: every endpoint, with every parameter typed and
 * checked before a request is sent.
 *
 * @module
 */
import { warnedPages } from "../http/_envelope.ts";
import {
  type DocumentParams,
  DocumentQuery,
  PITCH_PAGE_SIZE,
  type PitchListParams,
  PitchListQuery,
} from "./params.ts";
import type { DocumentInfo, FilterSet, PitchDetail, PitchListRow, SearchResult } from "./types.ts";
import {
  catalogProblem,
  filterSetList,
  pitchDetail,
  pitchPage,
  searchResult,
  tagTypes,
} from "./_envelopes.ts";
import type { ClientOptions } from "../http/transport.ts";
import { Tags } from "./tags.ts";
import {
  boundedChunks,
  checkMaxBytes,
  sanitizeFilename,
  saveUnder,
  signFresh,
} from "./download.ts";
import { type CallOptions, ServiceClient } from "../http/service_client.ts";
import type { FramedList } from "../frames/list.ts";
import { listOf, type ParallelListOptions } from "../frames/windowed_list.ts";
import { pitchKey, type PitchSender, pitchWindows } from "./_windows.ts";
import { PITCH_DETAIL_TYPING, PITCH_ROW_TYPING, pitchesSink } from "./pitch_frames.ts";
import { typeRows } from "../frames/typed_rows.ts";
import { traceDemoIfLoaded } from "../frames/_demo_trace.ts";
import { InvalidResponseError, RequestValidationError } from "../http/errors.ts";
import { asQuery, notAllowed, validate } from "../http/_validate.ts";
import { pageSizeFor } from "../http/paginate.ts";

/** Options of {@link CatalogClient.download}. */
export interface DownloadOptions extends DocumentParams {
  /** Folder to save into (created if missing; default `downloads`). */
  dir?: string;
  /** Replace an existing file of the same name (default false: pick a numbered name). */
  overwrite?: boolean;
  /**
   * Largest document saved, in bytes (default 1 GiB): a larger one is a
   * `ResponseTooLargeError` and nothing is saved.
   */
  maxBytes?: number;
  /** Abort signal. */
  signal?: AbortSignal;
}

/** `v` when it is text that is not blank; a {@link RequestValidationError} otherwise. */
function nonBlank(param: string, v: unknown, allowed: string): string {
  if (typeof v === "string" && v.trim() !== "") return v;
  throw new RequestValidationError([notAllowed(param, v, allowed)]);
}

function requireId(id: unknown): string {
  return encodeURIComponent(nonBlank("id", id, "a pitch_id (non-empty string)"));
}

/**
 * Client of the pitch catalog service.
 *
 * @example
 * ```ts
 * import { CatalogClient, createStub } from "../../mod.ts";
 * const stub = createStub({ scale: 0.1 });
 * const catalog = new CatalogClient({ apiKey: "demo-catalog-key", baseUrl: "http://stub/catalog", fetch: stub.fetch });
 * for await (const row of catalog.pitches({ sentiment: ["bullish"], authorBadge: ["elite"] })) {
 *   console.log(row.pitch.ticker_symbol);
 *   break;
 * }
 * ```
 */
export class CatalogClient extends ServiceClient {
  /** Creates a client (see `ClientOptions`); error answers are read by this service's status table. */
  constructor(opts: ClientOptions) {
    super(opts, catalogProblem);
    traceDemoIfLoaded(); // your own nodejs-polars, if already evaluated, marks frames of demo rows
  }

  /** Fuzzy search of authors (username, display name) and companies (ticker, names). */
  async search(q: string, opts: CallOptions = {}): Promise<SearchResult> {
    nonBlank("q", q, "non-empty text");
    return await this.get({ path: "/search", query: { q }, signal: opts.signal }, searchResult);
  }

  /** The tag vocabulary, as a tree with lookups. */
  async tags(opts: CallOptions = {}): Promise<Tags> {
    return new Tags(await this.get({ path: "/tags", signal: opts.signal }, tagTypes));
  }

  /** The key owner's saved filter sets. */
  async filterSets(opts: CallOptions = {}): Promise<FilterSet[]> {
    return await this.get({ path: "/filter-sets", signal: opts.signal }, filterSetList);
  }

  /**
   * Pitches matching the parameters, as a lazy list. Parameters are checked
   * now (a bad one throws {@link RequestValidationError}); pages are fetched
   * when iterated. A `cursor` in `params` starts from that page.
   */
  pitches(params: PitchListParams = {}, opts: ParallelListOptions = {}): FramedList<PitchListRow> {
    validate(PitchListQuery, asQuery(params));
    const { cursor: start, ...rest } = params;
    const read = warnedPages("GET /pitches", pitchPage);
    const send: PitchSender = (p, cursor, signal, size) =>
      this.get({
        path: "/pitches",
        query: { ...p, limit: size ?? p.limit, cursor: cursor ?? undefined },
        signal,
      }, read(size ?? p.limit ?? PITCH_PAGE_SIZE));
    return listOf<PitchListRow>(
      (cursor, signal, want) =>
        send(rest, cursor ?? start ?? null, signal, pageSizeFor(rest.limit, want, PITCH_PAGE_SIZE)),
      { sink: pitchesSink, demo: () => this.demo, key: pitchKey, rows: PITCH_ROW_TYPING },
      start !== undefined && opts.cursor === undefined ? { ...opts, cursor: start } : opts,
      pitchWindows(rest, send),
    );
  }

  /**
   * One pitch by id (locked pitches come back with `is_locked: true`), its
   * values read by the value grammars (`raw: true`: as the server sent
   * them; the archive is read by structure either way).
   */
  async pitch(id: string, opts: CallOptions & { raw?: boolean } = {}): Promise<PitchDetail> {
    return await this.get({ path: `/pitches/${requireId(id)}`, signal: opts.signal }, (body) => {
      const p = pitchDetail(body);
      return opts.raw ? p : typeRows(PITCH_DETAIL_TYPING, [p])[0];
    });
  }

  /** The signed URL of an archived write-up or attachment (JSON form). */
  async document(
    id: string,
    params: DocumentParams = {},
    opts: CallOptions = {},
  ): Promise<DocumentInfo> {
    const path = `/pitches/${requireId(id)}/document`;
    validate(DocumentQuery, asQuery(params));
    return await this.transport.json({
      method: "GET",
      path,
      query: { ...params },
      signal: opts.signal,
    });
  }

  /**
   * Signs a document and downloads it at once into `dir`, under the server's
   * filename sanitised; returns the path written. The bytes stream to disk
   * (memory stays flat for large files); only `http:`/`https:` URLs are
   * read (`UnsupportedUrlError` otherwise, before any byte); the body
   * must keep arriving (no gap longer than `timeoutMs`, however long the
   * whole takes). The signing answer is never cached, and a URL is never
   * used past its `expires_in_seconds` (see `signFresh`).
   */
  async download(id: string, opts: DownloadOptions = {}): Promise<string> {
    const { dir = "downloads", overwrite = false, signal, maxBytes: max, ...params } = opts;
    const maxBytes = checkMaxBytes(max);
    const doc = await signFresh(() => this.document(id, params, { signal }), id);
    if (typeof doc?.url !== "string" || typeof doc.filename !== "string") {
      const field = typeof doc?.url !== "string" ? "url" : "filename";
      const value = doc?.[field];
      throw new InvalidResponseError(
        `GET /pitches/${requireId(id)}/document: the answer's ${field} is ${
          JSON.stringify(value) ?? String(value)
        } (${typeof value}), not a string`,
      );
    }
    sanitizeFilename(doc.filename); // a bad name fails before anything is fetched
    const res = await this.transport.fetchUnsigned(doc.url, signal);
    const chunks = boundedChunks(
      res,
      this.transport.readChunks(res, signal),
      maxBytes,
      `download of ${JSON.stringify(id)} (${JSON.stringify(doc.filename)})`,
    );
    return await saveUnder(dir, doc.filename, chunks, overwrite);
  }
}
