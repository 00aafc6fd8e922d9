/**
 * A local response cache for the paid services: `cache: { dir, ttlMs }` on
 * `connect()`, `CatalogClient` and `InsiderClient`.
 *
 * - What is cached: successful (2xx) answers to GET requests and to the
 *   read-only `POST /search`, keyed by method, URL and body (SHA-256). The
 *   API key is not part of the key and is never written: entries hold the
 *   method, URL, status, content type and body only. One cache folder is
 *   therefore shared by every key that uses it; keep it per user.
 * - Not cached: document signing (`/pitches/{id}/document`), whose answer
 *   is a short-lived signed URL (see {@link isSigning}); and an answer whose
 *   body holds an API key, in any form the redactor knows (`_redact.ts`:
 *   raw, another case, hex, URL-encoded, JSON-escaped, base64): the
 *   client's own key, or any key a client of this process was made with. A
 *   service that echoes the key in a `200` body gets it written nowhere on
 *   disk; the answer is still returned, and counted in `notStored`.
 * - Lifetime: `ttlMs` (default 24 h). When the service sends
 *   `Cache-Control: no-store` (or `no-cache`) the answer is not stored; with
 *   `max-age=N` it lives the shorter of N seconds and `ttlMs`. The reader's
 *   `ttlMs` caps an entry's age too: a client with `ttlMs: 1000` never gets
 *   an answer older than a second, whoever stored it and for how long.
 * - Safety: an entry is a JSON header line (with the body's length and
 *   SHA-256) followed by the body, written to a temporary file and renamed
 *   into place, so concurrent processes never see a half entry and the last
 *   writer wins with a whole one. An entry whose length or checksum does
 *   not match (a truncated or corrupted file) is removed and fetched again.
 * - Only regular files are read: anything else at an entry's path (a FIFO,
 *   a folder, a device, a symbolic link) is a miss and never blocks the
 *   reader (opened with `O_NOFOLLOW | O_NONBLOCK`), and so is a file larger
 *   than the client's `maxResponseBytes` (plus 64 KiB for its header): it
 *   is never read whole. Such an entry is removed (a link, not its target).
 * - The header is checked like the body: a status outside 200–299, a
 *   content type that is not a short header value, or times that are not
 *   numbers make the entry corrupt (removed and fetched again), never a
 *   `TypeError` or `RangeError`. An entry stored later than now (a clock
 *   set back, or a forged file) is a miss, whatever `ttlMs` says, and is
 *   removed. Temporary files older than {@link STALE_TEMP_MS} (left by a
 *   process killed mid-write) are removed, once per folder and process, at
 *   its first read or write.
 * - A folder that cannot be written (read-only, full, not a folder) does not
 *   fail the request: it is said once per folder and process on stderr
 *   (`signalbook: cannot write the response cache in …`), and each later
 *   write is tried again.
 * - Visibility: each hit or miss is announced on `httpEvents` (`cache`
 *   events, which progress displays count) and counted in
 *   {@link cacheStats}.
 * - Off by default; `cache: false` (or leaving it out) turns it off. It is
 *   not on by default because a cache changes what a live service appears to
 *   say (for up to a day) and must live somewhere the user chose.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { z } from "npm:@hono/zod-openapi@1.6.3";
import { httpEvents } from "./events.ts";
import { knownKeys } from "./_redact.ts";
import { NULL_BODY, rebuilt } from "./_transport_parts.ts";
import { readRegular } from "../shared/regular_file.ts";
import { atomic, removeStaleTemps } from "../shared/atomic.ts";
import { intOption, optionProblem } from "../shared/options.ts";

/** Room for an entry's header line on top of its body's cap. */
const HEADER_SLACK = 64 * 1024;

/** Options of the response cache. */
export interface CacheOptions {
  /** Folder of the entries (created when needed). */
  dir: string;
  /** Lifetime of an entry in ms (default 86,400,000: 24 h). */
  ttlMs?: number;
}

/** Counters of {@link cacheStats}. */
export interface CacheStats {
  /** Answers served from the cache. */
  hits: number;
  /** Cacheable requests sent to the service (no fresh entry). */
  misses: number;
  /** Entries written. */
  stores: number;
  /** Answers not stored because the service said `no-store` / `no-cache`, or the body held a key. */
  notStored: number;
  /** Entries found corrupt or half-written (removed and fetched again). */
  corrupt: number;
}

/** What a `cache` event on `httpEvents` carries. */
export interface CacheEventDetail {
  /** Served from the cache. */
  hit: boolean;
  /** Method and path. */
  request: string;
}

const DAY_MS = 86_400_000;

/**
 * Age after which a cache temporary file is taken as orphaned: 10 minutes
 * (a write takes milliseconds; the margin covers slow disks and clock steps).
 */
export const STALE_TEMP_MS = 10 * 60_000;

/** Folders swept for orphaned temporary files, and folders already said to be unwritable. */
const swept = new Set<string>();
const warned = new Set<string>();
const totals: CacheStats = { hits: 0, misses: 0, stores: 0, notStored: 0, corrupt: 0 };

/**
 * The cache counters of this process (all caches together) since it started
 * or since `cacheStats({ reset: true })`.
 *
 * @example
 * ```ts
 * import { cacheStats, connect } from "../../mod.ts";
 * const dir = await Deno.makeTempDir();
 * const { catalog } = await connect({ cache: { dir } });
 * await catalog.tags();
 * await catalog.tags(); // served from the cache
 * console.log(cacheStats()); // { hits: 1, misses: 1, stores: 1, notStored: 0, corrupt: 0 }
 * ```
 */
export function cacheStats(opts: { reset?: boolean } = {}): CacheStats {
  const now = { ...totals };
  if (opts.reset) { for (const k of Object.keys(totals) as (keyof CacheStats)[]) totals[k] = 0; }
  return now;
}

/**
 * An entry's header line, checked like its body: what can make a Response
 * (a 2xx status that has a body, a short content type that is a header
 * value, times that are numbers).
 */
const ENTRY_HEADER = z.object({
  v: z.literal(1),
  method: z.string(),
  url: z.string(),
  status: z.number().int().min(200).max(299).refine((s) => !NULL_BODY.has(s)),
  contentType: z.string().max(200).regex(/^[\x20-\x7e]*$/).nullable(),
  storedAt: z.number(),
  expiresAt: z.number(),
  length: z.number(),
  sha256: z.string(),
});
type EntryHeader = z.infer<typeof ENTRY_HEADER>;

const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

/** A cache key: what identifies one cacheable request. */
export interface CacheKey {
  /** Method and path, for events. */
  request: string;
  /** Method. */
  method: string;
  /** Full URL (never holds the key: it travels in a header). */
  url: string;
  /** Entry file (named by the SHA-256 of the method, the URL and the body's SHA-256). */
  file: string;
}

/**
 * A response cache in a folder (see the module doc). Transports use it; you
 * normally only pass `cache: { dir, ttlMs }` to a client or `connect()`.
 *
 * @example
 * ```ts
 * import { ResponseCache } from "./cache.ts";
 * const cache = new ResponseCache({ dir: await Deno.makeTempDir(), ttlMs: 60_000 });
 * const key = cache.keyFor("GET", "/tags", "https://host/catalog/api/v1/tags", undefined)!;
 * await cache.put(key, new Response('{"data":[]}', { status: 200 }));
 * console.log(await (await cache.get(key))?.text()); // {"data":[]}
 * ```
 */
export class ResponseCache {
  /** Entry folder. */
  readonly dir: string;
  /** Default lifetime, ms. */
  readonly ttlMs: number;
  /** Largest body read from an entry (the client's `maxResponseBytes`). */
  readonly maxBodyBytes: number;

  /**
   * Opens (lazily creates) a cache; entries whose body is over
   * `maxBodyBytes` are never read; bodies holding any key registered in this
   * process (every client's key long enough to be searched for) are never written.
   */
  constructor(opts: CacheOptions, maxBodyBytes = 256 << 20) {
    if (!opts || typeof opts.dir !== "string" || opts.dir.trim() === "") {
      throw new TypeError(optionProblem("cache.dir", opts?.dir, "a folder path (or cache: false)"));
    }
    this.dir = opts.dir;
    this.ttlMs = intOption("cache.ttlMs", opts.ttlMs ?? DAY_MS, 1, 365 * DAY_MS);
    this.maxBodyBytes = maxBodyBytes;
  }

  /**
   * The key of a request, or undefined when it is not cacheable (only GET
   * and the read-only `POST /search` are, and never a document signing
   * answer: see {@link isSigning}).
   */
  keyFor(
    method: string,
    path: string,
    url: string,
    body: string | undefined,
  ): CacheKey | undefined {
    if (method !== "GET" && !(method === "POST" && path === "/search")) return undefined;
    if (isSigning(path)) return undefined;
    const bodySha256 = body === undefined ? "" : sha256(body);
    const id = sha256(`${method}\n${url}\n${bodySha256}`);
    return {
      request: `${method} ${path}`,
      method,
      url,
      file: join(this.dir, "v1", id.slice(0, 2), `${id}.entry`),
    };
  }

  /** A fresh, whole entry as a Response (a hit), or null (a miss). */
  async get(key: CacheKey): Promise<Response | null> {
    await this.#sweepOnce();
    const hit = await this.#read(key);
    if (hit) totals.hits++;
    else totals.misses++;
    httpEvents.dispatchEvent(
      new CustomEvent<CacheEventDetail>("cache", { detail: { hit: !!hit, request: key.request } }),
    );
    return hit;
  }

  async #read(key: CacheKey): Promise<Response | null> {
    let header: EntryHeader;
    let body: Uint8Array<ArrayBuffer>;
    try {
      // only a regular file within the cap: a FIFO would block, a huge file fill the memory
      const bytes = await readRegular(key.file, this.maxBodyBytes + HEADER_SLACK);
      const nl = bytes.indexOf(10);
      header = ENTRY_HEADER.parse(JSON.parse(new TextDecoder().decode(bytes.subarray(0, nl))));
      body = bytes.slice(nl + 1);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return null;
      return await this.#drop(key);
    }
    const now = Date.now();
    // stored later than now: a clock set back or a forged entry, never fresh
    if (body.length !== header.length || sha256(body) !== header.sha256 || header.storedAt > now) {
      return await this.#drop(key);
    }
    // the reader's ttlMs caps the age
    if (now >= header.expiresAt || !(now - header.storedAt < this.ttlMs)) return null;
    // (the header's schema admits only what makes a Response)
    return new Response(body, {
      status: header.status,
      headers: header.contentType ? { "content-type": header.contentType } : {},
    });
  }

  /** Counts and removes a corrupt or unreadable entry (a link itself, never its target): a miss. */
  async #drop(key: CacheKey): Promise<null> {
    totals.corrupt++;
    await Deno.remove(key.file).catch(() => {});
    return null;
  }

  /** Sweeps this folder's orphaned temporary files, once per folder and process. */
  async #sweepOnce(): Promise<void> {
    if (swept.has(this.dir)) return;
    swept.add(this.dir);
    // by age alone: the folder may be shared with other hosts, whose pids mean nothing here;
    // errors (a folder that vanished, no permission) are ignored: sweeping is housekeeping
    await removeStaleTemps(join(this.dir, "v1"), { maxAgeMs: STALE_TEMP_MS }).catch(() => {});
  }

  /**
   * Stores a successful answer (unless the service forbids it) and returns
   * an equivalent Response to use in its place.
   */
  async put(key: CacheKey, res: Response): Promise<Response> {
    // (204 and 205 carry no body: nothing worth a file, and not a valid entry)
    if (res.status < 200 || res.status >= 300 || NULL_BODY.has(res.status)) return res;
    const body = new Uint8Array(await res.arrayBuffer());
    const copy = rebuilt(res, body);
    const lifetime = lifetimeMs(res.headers.get("cache-control"), this.ttlMs);
    // the body, read as text, holding a key in any form the matcher knows: never written
    if (lifetime <= 0 || knownKeys.holds(new TextDecoder().decode(body))) {
      totals.notStored++;
      return copy;
    }
    const now = Date.now();
    const header: EntryHeader = {
      v: 1,
      method: key.method,
      url: key.url,
      status: res.status,
      contentType: res.headers.get("content-type"),
      storedAt: now,
      expiresAt: now + lifetime,
      length: body.length,
      sha256: sha256(body),
    };
    const entry = new Blob([JSON.stringify(header) + "\n", body]);
    try {
      await this.#sweepOnce();
      // written beside its place and renamed into it: no reader ever sees half an entry
      await atomic(key.file, (tmp) => Deno.writeFile(tmp, entry.stream()));
      totals.stores++;
    } catch (e) {
      // a cache that cannot be written must not fail the request it would have saved
      if (!warned.has(this.dir)) {
        warned.add(this.dir);
        console.warn(
          `signalbook: cannot write the response cache in ${this.dir} (${
            e instanceof Error ? e.message : String(e)
          }); answers are not being cached`,
        );
      }
    }
    return copy;
  }
}

/**
 * Whether a path signs a document (`/pitches/{id}/document`). Its answer is
 * a fresh credential: a URL that expires after `expires_in_seconds` (300 s
 * on the emulator) with that lifetime written in the body. It is never
 * cached: a cached answer would hand out a URL that has expired, or whose
 * `expires_in_seconds` is no longer true, and signing costs one small
 * request next to the download it enables.
 */
export function isSigning(path: string): boolean {
  return /^\/pitches\/[^/]+\/document$/.test(path.split("?")[0]);
}

/** The lifetime an answer may be kept: 0 for no-store/no-cache, else min(max-age, ttl). */
export function lifetimeMs(cacheControl: string | null, ttlMs: number): number {
  if (!cacheControl) return ttlMs;
  const cc = cacheControl.toLowerCase();
  if (/(^|[,\s])(no-store|no-cache)([,\s=]|$)/.test(cc)) return 0;
  const m = /(^|[,\s])max-age\s*=\s*"?(\d+)"?/.exec(cc);
  return m ? Math.min(Number(m[2]) * 1000, ttlMs) : ttlMs;
}
