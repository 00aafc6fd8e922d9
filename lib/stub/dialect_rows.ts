/**
 * Two dialect points applied to every JSON answer of both services (see
 * `dialect.ts`), as middleware installed only when the dialect asks:
 *
 * - `nulls: "omit"`: rows leave out their null keys, as pydantic's
 *   `exclude_none` or Jackson's `NON_NULL` do. Every object inside the
 *   answer loses its null-valued keys, except a list envelope's own keys
 *   (an answer holding a list of rows keeps `next_cursor: null`); a detail
 *   answer (no list of rows in it) is a row and loses them too.
 *   The OpenAPI description then says so: its answer schemas require no
 *   keys (problem details aside).
 * - `cursorName: "cursor"`: the next-page cursor (`next_cursor`,
 *   `nextCursor`) is sent as `cursor`, a name the client does not read.
 *
 * @module
 */
import mapKeys from "npm:lodash-es@4.17.21/mapKeys.js";

type Json = unknown;

const CONTAINERS = new Set(["data", "items", "results", "feeds", "rows"]);

/** A list of rows (objects), or an empty list under a container name: what makes an envelope. */
function isRowList(key: string, x: Json): boolean {
  if (!Array.isArray(x)) return false;
  return x.length === 0 ? CONTAINERS.has(key) : typeof x[0] === "object" && x[0] !== null;
}

export function omitNulls(v: Json, envelope: boolean): Json {
  if (Array.isArray(v)) return v.map((x) => omitNulls(x, false));
  if (v === null || typeof v !== "object") return v;
  const obj = v as Record<string, Json>;
  const isEnvelope = envelope && Object.entries(obj).some(([k, x]) => isRowList(k, x));
  const out: Record<string, Json> = {};
  for (const [k, x] of Object.entries(obj)) {
    if (x === null && !isEnvelope) continue;
    out[k] = omitNulls(x, isEnvelope && !Array.isArray(x));
  }
  return out;
}

const CURSOR_KEYS = ["next_cursor", "nextCursor"];

export function renameCursor(v: Json): Json {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
  return mapKeys(v, (_: Json, k: string) => CURSOR_KEYS.includes(k) ? "cursor" : k);
}

/**
 * Walks an answer's description: `f` sees every object in it before its
 * children (problem details, request parameters and bodies aside, which
 * describe no answer) and gives what takes its place in its parent (an
 * array's items keep their places); returns `f` of the top.
 */
export function eachAnswerSchema(v: Json, f: (s: Record<string, Json>) => Json): Json {
  if (Array.isArray(v)) v.forEach((x) => eachAnswerSchema(x, f));
  if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
  const obj = v as Record<string, Json>;
  const out = f(obj);
  for (const [k, x] of Object.entries(obj)) {
    if (!NOT_ANSWERS.includes(k)) obj[k] = eachAnswerSchema(x, f);
  }
  return out;
}
const NOT_ANSWERS = ["Problem", "application/problem+json", "parameters", "requestBody"];

/** The description of answers that omit null keys: no answer schema requires a key (in place). */
export function noneRequired(doc: Json): void {
  eachAnswerSchema(doc, (s) => {
    if (s.properties && Array.isArray(s.required)) delete s.required;
    return s;
  });
}
