/**
 * Reading response bodies with a bound. A body is read chunk by chunk from
 * its (already decoded) stream and counted as it arrives, so a gzip bomb, an
 * endless body or a 2 GB answer stops as soon as it passes the limit: the
 * bytes kept never exceed the limit plus one chunk, and the error is a
 * {@link ResponseTooLargeError} (not retried: the same request would get the
 * same answer).
 *
 * The default, {@link DEFAULT_MAX_RESPONSE_BYTES} (16 MiB), is about 35 times
 * the largest answer the services give in normal use: a search page of 100
 * full trade rows is 0.45 MB on the emulator (about 0.5 MB live); a page of
 * 50 pitches is 54 KB and the tag vocabulary 17 KB, which leaves room for
 * detail bodies far richer than the emulator's. It also bounds the worst
 * case of a hostile server under `hydrate` (8 requests in flight by
 * default) to about 128 MiB of bodies, and stays far below V8's longest string (about 512 MiB), past
 * which a body could not be parsed at all. Clients take `maxResponseBytes`
 * (1 byte to 500 MiB) to change it. Downloads of documents stream to disk
 * under their own bound (`maxBytes` of `download()`, default 1 GiB).
 *
 * Error answers (`4xx`/`5xx`) are read only up to
 * {@link ERROR_PREFIX_BYTES} (16 KiB): problem details are a few hundred
 * bytes, and whatever follows the prefix is never downloaded.
 *
 * @module
 */
import { InvalidResponseError } from "./errors.ts";

const MiB = 1024 * 1024;

/** Default largest decoded body a client reads into memory: 16 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * MiB;

/** The most of an error answer's body that is read (16 KiB). */
export const ERROR_PREFIX_BYTES = 16 * 1024;

/**
 * An answer larger than the client's `maxResponseBytes`: reading stopped at
 * the limit and nothing was kept. Not retried. Raise `maxResponseBytes` on
 * the client if such an answer is expected.
 *
 * @example
 * ```ts
 * import { CatalogClient, ResponseTooLargeError } from "../../mod.ts";
 * const catalog = new CatalogClient({
 *   apiKey: "k",
 *   baseUrl: "http://api.test/catalog",
 *   maxResponseBytes: 1024,
 *   fetch: () => Promise.resolve(new Response(`{"data":[${"1,".repeat(1000)}1]}`)),
 * });
 * try {
 *   await catalog.tags();
 * } catch (e) {
 *   if (e instanceof ResponseTooLargeError) console.log(e.limit); // 1024
 * }
 * ```
 */
export class ResponseTooLargeError extends InvalidResponseError {
  /**
   * Creates the error; `option` names the limit (`maxResponseBytes` of a
   * client, or `maxBytes` of a download).
   */
  constructor(
    label: string,
    /** The limit that was passed, in bytes (`maxResponseBytes`). */
    readonly limit: number,
    /** Bytes read (or announced by `Content-Length`) when reading stopped. */
    readonly received: number,
    announced: boolean,
    option: "maxResponseBytes" | "maxBytes" = "maxResponseBytes",
  ) {
    super(
      `${label}: the answer is larger than ${option} = ${showBytes(limit)}; ${
        announced
          ? `its Content-Length is ${showBytes(received)}, so nothing was read`
          : `reading stopped after ${showBytes(received)} and nothing was kept`
      } (raise ${option}${
        option === "maxBytes" ? " of download()" : " on the client"
      } if such an answer is expected)`,
    );
  }
}

/** `16,777,216 bytes (16 MiB)`. */
function showBytes(n: number): string {
  const mib = n / 1024 / 1024;
  const unit = mib >= 1 ? ` (${+mib.toFixed(1)} MiB)` : "";
  return `${n.toLocaleString("en-US")} bytes${unit}`;
}

/** The `Content-Length` of an unencoded answer, when it announces one. */
export function announcedLength(res: Response): number | undefined {
  const enc = res.headers.get("content-encoding");
  if (enc && enc.trim().toLowerCase() !== "identity") return undefined;
  const raw = res.headers.get("content-length");
  if (raw === null || !/^\s*\d+\s*$/.test(raw)) return undefined;
  return Number(raw);
}

/** Bytes past which a body is "large" and needs a {@link LargeBodyGate}'s permit: 1 MiB. */
export const LARGE_BODY_BYTES = 1 << 20;

/**
 * Bounds the bytes a client holds while reading answers at once. A normal
 * answer is small (a search page of 100 full rows is about 0.5 MB); one
 * that grows past {@link LARGE_BODY_BYTES} waits, holding what it read,
 * for the one permit (one large body a client reads at once) before it reads on (the
 * server is held back by TCP meanwhile). So with 8 answers in flight that
 * all run to `maxResponseBytes` (16 MiB, a hostile server's endless or
 * gzip-bomb bodies under `hydrate`), at most 16 + 7 × 1 = 23 MiB of bodies
 * are held, not 8 × 16 = 128 MiB, and one decoder runs flat out at a time
 * (the decoders' own buffers were most of the peak: measured in
 * `bench/endless_gzip_rss.ts`, 40 gzip bombs at concurrency 8 peaked at
 * 369–400 MiB of RSS before, 210–278 MiB with one permit, 266–331 MiB
 * with two). Answers under 1 MiB never wait. A permit holder never waits
 * for anything else, so readers cannot deadlock.
 */
export class LargeBodyGate {
  /** Settles once the last reader that asked for the permit has released it. */
  #last: Promise<void> = Promise.resolve();
  /** Waits for the permit (in the order asked); returns its release (idempotent). */
  async acquire(): Promise<() => void> {
    const before = this.#last;
    let release!: () => void;
    this.#last = new Promise<void>((r) => (release = r));
    await before;
    return release;
  }
}

/**
 * The whole body of `res`, or a {@link ResponseTooLargeError} as soon as it
 * passes `limit` bytes (the rest is cancelled, never downloaded). An answer
 * whose `Content-Length` is already over the limit is refused unread. With
 * a `gate`, a body past {@link LARGE_BODY_BYTES} reads on only with its
 * permit.
 */
export async function readBody(
  res: Response,
  limit: number,
  label: string,
  gate?: LargeBodyGate,
): Promise<Uint8Array<ArrayBuffer>> {
  const announced = announcedLength(res);
  if (announced !== undefined && announced > limit) {
    await res.body?.cancel().catch(() => {});
    throw new ResponseTooLargeError(label, limit, announced, true);
  }
  const { bytes, total } = await readUpTo(res, limit + 1, label, false, gate, announced);
  if (total > limit) throw new ResponseTooLargeError(label, limit, total, false);
  return bytes;
}

/**
 * At most the first `max` bytes of `res`'s body as text (the rest is
 * cancelled), and whether there was more. For error answers.
 */
export async function readPrefix(
  res: Response,
  label: string,
  max: number = ERROR_PREFIX_BYTES,
): Promise<{ text: string; truncated: boolean }> {
  const { bytes, total } = await readUpTo(res, max + 1, label, true);
  return { text: new TextDecoder().decode(bytes.subarray(0, max)), truncated: total > max };
}

/**
 * The body until it ends or `stopAt` bytes are in hand (then it is
 * cancelled): its bytes (at most `stopAt` of them, or none when it reached
 * `stopAt` and `keepOver` is false) and the count read.
 *
 * A byte stream (a network answer) is read into buffers of our own: the
 * announced length (plus one byte, to see a longer body) when `size` is
 * given, else 64 KiB doubling. Read by the default reader, each chunk of
 * Deno's fetch is a view of a fresh 64 KiB buffer that V8 frees only at a
 * full collection: 400 small detail answers left about 25 MiB of such
 * garbage behind (`hydrate`), which a long-lived kernel keeps as RSS.
 * Other streams are read chunk by chunk, and a chunk that is a small view
 * of a larger buffer is copied before it is kept (keeping the views kept
 * 16 times the bytes alive).
 */
async function readUpTo(
  res: Response,
  stopAt: number,
  label: string,
  keepOver = false,
  gate?: LargeBodyGate,
  size?: number,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; total: number }> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let release: (() => void) | undefined;
  let own: ReadableStreamBYOBReader | undefined;
  if (res.body) {
    own = byobReader(res.body);
    const reader = own ?? res.body.getReader();
    // the buffer `own` reads into, and the bytes of it filled
    let buf = new Uint8Array(0);
    let off = 0;
    try {
      while (total < stopAt) {
        if (gate && !release && total > LARGE_BODY_BYTES) release = await gate.acquire();
        if (own) {
          if (off === buf.length) {
            if (off) chunks.push(buf);
            const want = total === 0 && size !== undefined ? size + 1 : Math.max(65_536, total);
            buf = new Uint8Array(Math.min(want, stopAt - total));
            off = 0;
          }
          const r = await own.read(buf.subarray(off));
          // the buffer is handed back (transferred) with every answer
          if (r.value) buf = new Uint8Array(r.value.buffer as ArrayBuffer);
          if (r.done) break;
          off += r.value.length;
          total += r.value.length;
          continue;
        }
        const r = await (reader as ReadableStreamDefaultReader<Uint8Array>).read();
        if (r.done) break;
        const chunk: unknown = r.value;
        if (!(chunk instanceof Uint8Array)) {
          throw new InvalidResponseError(
            `${label}: the body gave ${chunk === null ? "null" : typeof chunk}, not bytes`,
          );
        }
        chunks.push(chunk.buffer.byteLength > 2 * chunk.length + 1024 ? chunk.slice() : chunk);
        total += chunk.length;
      }
      if (off) chunks.push(buf.subarray(0, off));
    } finally {
      // ends the download at once when we stopped early; a no-op after the end
      reader.cancel().catch(() => {});
      release?.();
    }
  }
  if (total >= stopAt && !keepOver) return { bytes: new Uint8Array(0), total };
  // one buffer of our own holds the whole body: no copy
  if (own && chunks.length === 1) return { bytes: chunks[0] as Uint8Array<ArrayBuffer>, total };
  const bytes = new Uint8Array(Math.min(total, stopAt));
  let off = 0;
  for (const c of chunks) {
    const part = c.subarray(0, bytes.length - off);
    bytes.set(part, off);
    off += part.length;
  }
  return { bytes, total };
}

/** A reader into buffers of our own, for a byte stream; undefined for any other stream. */
function byobReader(body: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | undefined {
  try {
    return body.getReader({ mode: "byob" });
  } catch {
    return undefined;
  }
}

/**
 * V8's JSON error without its quote of the text: `Unexpected token 's',
 * "sk-live-7f"... is not valid JSON` quotes 10 characters, which no
 * redactor can recognise as part of a key; this gives `Unexpected token 's'`.
 */
export function jsonProblem(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.replace(/,\s*"(?:[^"\\]|\\.)*"(?:\.\.\.)?\s*is not valid JSON$/, "");
}
