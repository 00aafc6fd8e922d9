/**
 * Spec-legal answers the emulator does not give by default, made by
 * rewriting its JSON answers in an injected `fetch` (issue 21): keys re-cased
 * the lodash way, containers renamed, has-more flags dropped, bare lists,
 * URI problem types, repeated cursors, numeric strings.
 */
import type { Stub } from "../lib/stub/mod.ts";
import type { FetchLike } from "../mod.ts";

/** What a rewrite sees: the path below `/api/v1` (e.g. `/feeds`), the parsed body, the status. */
export type Rewrite = (path: string, body: unknown, status: number) => unknown;

/** A fetch into the emulator whose JSON answers pass through `rewrite`; it counts requests. */
export function rewriting(
  stub: Stub,
  rewrite: Rewrite,
): { fetch: FetchLike; count: { n: number } } {
  const count = { n: 0 };
  const fetch: FetchLike = async (input, init) => {
    count.n++;
    const res = await stub.fetch(input, init);
    const type = res.headers.get("content-type") ?? "";
    if (!type.includes("json")) return res;
    const url = new URL(input instanceof Request ? input.url : String(input));
    const path = url.pathname.replace(/^\/(catalog|insider)\/api\/v1/, "");
    const body = rewrite(path, await res.json(), res.status);
    const headers = new Headers(res.headers);
    headers.delete("content-length");
    return new Response(JSON.stringify(body), { status: res.status, headers });
  };
  return { fetch, count };
}

/**
 * lodash `camelCase` of a snake_case key: digit runs and letter runs are
 * words, so `win_rate_bullish_3m_wins` → `winRateBullish3MWins`,
 * `is_10b51` → `is10B51`.
 */
export function lodashCamel(key: string): string {
  const words = key.split("_").flatMap((p) => p.match(/[0-9]+|[a-zA-Z]+/g) ?? []);
  return words.map((w, i) =>
    i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1).toLowerCase()
  ).join("");
}

/** snake_case of a camelCase key (`returns1w` → `returns_1w`). */
export function snake(key: string): string {
  return key.replace(/([a-z])([A-Z0-9])/g, "$1_$2").replace(/([0-9])([A-Z])/g, "$1_$2")
    .toLowerCase();
}

/** Every key of every object in `rows` through `f`. */
export function rekey(rows: unknown, f: (k: string) => string): unknown {
  if (!Array.isArray(rows)) return rows;
  return rows.map((r) =>
    r && typeof r === "object" && !Array.isArray(r)
      ? Object.fromEntries(Object.entries(r).map(([k, v]) => [f(k), v]))
      : r
  );
}
