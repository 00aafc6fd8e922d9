/**
 * The value-encoding dialect points (see `dialect.ts`): the same rows with
 * their values written the way other server stacks write them, each an
 * accepted form of the client's value grammars (`lib/shared/values/`), so
 * every reader is proven to read them as the plain answer.
 *
 * | point | choices (default first) | what changes |
 * | - | - | - |
 * | `timestamps` | `iso`, `naive`, `offset`, `epoch-ms`, `epoch-s` | `2025-01-02T02:48:00.000Z`; without a zone (Python's naive `isoformat()`); at `+05:30`; epoch milliseconds (Jackson); epoch seconds |
 * | `dates` | `iso`, `basic`, `epoch-ms`, `epoch-s`, `midnight`, `eastern` | `2025-01-02`; `20250102`; epoch milliseconds or seconds of UTC midnight; `2025-01-02T00:00:00`; the instant of New York midnight (`2025-01-02T05:00:00.000Z`) |
 * | `booleans` | `json`, `text`, `numbers` | `true`; `"true"`/`"false"` (`"True"` for a Python `str`); `1`/`0` |
 * | `numbers` | `json`, `text` | `412.5`; `"412.5"` (a server that quotes decimals) |
 * | `lists` | `json`, `joined`, `json-text` | `[5, 15]`; `"5,15"` (integer lists only); `"[5, 15]"` |
 *
 * The rewrite touches the values of rows only: the rows of `POST /search`,
 * `GET /feeds` and `GET /pitches` (and a pitch row's `pitch` object), and
 * the objects of `GET /transactions/…` and `GET /pitches/{id}` (and its
 * `archive`), never envelopes, cursors or flags. Values are recognised by
 * their shape: a string in the canonical timestamp form is a timestamp,
 * one of `YYYY-MM-DD` a date; lists of objects (a detail's snapshots) are
 * left as they are.
 *
 * @module
 */
import type { Dialect } from "./dialect.ts";
import { newYorkMidnight } from "../shared/values/mod.ts";
import { eachAnswerSchema } from "./dialect_rows.ts";

type Json = unknown;

const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The value points of a dialect. */
type ValuePoints = Pick<Dialect, "timestamps" | "dates" | "booleans" | "numbers" | "lists">;

/** Per `timestamps` choice: a canonical timestamp (text and epoch ms) as it is written. */
const TIMESTAMPS: Record<Dialect["timestamps"], (s: string, ms: number) => Json> = {
  iso: (s) => s,
  naive: (s, ms) => ms % 1000 === 0 ? s.slice(0, 19) : s.slice(0, 23) + "000",
  offset: (_, ms) => new Date(ms + 330 * 60_000).toISOString().slice(0, 23) + "+05:30",
  "epoch-ms": (_, ms) => ms,
  "epoch-s": (_, ms) => ms / 1000,
};

/** Per `dates` choice: a `YYYY-MM-DD` date (text and epoch ms of its UTC midnight) as it is written. */
const DATES: Record<Dialect["dates"], (s: string, ms: number) => Json> = {
  iso: (s) => s,
  basic: (s) => s.replaceAll("-", ""),
  "epoch-ms": (_, ms) => ms,
  "epoch-s": (_, ms) => ms / 1000,
  midnight: (s) => s + "T00:00:00",
  eastern: (_, ms) => new Date(newYorkMidnight(ms / 86_400_000)).toISOString(),
};

/** Per `booleans` choice: a boolean as it is written (`pythonic`: text as Python spells it). */
const BOOLEANS: Record<Dialect["booleans"], (v: boolean, pythonic: boolean) => Json> = {
  json: (v) => v,
  text: (v, pythonic) => pythonic ? (v ? "True" : "False") : String(v),
  numbers: (v) => v ? 1 : 0,
};

function value(v: Json, d: ValuePoints, pythonic: boolean): Json {
  if (typeof v === "string") {
    if (TS.test(v)) return TIMESTAMPS[d.timestamps](v, Date.parse(v));
    if (DAY.test(v)) return DATES[d.dates](v, Date.parse(v + "T00:00:00Z"));
    return v;
  }
  if (typeof v === "boolean") return BOOLEANS[d.booleans](v, pythonic);
  if (typeof v === "number") return d.numbers === "text" ? String(v) : v;
  // lists of integers (ids): joined or as JSON text where the dialect says
  if (Array.isArray(v) && v.length && v.every((x) => Number.isInteger(x))) {
    if (d.lists === "joined") return v.join(",");
    if (d.lists === "json-text") return JSON.stringify(v);
  }
  return v;
}

/** One row (or detail) with its values rewritten; nested objects too, lists of objects left. */
function row(r: Json, d: ValuePoints, depth = 0): Json {
  if (r === null || typeof r !== "object" || Array.isArray(r)) return r;
  const out: Record<string, Json> = {};
  let i = 0;
  for (const [k, v] of Object.entries(r as Record<string, Json>)) {
    out[k] = v !== null && typeof v === "object" && !Array.isArray(v)
      ? (depth < 2 ? row(v, d, depth + 1) : v)
      : value(v, d, i++ % 2 === 0);
  }
  return out;
}

const LIST_ROWS = /\/api\/v1\/(search|feeds|pitches)$/;
const DETAIL = /\/api\/v1\/(transactions\/[^/]+\/[^/]+|pitches\/[^/]+)$/;
const CONTAINERS = ["data", "items", "results", "feeds", "rows", "pitches"];

/**
 * The description of a value dialect: every value schema of the answers
 * (components and paths, problem details aside) also allows the form the
 * dialect writes it in, so the served OpenAPI still describes what is sent.
 */
export function widen(doc: Json, d: ValuePoints): void {
  eachAnswerSchema(doc, (s) => {
    const also = alsoAs(s, d);
    return also.length ? { anyOf: [s, ...also.map((type) => ({ type }))] } : s;
  });
}

/**
 * The JSON types a value of schema `s` may also be sent as under `d`
 * (dates and timestamps are plain strings in the description: under an
 * epoch choice every string may also be a number).
 */
function alsoAs(s: Record<string, Json>, d: ValuePoints): string[] {
  const types = (Array.isArray(s.type) ? s.type : [s.type]) as unknown[];
  const out = new Set<string>();
  if (types.includes("boolean") && d.booleans !== "json") {
    out.add(d.booleans === "text" ? "string" : "number");
  }
  if ((types.includes("number") || types.includes("integer")) && d.numbers === "text") {
    out.add("string");
  }
  if (
    types.includes("string") && (d.dates.startsWith("epoch") || d.timestamps.startsWith("epoch"))
  ) {
    out.add("number");
  }
  const items = s.items as Record<string, Json> | undefined;
  if (types.includes("array") && d.lists !== "json" && items?.type === "integer") out.add("string");
  return [...out].filter((t) => !types.includes(t));
}

/** Whether a dialect writes every value as the default does. */
export function plainValues(d: Dialect): boolean {
  return d.timestamps === "iso" && d.dates === "iso" && d.booleans === "json" &&
    d.numbers === "json" && d.lists === "json";
}

/** An answer at `path` with the values of its rows (or of the detail it is) rewritten. */
export function valueRows(body: Json, path: string, d: ValuePoints): Json {
  const list = LIST_ROWS.test(path) && !path.includes("/catalog/api/v1/search");
  if (list && body !== null && typeof body === "object" && !Array.isArray(body)) {
    const b = { ...(body as Record<string, Json>) };
    for (const k of CONTAINERS) {
      if (Array.isArray(b[k])) b[k] = (b[k] as Json[]).map((r) => row(r, d));
    }
    return b;
  }
  if (list || !DETAIL.test(path)) return body;
  const b = body as Record<string, Json>;
  // a detail bare or wrapped in one object (`{ data: {...} }`)
  return b && typeof b === "object" && "data" in b && Object.keys(b).length === 1
    ? { data: row(b.data, d) }
    : row(b, d);
}
