/**
 * `checkServices()`: the live contract check behind `deno task doctor`.
 *
 * With `PITCH_API_KEY`/`PITCH_BASE_URL` and `INSIDER_API_KEY`/
 * `INSIDER_BASE_URL` set, it makes ten cheap calls, one at a time: on the
 * catalog one small page of pitches (3 rows), one pitch detail, one document
 * signing (JSON form, nothing downloaded), the tag vocabulary, the filter
 * sets and one entity search; on the insider service one small page of trade
 * search (3 rows), one small feed page (2 rows), one transaction detail
 * and one owner lookup; and on each service one `404` on purpose (an id
 * that does not exist), to see the form of its problem `type`. A service whose key is not
 * set is checked against the in-process emulator, and the report says so.
 *
 * For each call it records the latency, the HTTP statuses, the rate-limit
 * headers seen (any header naming a rate limit or quota, and
 * `Retry-After`), and the form the client recognised at each point the
 * specs leave open (the `shape` events of the envelope readers). For rows
 * with a field catalog (pitch rows, search rows, the transaction detail) it
 * reports field coverage: catalog fields found, missing, extra keys, the
 * coercions the client made (its frame report, see `frames/_report.ts`),
 * and values the service sent that are null in the client's frame.
 *
 * Problems (each one line in `problems`, and `ok: false`): a call that
 * failed (an answer the client cannot read, a refused key, a timeout), a
 * catalog field missing from rows (the specs make every one a required
 * key), and a value that did not reach the frame. Coercions and extra keys
 * are reported, not problems. Decisions where the issue is silent: calls
 * use one retry and a 15 s timeout, so a dead service fails fast; a call
 * that needs an earlier one's answer (detail, signing, lookup) is skipped
 * with the reason when that one failed; signing picks the first unlocked
 * pitch of the page with an archive and is skipped when there is none.
 *
 * The cause first ({@link Diagnosis}, see `_diagnosis.ts`): when every call
 * of a service answered `401`, `403` or `404`, or got no answer, the report
 * names the cause and what to check (`INSIDER_API_KEY`, Premium,
 * `INSIDER_BASE_URL` with the URL tried, the host) as that service's one
 * problem, with the failed calls folded under it as symptoms. A refused key
 * is never reported as a route problem: the 404 on purpose under a `401` or
 * `403` says the key was refused and the 404 form went unchecked.
 *
 * Bounded: every body the doctor reads itself (to show the form an answer
 * took) is a copy read through the client's bounded reader (`http/_body.ts`:
 * 16 MiB for a `2xx`, the first 16 KiB of an error), beside the client's own
 * bounded reading; a gzip bomb or an endless body stops at the bound and
 * is a finding (the call's `ResponseTooLargeError`), never an out-of-memory.
 *
 * Keys never appear in the report: the clients never put them in messages,
 * and every string of the report is scrubbed of both keys besides.
 *
 * @module
 */
import { redactError, redactKnownKeys, redactorFor } from "../http/_redact.ts";
import { DEFAULT_MAX_RESPONSE_BYTES, readBody, readPrefix } from "../http/_body.ts";
import { connect, type ConnectOptions } from "../connect.ts";
import { envKeys, type EnvSource, readEnvironment } from "../connect/env.ts";
import { httpEvents, type ShapeInfo } from "../http/events.ts";
import { AuthenticationError, NotFoundError, PermissionDeniedError } from "../http/errors.ts";
import type { FetchLike } from "../http/transport.ts";
import { PITCH_COLUMNS, pitchesFrame } from "../catalog/pitch_frames.ts";
import { TRANSACTION_FIELDS } from "../insider/fields.ts";
import { transactionsFrame } from "../insider/transaction_frames.ts";
import type { FeedRow } from "../insider/feeds.ts";
import { KeyIndex } from "../shared/field_keys.ts";
import { coverage, type DeclaredField, type FieldCoverage, firstFew } from "./_coverage.ts";
import { diagnose, type Diagnosis, oneLine } from "./_diagnosis.ts";
import type { FrameReport } from "../frames/mod.ts";
import type pl from "npm:nodejs-polars@0.25.2";
import type { CatalogClient } from "../catalog/client.ts";
import type { InsiderClient } from "../insider/client.ts";

export type { Coercion, FieldCoverage } from "./_coverage.ts";
export type { Diagnosis } from "./_diagnosis.ts";

/** Options of {@link checkServices}. */
export interface CheckOptions {
  /** The environment: a lookup or a record (default the process environment; see `connect()`). */
  env?: EnvSource;
  /** The `fetch` live services are reached with (default `globalThis.fetch`). */
  fetch?: FetchLike;
  /** Options of the in-process emulator, when a key is not set (e.g. `{ dialect: "all" }`). */
  stub?: ConnectOptions["stub"];
  /** Per-attempt timeout of each call, ms (default 15,000). */
  timeoutMs?: number;
}

/** One call of the check. */
export interface CallReport {
  /** What the call is for, e.g. `pitch list page`. */
  name: string;
  /** Method and path template, e.g. `GET /pitches/{id}`. */
  endpoint: string;
  /** True when the client read the answer (or the call was skipped for a reason). */
  ok: boolean;
  /** Why the call was not made, when it was not. */
  skipped?: string;
  /** The error, one line, when it failed. */
  error?: string;
  /** The error's class name (`AuthenticationError`, `ConnectionError`, …), when it failed. */
  errorName?: string;
  /** Wall time of the call, ms (all its requests, retries included). */
  ms: number;
  /** HTTP status of each request the call made. */
  statuses: number[];
  /** The form the client recognised at each open point (see `ShapeInfo`). */
  shapes: { point: string; shape: string }[];
  /** Field coverage of the rows, for rows with a field catalog. */
  coverage?: FieldCoverage;
  /** A short summary of what came back, e.g. `14 tag types, 310 slugs`. */
  summary?: string;
  /** True for the call that must answer `404` (an id that does not exist, on purpose). */
  probe?: boolean;
}

/** The check of one service. */
export interface ServiceReport {
  /** Which service. */
  service: "catalog" | "insider";
  /** True when checked against the in-process emulator (no key set). */
  offline: boolean;
  /** Base URL (live), or `in-process emulator`. */
  target: string;
  /** The calls, in order. */
  calls: CallReport[];
  /** Rate-limit headers seen (lower-case name → last value); empty when none. */
  rateLimitHeaders: Record<string, string>;
}

/** The result of {@link checkServices}. */
export interface ServicesReport {
  /** True when the client understood every answer (no problems). */
  ok: boolean;
  /**
   * One line per problem; a diagnosed service's cause comes first, as one
   * line, and its symptoms are not repeated here (see `diagnoses`).
   */
  problems: string[];
  /**
   * The cause, per service whose every call failed alike (a wrong key, a
   * lapsed membership, a base URL without its service path, an unreachable
   * host), with the problems that follow from it folded under it.
   */
  diagnoses: Diagnosis[];
  /** Both services, catalog first. */
  services: ServiceReport[];
}

const RATE_HEADER = /rate-?limit|quota|retry-after/i;

interface Capture {
  statuses: number[];
  bodies: unknown[];
  /** Copies of bodies still being read (see {@link readCopy}). */
  reading: Promise<void>[];
  shapes: ShapeInfo[];
}

/**
 * The JSON of a copy of an answer, read through the client's bounded reader
 * (`http/_body.ts`): a `2xx` body up to `DEFAULT_MAX_RESPONSE_BYTES` (16 MiB),
 * an error body up to its first `ERROR_PREFIX_BYTES` (16 KiB); undefined past
 * the bound (the rest is never downloaded: a gzip bomb or an endless body
 * stops there), or when it is not JSON. The client, reading its own copy
 * under the same bound, fails the call with a `ResponseTooLargeError`: that
 * is the finding.
 */
async function readCopy(res: Response): Promise<unknown> {
  try {
    const text = res.ok
      ? new TextDecoder().decode(await readBody(res, DEFAULT_MAX_RESPONSE_BYTES, "doctor"))
      : await readPrefix(res, "doctor").then((p) => (p.truncated ? undefined : p.text));
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    await res.body?.cancel().catch(() => {});
    return undefined;
  }
}

const SEARCH_FIELDS: DeclaredField[] = TRANSACTION_FIELDS.map((f) => ({
  name: f.name,
  wire: f.camel,
}));

/**
 * The raw rows of an answer, where the client's reader said it found them:
 * a list (its `list container`), or a detail's one row (its `detail envelope`).
 */
function rawRows(body: unknown, shapes: readonly ShapeInfo[]): Record<string, unknown>[] {
  const where = shapes.find((s) => /^(list container|detail envelope)$/.test(s.point))?.shape;
  // a JSON path such as "data.items", `wrapped in "transaction"`, or the body itself (bare)
  const key = where?.replace(/^wrapped in /, "");
  const path = key && !key.startsWith("bare") ? String(JSON.parse(key)).split(".") : [];
  const found = path.reduce((o: unknown, k) => (o as Record<string, unknown> | null)?.[k], body);
  return (Array.isArray(found) ? found : [found])
    .filter((r): r is Record<string, unknown> => typeof r === "object" && r !== null);
}

/**
 * Checks both services (live where a key is set, else the in-process
 * emulator) and reports what each answered at every point the specs leave
 * open, field coverage, rate-limit headers and latency.
 *
 * @example
 * ```ts
 * import { checkServices } from "./check.ts";
 * const report = await checkServices({ env: () => undefined }); // no keys: the emulator
 * console.log(report.ok, report.services.map((s) => s.offline)); // true [ true, true ]
 * ```
 */
export async function checkServices(opts: CheckOptions = {}): Promise<ServicesReport> {
  // each key as the client reads it (trimmed), hidden in every form a redactor knows
  const keys = envKeys(readEnvironment(opts.env));
  const redactors = keys.map((k) => redactorFor(k));
  const scrub = (s: string) =>
    scrubKeys(redactors.reduce((t, r) => r(t), redactKnownKeys(s)), keys);
  const rec = new Calls();
  const conn = await connect({
    env: opts.env,
    fetch: opts.fetch,
    stub: opts.stub,
    quiet: true,
    maxRetries: 1,
    timeoutMs: opts.timeoutMs ?? 15_000,
    instrument: rec.instrument,
  });
  httpEvents.addEventListener("shape", rec.onShape);
  const calls = { catalog: [] as CallReport[], insider: [] as CallReport[] };
  try {
    await checkCatalog(rec, conn.catalog, calls.catalog);
    await checkInsider(rec, conn.insider, calls.insider);
  } finally {
    httpEvents.removeEventListener("shape", rec.onShape);
  }
  const services = (["catalog", "insider"] as const).map((service): ServiceReport => ({
    service,
    offline: conn.offline[service],
    target: conn.offline[service] ? "in-process emulator" : conn[service].baseUrl,
    calls: calls[service],
    rateLimitHeaders: rec.rate[service],
  }));
  // the cause first: a service whose every call failed alike gets one diagnosis,
  // and its problems become that diagnosis' symptoms
  const diagnoses: Diagnosis[] = [];
  const problems = services.flatMap((s) => {
    const own = s.calls.flatMap((c) => problemsOf(s.service, c));
    const d = diagnose(s, s.offline ? undefined : conn[s.service].baseUrl);
    if (!d) return own;
    diagnoses.push({ ...d, symptoms: own });
    return [d.message];
  });
  // errors, shapes, headers, field names and lookup values come from the servers: no key goes
  // out in any of them (text, --json or this object), whatever field of the report holds it;
  // one pass over the finished report
  return redactError({ ok: problems.length === 0, problems, diagnoses, services }, scrub);
}

/**
 * The calls of one check: each call's latency, statuses, bodies (a bounded
 * copy, see {@link readCopy}) and shapes, and the rate-limit headers seen
 * (scrubbed of the keys with the rest of the report).
 */
class Calls {
  /** The capture of the call in progress. */
  #current: Capture | undefined;
  /** Rate-limit headers seen, per service. */
  readonly rate: Record<"catalog" | "insider", Record<string, string>> = {
    catalog: {},
    insider: {},
  };

  /** Wraps each service's fetch: statuses, headers and a copy of each JSON body. */
  readonly instrument: ConnectOptions["instrument"] = (fetch, service) => async (input, init) => {
    const res = await fetch(input, init);
    for (const [k, v] of res.headers) {
      if (RATE_HEADER.test(k)) this.rate[service][k] = v;
    }
    const cap = this.#current;
    if (cap) {
      cap.statuses.push(res.status);
      const type = res.headers.get("content-type") ?? "";
      if (type.includes("json") && res.body) {
        // a copy read beside the client's own reading, never awaited here (the client's
        // timeouts stay in force) and bounded like the client's (see readCopy)
        const slot = cap.bodies.push(undefined) - 1;
        cap.reading.push(readCopy(res.clone()).then((body) => void (cap.bodies[slot] = body)));
      }
    }
    return res;
  };

  /** Records the shape events of the call in progress. */
  readonly onShape = (e: Event): void => {
    this.#current?.shapes.push((e as CustomEvent<ShapeInfo>).detail);
  };

  /** Runs one call, recording it in `list`; `after` reads its value (a throw there fails the call). */
  async call<T>(
    list: CallReport[],
    name: string,
    endpoint: string,
    run: () => Promise<T>,
    after?: (value: T, cap: Capture, report: CallReport) => void,
  ): Promise<T | undefined> {
    const cap: Capture = { statuses: [], bodies: [], reading: [], shapes: [] };
    const report: CallReport = { name, endpoint, ok: true, ms: 0, statuses: [], shapes: [] };
    list.push(report);
    this.#current = cap;
    const t0 = performance.now();
    let value: T | undefined;
    try {
      try {
        value = await run();
      } finally {
        report.ms = Math.round(performance.now() - t0);
        this.#current = undefined;
        await Promise.all(cap.reading);
      }
      after?.(value as T, cap, report);
    } catch (e) {
      report.ok = false;
      report.error = oneLine(e);
      report.errorName = e instanceof Error ? e.name : typeof e;
      value = undefined;
    }
    report.statuses = cap.statuses;
    // each form once, in the order first seen
    const shapes = new Map(cap.shapes.map((s) => [`${s.point}\u0000${s.shape}`, s]));
    report.shapes.push(...[...shapes.values()].map(({ point, shape }) => ({ point, shape })));
    return value;
  }

  /**
   * One request that must fail with 404: shows the problem `type` form and
   * which error the client mapped it to.
   */
  async probe(list: CallReport[], endpoint: string, run: () => Promise<unknown>): Promise<void> {
    let caught: unknown;
    await this.call(list, "problem details (a 404 on purpose)", endpoint, async () => {
      try {
        await run();
      } catch (e) {
        caught = e;
        return;
      }
      throw new Error("expected a 404 answer for an id that does not exist; got a 200");
    }, (_v, cap, r) => {
      const body = cap.bodies.at(-1) as { type?: unknown } | undefined;
      const type = body && typeof body === "object" ? body.type : undefined;
      const name = caught instanceof Error ? caught.constructor.name : typeof caught;
      r.shapes.push({ point: "problem type", shape: JSON.stringify(type ?? null) });
      r.summary = `mapped to ${name}`;
      if (caught instanceof AuthenticationError || caught instanceof PermissionDeniedError) {
        // a refused key is the key's problem, not the route's: the 404 form went unseen
        const e = new Error(
          `the key was refused (${caught.status} ${name}): the 404 form was not checked`,
        );
        e.name = caught.name;
        throw e;
      }
      if (!(caught instanceof NotFoundError)) {
        const e = new Error(
          `a 404 should be a NotFoundError; the client raised ${name}: ${oneLine(caught)}`,
        );
        e.name = caught instanceof Error ? caught.name : e.name; // what the call really met
        throw e;
      }
    });
    list[list.length - 1].probe = true;
  }

  /** Records a call not made, and why. */
  skip(list: CallReport[], name: string, endpoint: string, why: string): void {
    list.push({ name, endpoint, ok: true, skipped: why, ms: 0, statuses: [], shapes: [] });
  }
}

/** `3 rows, more pages`: what a first page brought. */
const pageSummary = (p: { rows: readonly unknown[]; next: string | null }) =>
  `${p.rows.length} rows, ${p.next === null ? "last page" : "more pages"}`;

/** Coverage of `raw` rows against `declared`, with the client's frame of them and its report. */
function frameCoverage(
  raw: readonly Record<string, unknown>[],
  declared: readonly DeclaredField[],
  build: (onReport: (r: FrameReport) => void) => pl.DataFrame,
): { coverage: FieldCoverage; frame: pl.DataFrame } {
  let report: FrameReport | undefined;
  const frame = build((r) => report = r);
  // the builder hands its report over once the frame is built
  return { coverage: coverage(raw, declared, frame, report!), frame };
}

/** The catalog's calls: a page of pitches, a detail, a signing, tags, filter sets, a 404, a search. */
async function checkCatalog(rec: Calls, catalog: CatalogClient, cat: CallReport[]): Promise<void> {
  const page = await rec.call(
    cat,
    "pitch list page",
    "GET /pitches",
    () => catalog.pitches({ limit: 3 }, { raw: true }).firstPage(),
    (p, cap, r) => {
      const pitch = new KeyIndex(["pitch"]);
      const summaries = rawRows(cap.bodies[0], cap.shapes).map((row) => {
        const k = Object.keys(row).find((x) => pitch.nameOf(x) === "pitch");
        return (k ? row[k] : {}) as Record<string, unknown>;
      });
      r.coverage =
        frameCoverage(summaries, PITCH_COLUMNS, (onReport) => pitchesFrame(p.rows, { onReport }))
          .coverage;
      r.summary = pageSummary(p);
    },
  );
  const open = page?.rows.find((r) => !r.pitch.is_locked) ?? page?.rows[0];
  if (!open) rec.skip(cat, "pitch detail", "GET /pitches/{id}", "no pitch in the page");
  const detail = open
    ? await rec.call(cat, "pitch detail", "GET /pitches/{id}", () => catalog.pitch(open.pitch_id))
    : undefined;
  if (detail?.archive?.available) {
    await rec.call(
      cat,
      "document signing",
      "GET /pitches/{id}/document",
      () => catalog.document(detail.pitch_id),
      (d, _c, r) => {
        r.summary = `${d.format ?? d.artifact}, expires in ${d.expires_in_seconds} s`;
      },
    );
  } else {
    const why = detail ? `pitch ${detail.pitch_id} has no archive` : "no pitch detail";
    rec.skip(cat, "document signing", "GET /pitches/{id}/document", why);
  }
  await rec.call(cat, "tag vocabulary", "GET /tags", () => catalog.tags(), (t, _c, r) => {
    const slugs = t.types.reduce((n, ty) => n + t.slugs(ty.tagTypeKey).length, 0);
    r.summary = `${t.types.length} tag types, ${slugs} slugs`;
  });
  await rec.call(cat, "filter sets", "GET /filter-sets", () => catalog.filterSets(), (f, _c, r) => {
    r.summary = `${f.length} filter sets`;
  });
  await rec.probe(cat, "GET /pitches/{id}", () => catalog.pitch("signalbook-doctor-no-such-pitch"));
  const q = open?.pitch.ticker_symbol ?? open?.pitch.author_username ?? "a";
  await rec.call(cat, "entity search", "GET /search", () => catalog.search(q), (s, _c, r) => {
    r.summary = `${s.authors.length} authors, ${s.companies.length} companies for ${
      JSON.stringify(q)
    }`;
  });
}

/** The insider service's calls: a search page, a feed page, a detail, a 404, an owner lookup. */
async function checkInsider(rec: Calls, insider: InsiderClient, ins: CallReport[]): Promise<void> {
  let owner: string | undefined;
  await rec.call(
    ins,
    "trade search page",
    "POST /search",
    () => insider.search({}, { pageSize: 3, raw: true }).firstPage(),
    (p, cap, r) => {
      const { coverage, frame } = frameCoverage(
        rawRows(cap.bodies[0], cap.shapes),
        SEARCH_FIELDS,
        (onReport) => transactionsFrame(p.rows as Record<string, unknown>[], { onReport }),
      );
      r.coverage = coverage;
      owner = frame.getColumn("reporting_owner_name").toArray().find((x) =>
        typeof x === "string"
      ) as string | undefined;
      r.summary = pageSummary(p);
    },
  );
  const feed = await rec.call(
    ins,
    "feed page",
    "GET /feeds",
    () => insider.feeds({ feedIds: [15, 16], limit: 2 }).firstPage(),
    (p, _c, r) => void (r.summary = pageSummary(p)),
  );
  const first: FeedRow | undefined = feed?.rows[0];
  const detailAt = "GET /transactions/{accessionNumber}/{transactionId}";
  if (first) {
    await rec.call(
      ins,
      "transaction detail",
      detailAt,
      () => insider.transaction(first.accession_number, first.transaction_id, { raw: true }),
      (row, cap, r) => {
        r.coverage =
          frameCoverage(rawRows(cap.bodies.at(-1), cap.shapes), TRANSACTION_FIELDS, (onReport) =>
            transactionsFrame([row], { onReport })).coverage;
      },
    );
  } else rec.skip(ins, "transaction detail", detailAt, "no feed row");
  await rec.probe(ins, detailAt, () => insider.transaction("0000000000-00-000000", 999_999));
  const who = owner ?? "smith";
  await rec.call(
    ins,
    "owner lookup",
    "GET /insiders",
    () => insider.insiders(who, { limit: 3 }),
    (hits, _c, r) => {
      r.summary = `${hits.length} matches for ${JSON.stringify(who)}`;
    },
  );
}

/**
 * `s` without any of `keys`, nor a run of 8 or more of a key's first or last
 * characters (a message that quotes the start of an answer may cut a key).
 */
function scrubKeys(s: string, keys: readonly string[]): string {
  let out = s;
  for (const k of keys) {
    for (let n = k.length; n >= Math.min(8, k.length); n--) {
      out = out.split(k.slice(0, n)).join("***").split(k.slice(k.length - n)).join("***");
    }
  }
  return out;
}

function problemsOf(service: string, c: CallReport): string[] {
  const at = `${service} ${c.endpoint}`;
  if (c.error) {
    const own = c.error.startsWith(`${c.endpoint}: `)
      ? c.error.slice(c.endpoint.length + 2)
      : c.error;
    return [`${at}: ${own}`];
  }
  const cov = c.coverage;
  return [
    // a service that leaves out null keys sends no field whose value is null: not a problem
    cov && cov.rows > 0 && cov.missing.length && !cov.omitsNulls &&
    `${at}: ${cov.missing.length} of ${cov.fields} catalog fields missing from the rows: ${
      firstFew(cov.missing)
    }`,
    cov?.lost.length &&
    `${at}: values the client could not read (null in the frame): ${
      firstFew(cov.lost.map((l) => `${l.field} (${l.rows} row${l.rows === 1 ? "" : "s"})`))
    }`,
  ].filter((p): p is string => !!p);
}
