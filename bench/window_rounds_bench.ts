/**
 * The window plan in round trips, load-proof: a pull at `parallel: 8`
 * against an in-memory service whose answers all come together when a
 * round ends (every request in flight answered at once, as when the round
 * trip dwarfs everything else), so what is counted is the plan alone —
 * rounds and requests — and no clock or machine load enters.
 *
 * The lists: the emulator's own feed list of the floor check (twelve
 * feeds, `take(2,500)`, pages of 25) and its 20k search (pages of 100),
 * each row's day read from the in-process emulator (`--scale 4`, Eastern
 * filing dates); lists with the emulator's weekly rhythm (20 seeds); and
 * lists of 10–40 rows a day (10 seeds). The floor is the first page alone,
 * then the rest of the serial pages over 8 slots.
 *
 * `deno run -A bench/window_rounds_bench.ts`
 *
 * @module
 */
import { InsiderClient } from "../mod.ts";
import { createStub, DEMO_KEYS } from "../lib/stub/mod.ts";
import { WindowedList } from "../lib/frames/windowed_list.ts";
import type { DayRange } from "../lib/http/windows.ts";
import { easternDate } from "../lib/insider/_windows.ts";
import { table } from "./loopback.ts";

/** A row of a generated list: its day and its place in the serial order. */
interface Row {
  day: string;
  id: number;
}

/** Rounds and requests of one `take(limit)` at `parallel` over `rows` (newest day first). */
export async function roundsOf(
  rows: readonly Row[],
  pageSize: number,
  limit: number,
  parallel = 8,
): Promise<{ rounds: number; requests: number }> {
  const waiting: (() => void)[] = [];
  let requests = 0;
  const fetch = (range: DayRange, cursor: string | null, signal: AbortSignal, size?: number) => {
    requests++;
    return new Promise<void>((r) => waiting.push(r)).then(() => {
      if (signal.aborted) throw signal.reason;
      const all = rows.filter((r) =>
        (range.from === undefined || r.day >= range.from) &&
        (range.to === undefined || r.day <= range.to)
      );
      // cursors name their filter, as the services' do
      const at = Number(cursor?.split(":").pop() ?? 0);
      const n = size ?? pageSize;
      return {
        rows: all.slice(at, at + n),
        next: at + n < all.length ? `${range.from ?? ""}..${range.to ?? ""}:${at + n}` : null,
        raw: null,
      };
    });
  };
  const source = {
    pageSize,
    order: "desc" as const,
    day: (r: Row) => r.day,
    key: (r: Row) => String(r.id),
    fetch,
  };
  const list = new WindowedList<Row>(
    (cursor, signal) => fetch({}, cursor, signal),
    source,
    {
      sink: () => {
        throw new Error("no frame in the round model");
      },
    },
    { parallel },
  );
  let done = false;
  const pull = list.take(limit).finally(() => (done = true));
  let rounds = 0;
  for (;;) {
    // let every window that can send its request do so first
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
    const now = waiting.splice(0);
    if (done || now.length === 0) break;
    rounds++;
    for (const answer of now) answer();
  }
  const got = await pull;
  if (got.length !== limit || got.some((r, i) => r.id !== rows[i].id)) {
    throw new Error("the round model's pull did not return the serial rows");
  }
  return { rounds, requests };
}

const dayOf = (n: number) =>
  new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);

/** A seeded generator of a list: `count(rnd, d)` rows on the d-th day back from the newest. */
function generated(seed0: number, days: number, count: (rnd: () => number, d: number) => number) {
  let seed = seed0;
  const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const rows: Row[] = [];
  for (let d = 0; d < days; d++) {
    const n = count(rnd, d);
    for (let i = 0; i < n; i++) rows.push({ day: dayOf(2000 - d), id: rows.length });
  }
  return rows;
}

/** The days of the emulator's feed list and search (`--scale 4`), newest first. */
async function emulatorLists(): Promise<{ feeds: Row[]; search: Row[] }> {
  const stub = createStub({ seed: 1, scale: 4 });
  const client = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://stub/insider",
    fetch: (input, init) => stub.fetch(input, init),
  });
  const toRows = (times: string[]) => times.map((t, id) => ({ day: easternDate(t)!, id }));
  const feeds = await client.feeds({ feedIds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], limit: 25 })
    .take(6_000);
  const search = await client.search({}, { pageSize: 100, parallel: 8 }).take(30_000);
  return {
    feeds: toRows(feeds.map((r) => r.filed_at)),
    search: toRows(search.map((r) => r.filedAt as string)),
  };
}

/** The table: rounds and requests of each list against its floor. */
export async function windowRoundsBench(): Promise<string> {
  const { feeds, search } = await emulatorLists();
  const out: (string | number)[][] = [];
  const row = async (name: string, lists: Row[][], size: number, limit: number) => {
    const runs: { rounds: number; requests: number }[] = [];
    for (const rows of lists) runs.push(await roundsOf(rows, size, limit));
    const mean = (f: (r: { rounds: number; requests: number }) => number) =>
      (runs.reduce((a, r) => a + f(r), 0) / runs.length).toFixed(2);
    const floor = 1 + Math.ceil((limit / size - 1) / 8);
    out.push([
      name,
      lists.length,
      floor,
      mean((r) => r.rounds),
      Math.max(...runs.map((r) => r.rounds)),
      mean((r) => r.requests),
      Math.max(...runs.map((r) => r.requests)),
    ]);
  };
  const seeds = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
  await row("emulator feeds take(2,500)", [feeds], 25, 2_500);
  await row("emulator search take(20,000)", [search], 100, 20_000);
  await row(
    "weekly feed-like lists take(2,500)",
    seeds(20).map((s) =>
      generated(
        s,
        200,
        (rnd, d) => Math.round([42, 19, 15, 10, 34, 16, 17][d % 7] * (0.7 + 0.6 * rnd())),
      )
    ),
    25,
    2_500,
  );
  await row(
    "10–40 rows a day take(2,500)",
    seeds(10).map((s) => generated(s, 401, (rnd) => 10 + Math.floor(rnd() * 31))),
    25,
    2_500,
  );
  return table(
    "The window plan in round trips (parallel 8, every request in flight answered together)",
    [
      "list",
      "lists",
      "floor rounds",
      "rounds (mean)",
      "rounds (most)",
      "requests (mean)",
      "requests (most)",
    ],
    out,
  );
}

if (import.meta.main) console.log(await windowRoundsBench());
