/**
 * Saving a downloaded document safely: the server's filename is sanitised
 * (no path separators, no `..`, no control or bidirectional-override
 * characters, no leading dots, at most 255 bytes of UTF-8 — the limit of
 * common file systems — cut between characters, keeping a short extension),
 * the file always lands inside `dir`, an existing file is never overwritten
 * silently (a numbered name is chosen instead, unless `overwrite` is set), and
 * the bytes are streamed to a temporary file and renamed, so a crash never
 * leaves a half file and a large document never sits in memory.
 *
 * @module
 */
import { basename, join, resolve, sep } from "node:path";
import { InvalidResponseError, RequestValidationError } from "../http/errors.ts";
import { announcedLength, ResponseTooLargeError } from "../http/_body.ts";
import { showValue } from "../shared/schema.ts";
import { notAllowed } from "../http/_validate.ts";
import type { DocumentInfo } from "./types.ts";

/** The longest file name written, in bytes of UTF-8. */
export const MAX_NAME_BYTES = 255;

const encoder = new TextEncoder();
const bytesOf = (s: string) => encoder.encode(s).length;

/**
 * `s` cut to at most `max` bytes of UTF-8, never inside a character:
 * `encodeInto` writes whole code points only (a surrogate pair stays whole)
 * and says how much of `s` it read.
 */
function cutBytes(s: string, max: number): string {
  return s.slice(0, encoder.encodeInto(s, new Uint8Array(Math.max(max, 0))).read);
}

/** `stem + suffix + ext` within {@link MAX_NAME_BYTES}, the stem cut first. */
function fitName(stem: string, suffix: string, ext: string): string {
  const room = MAX_NAME_BYTES - bytesOf(suffix) - bytesOf(ext);
  return cutBytes(stem, room).replace(/[\s.]+$/, "") + suffix + ext;
}

/** Splits a safe name into stem and extension (an extension is at most 16 bytes). */
function splitExt(name: string): [string, string] {
  const dot = name.lastIndexOf(".");
  if (dot <= 0 || bytesOf(name.slice(dot)) > 16) return [name, ""];
  return [name.slice(0, dot), name.slice(dot)];
}

/**
 * A safe file name from an untrusted one. Throws a `TypeError` naming the
 * value when it is not a string.
 *
 * @example
 * ```ts
 * import { sanitizeFilename } from "./download.ts";
 * sanitizeFilename("../../etc/passwd"); // "passwd"
 * sanitizeFilename("a\u0000b.pdf"); // "a_b.pdf"
 * sanitizeFilename("invoice\u202Efdp.exe"); // "invoicefdp.exe"
 * ```
 */
export function sanitizeFilename(name: string): string {
  if (typeof name !== "string") {
    const shown = name === null || name === undefined
      ? String(name)
      : `${showValue(name)} (${Array.isArray(name) ? "an array" : `a ${typeof name}`})`;
    throw new TypeError(
      `filename ${shown} is not allowed; allowed: a string (the document's file name)`,
    );
  }
  // bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C) are removed
  let s = name.replace(/[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g, "");
  // deno-lint-ignore no-control-regex -- control characters are exactly what is replaced
  s = s.replace(/[\u0000-\u001f\u007f-\u009f]/g, "_");
  s = s.split(/[\\/]/).filter((p) => p !== "").pop() ?? "";
  s = s.replace(/\.\.+/g, ".").replace(/^[.\s]+/, "").replace(/[\s.]+$/, "");
  s = s.replace(/[<>:"|?*]/g, "_");
  if (bytesOf(s) > MAX_NAME_BYTES) {
    const [stem, ext] = splitExt(s);
    s = fitName(stem, "", ext);
  }
  return s === "" || s.startsWith(".") ? "document" : s;
}

/**
 * Writes a stream of chunks, as they arrive, under `dir` with a sanitised
 * name; returns the path written.
 */
export async function saveUnder(
  dir: string,
  filename: string,
  chunks: AsyncIterable<Uint8Array>,
  overwrite: boolean,
): Promise<string> {
  const safe = sanitizeFilename(filename);
  const root = resolve(dir);
  await Deno.mkdir(root, { recursive: true });
  const [stem, ext] = splitExt(safe);
  const tmp = join(root, `.${crypto.randomUUID()}.part`);
  try {
    const file = await Deno.open(tmp, { write: true, createNew: true });
    try {
      for await (const chunk of chunks) {
        for (let off = 0; off < chunk.length;) off += await file.write(chunk.subarray(off));
      }
      await file.sync().catch(() => {});
    } finally {
      file.close();
    }
    for (let n = 0; n < 10_000; n++) {
      const target = resolve(join(root, n === 0 ? safe : fitName(stem, `-${n}`, ext)));
      if (!target.startsWith(root + sep) || basename(target) === "") {
        throw new Error(`refusing to write outside ${root}`);
      }
      try {
        if (overwrite) await Deno.rename(tmp, target);
        else await Deno.link(tmp, target); // fails if the name exists: no clobbering, no race
        return target;
      } catch (e) {
        if (!overwrite && e instanceof Deno.errors.AlreadyExists) continue;
        throw e;
      }
    }
  } finally {
    await Deno.remove(tmp).catch(() => {});
  }
  throw new Error(`no free file name for ${safe} in ${root}`);
}

/**
 * The most of a signed URL's life kept in hand for the trip to the file
 * host: 5 s, or half the life when it is shorter than 10 s.
 */
export const SIGNED_URL_MARGIN_MS = 5_000;

/**
 * A signing answer whose URL is still good to use: its life
 * (`expires_in_seconds`) is counted from when the signing request was sent,
 * less {@link SIGNED_URL_MARGIN_MS}. An answer already past that (a zero or
 * tiny lifetime, a slow answer) is signed again once; a second one is an
 * `InvalidResponseError`, and its URL is never fetched. An answer without a
 * numeric `expires_in_seconds` is used at once. (Signing answers are never
 * cached, so a URL is at most one round trip old when its download starts.)
 *
 * @example
 * ```ts
 * import { signFresh } from "./download.ts";
 * const doc = await signFresh(async () => ({
 *   url: "https://files.test/a.pdf", format: "pdf", artifact: null, snapshot: "s",
 *   filename: "a.pdf", expires_in_seconds: 300,
 * }), "p1");
 * console.log(doc.url); // https://files.test/a.pdf
 * ```
 */
export async function signFresh(
  sign: () => Promise<DocumentInfo>,
  id: string,
): Promise<DocumentInfo> {
  for (let attempt = 0;; attempt++) {
    const sentAt = Date.now();
    const doc = await sign();
    const life = (doc as { expires_in_seconds?: unknown } | null)?.expires_in_seconds;
    if (typeof life !== "number" || !Number.isFinite(life)) return doc;
    const lifeMs = life * 1000;
    if (Date.now() < sentAt + lifeMs - Math.min(SIGNED_URL_MARGIN_MS, lifeMs / 2)) return doc;
    if (attempt >= 1) {
      throw new InvalidResponseError(
        `GET /pitches/${
          encodeURIComponent(id)
        }/document: the signed URL had expired before it could be used (expires_in_seconds ${life}, twice); it was not fetched`,
      );
    }
  }
}

/**
 * The default largest document `download()` saves: 1 GiB. Archived write-ups
 * and attachments are a few MB; the bound keeps a server that sends without
 * end from filling the disk.
 */
export const DEFAULT_MAX_DOWNLOAD_BYTES = 1024 ** 3;

/** `maxBytes` of a download, checked before any request. */
export function checkMaxBytes(v: unknown): number {
  if (v === undefined) return DEFAULT_MAX_DOWNLOAD_BYTES;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 1) {
    const otherwise = `default ${DEFAULT_MAX_DOWNLOAD_BYTES.toLocaleString("en-US")}, 1 GiB`;
    throw new RequestValidationError([
      notAllowed("maxBytes", v, `a whole number of bytes from 1 (${otherwise})`),
    ]);
  }
  return v;
}

/**
 * The chunks of a document, or a {@link ResponseTooLargeError} as soon as
 * they pass `maxBytes` (or at once when its `Content-Length` does); the
 * partial file is then removed by `saveUnder`.
 */
export async function* boundedChunks(
  res: Response,
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
  label: string,
): AsyncGenerator<Uint8Array> {
  const announced = announcedLength(res);
  if (announced !== undefined && announced > maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw new ResponseTooLargeError(label, maxBytes, announced, true, "maxBytes");
  }
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.length;
    if (total > maxBytes) {
      throw new ResponseTooLargeError(label, maxBytes, total, false, "maxBytes");
    }
    yield chunk;
  }
}
