/**
 * The seam a split leaves (a split window goes on with its own cursor, its
 * last page read past its new end, checked against the next windows' first
 * rows), under generated lists and services: dense, sparse and empty days,
 * both orders, limits at and across seams, 1–12 windows, services that date
 * rows a day off, end a walk early, fail a request or answer slowly, slow
 * readers, and resumes from every cursor handed out. Each pull is compared
 * with the serial pull of the same honest list: the rows handed out are
 * always its prefix (none lost, repeated or reordered), a pull that ends
 * without error hands out all of it (up to the limit) with `truncated`
 * exact, and every cursor (a page's `next`, a failure's cursor) resumes at
 * the next row.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { failedCursor, type Page } from "../../lib/http/paginate.ts";
import { type DayRange, windowedPages, type WindowSource } from "../../lib/http/windows.ts";

type Row = { day: string; id: number };

const day = (n: number) =>
  new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);

/** How a generated service behaves besides its rows. */
interface Lies {
  /** Rows the client reads on another day than the service files them (by id: that day). */
  dayOff: Map<number, string>;
  /** A page holding one of these rows ends right after it, without a next page. */
  endAfter: Set<number>;
  /** The request (1-based) refused once. */
  failAt?: number;
  /** The first request of this window (1-based, in the order windows start) is refused. */
  failWindow?: number;
  /** Answers take 0–`delay` ms (seeded). */
  delay: number;
}

const honest: Lies = { dayOff: new Map(), endAfter: new Set(), delay: 0 };

function service(rows: Row[], order: "asc" | "desc", pageSize: number, lies: Lies, seed = 1) {
  const sorted = [...rows].sort((a, b) =>
    a.day === b.day ? a.id - b.id : (a.day < b.day ? -1 : 1) * (order === "asc" ? 1 : -1)
  );
  let requests = 0;
  let windowsStarted = 0;
  let s = seed;
  const rnd = () => (s = (s * 16807) % 2147483647) / 2147483647;
  const fetch = async (
    range: DayRange,
    cursor: string | null,
    signal: AbortSignal,
    size?: number,
  ) => {
    const n = ++requests;
    if (lies.delay > 0) {
      await new Promise((r) => setTimeout(r, Math.floor(rnd() * (lies.delay + 1))));
    }
    if (signal.aborted) throw signal.reason;
    const starts = cursor === null && size === undefined && (range.from ?? range.to) !== undefined;
    if (starts && ++windowsStarted === lies.failWindow) {
      throw Object.assign(new Error("refused"), { name: "ServerError" });
    }
    if (n === lies.failAt) throw Object.assign(new Error("refused"), { name: "ServerError" });
    const all = sorted.filter((r) =>
      (range.from === undefined || r.day >= range.from) &&
      (range.to === undefined || r.day <= range.to)
    );
    const at = Number(cursor?.split(":").pop() ?? 0);
    let page = all.slice(at, at + (size ?? pageSize));
    let more = at + page.length < all.length;
    const cut = page.findIndex((r) => lies.endAfter.has(r.id));
    if (cut >= 0) {
      page = page.slice(0, cut + 1);
      more = false;
    }
    return {
      rows: page,
      next: more ? `${range.from ?? ""}..${range.to ?? ""}:${at + page.length}` : null,
      raw: null,
    } as Page<Row>;
  };
  const source: WindowSource<Row> = {
    pageSize,
    order,
    day: (r) => {
      return lies.dayOff.get(r.id) ?? r.day;
    },
    key: (r) => String(r.id),
    fetch,
  };
  return { sorted, source, requests: () => requests };
}

/** Rows per day: dense, sparse and empty days, some long empty stretches. */
const countsArb = fc.array(
  fc.oneof(
    { weight: 5, arbitrary: fc.integer({ min: 0, max: 5 }) },
    { weight: 2, arbitrary: fc.integer({ min: 10, max: 60 }) },
    { weight: 1, arbitrary: fc.integer({ min: 100, max: 300 }) },
    { weight: 2, arbitrary: fc.constant(0) },
  ),
  { minLength: 1, maxLength: 90 },
);

function rowsOf(counts: number[], gap: number): Row[] {
  const rows: Row[] = [];
  counts.forEach((c, d) => {
    for (let i = 0; i < c; i++) rows.push({ day: day(d * gap), id: rows.length });
  });
  return rows;
}

const ids = (rows: readonly Row[]) => rows.map((r) => r.id);

/** What a pull handed out: rows (cut at the limit), each page's next, the error if any. */
interface Outcome {
  rows: Row[];
  nexts: { at: number; next: string }[];
  truncated: boolean;
  error?: unknown;
  cursor?: string | null;
}

/** Warnings that a pull turned its windows off (the service dates rows otherwise). */
const fallbacks: string[] = [];

/** A pull as `take(limit)` makes it; a pull that hangs fails the test. */
async function pull(
  src: WindowSource<Row>,
  parallel: number,
  opts: { limit?: number; cursor?: string; slowReader?: boolean; abortAfter?: number } = {},
): Promise<Outcome> {
  const out: Outcome = { rows: [], nexts: [], truncated: false };
  const ac = new AbortController();
  const limit = opts.limit ?? Infinity;
  let pages = 0;
  const work = (async () => {
    try {
      for await (
        const page of windowedPages(src, {
          parallel,
          limit: opts.limit,
          cursor: opts.cursor,
          signal: ac.signal,
          onFallback: (m) => void fallbacks.push(m),
        })
      ) {
        const room = limit - out.rows.length;
        const rows = page.rows.length > room ? page.rows.slice(0, room) : page.rows;
        out.rows.push(...rows);
        if (page.next !== null && rows.length === page.rows.length) {
          out.nexts.push({ at: out.rows.length, next: page.next });
        }
        if (out.rows.length >= limit) {
          out.truncated = page.rows.length > rows.length || page.next !== null;
          break;
        }
        if (++pages === opts.abortAfter) ac.abort(new DOMException("stop", "AbortError"));
        if (opts.slowReader) await new Promise((r) => setTimeout(r, 1));
        if (out.rows.length > 100_000) throw new Error("runaway pull");
      }
    } catch (e) {
      out.error = e;
      out.cursor = failedCursor(e);
    }
  })();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<"hang">((r) => (timer = setTimeout(() => r("hang"), 20_000)));
  const how = await Promise.race([work.then(() => "done" as const), hang]);
  clearTimeout(timer);
  if (how === "hang") {
    ac.abort(new Error("hang"));
    await work;
    throw new Error(`the pull hung (${out.rows.length} rows handed out)`);
  }
  return out;
}

/** The rows after `at` of `honestRows`, read by resuming at `cursor` (parallel or not). */
async function checkResume(
  src: WindowSource<Row>,
  honestRows: Row[],
  at: number,
  cursor: string,
  parallel: number,
  what: string,
) {
  const rest = await pull(src, parallel, { cursor });
  assert.equal(rest.error, undefined, `${what}: the resume failed: ${rest.error}`);
  assert.deepEqual(ids(rest.rows), ids(honestRows.slice(at)), `${what}: resumed at ${at}`);
}

const caseArb = fc.record({
  counts: countsArb,
  gap: fc.constantFrom(1, 1, 2, 5),
  order: fc.constantFrom("asc" as const, "desc" as const),
  pageSize: fc.integer({ min: 2, max: 40 }),
  parallel: fc.integer({ min: 1, max: 12 }),
  limitAt: fc.option(fc.double({ min: 0, max: 1.1, noNaN: true }), { nil: undefined }),
  slowReader: fc.boolean(),
  delay: fc.constantFrom(0, 0, 2),
  seed: fc.integer({ min: 1, max: 1_000_000 }),
});

let cases = 0;

Deno.test("generated lists: a parallel pull hands out the serial rows, truncated exact, and every next resumes at the next row", async () => {
  await fc.assert(
    fc.asyncProperty(caseArb, async (c) => {
      cases++;
      const rows = rowsOf(c.counts, c.gap);
      const s = service(rows, c.order, c.pageSize, { ...honest, delay: c.delay }, c.seed);
      const limit = c.limitAt === undefined ? undefined : Math.round(c.limitAt * rows.length);
      fallbacks.length = 0;
      const got = await pull(s.source, c.parallel, { limit, slowReader: c.slowReader });
      assert.equal(got.error, undefined, String(got.error));
      // every seam of an honest service holds: its windows are never turned off
      assert.deepEqual(fallbacks, []);
      const n = Math.min(limit ?? Infinity, rows.length);
      assert.deepEqual(ids(got.rows), ids(s.sorted.slice(0, n)));
      if (limit !== undefined && limit > 0 && rows.length >= limit) {
        assert.equal(got.truncated, rows.length > limit, "truncated");
      }
      // every next handed out resumes at the next row (a few of them: the others alike)
      for (const { at, next } of got.nexts.filter((_, i) => i % 3 === c.seed % 3).slice(0, 6)) {
        const again = service(rows, c.order, c.pageSize, honest);
        await checkResume(again.source, s.sorted, at, next, 1 + (c.seed % 8), "next");
      }
    }),
    { numRuns: 150, seed: 4401 },
  );
});

/**
 * Rows at the edges of days (picked by `picks`) that the client reads on the
 * next day of the list (the last row of a day) or the day before (the first
 * row): the service dates them otherwise at a seam, the list's order stays.
 */
function atSeams(sorted: Row[], picks: number[]): Map<number, string> {
  const off = new Map<number, string>();
  for (const i of picks) {
    const j = i % sorted.length;
    if (j + 1 < sorted.length && sorted[j + 1].day !== sorted[j].day) {
      off.set(sorted[j].id, sorted[j + 1].day);
    } else if (j > 0 && sorted[j - 1].day !== sorted[j].day) {
      off.set(sorted[j].id, sorted[j - 1].day);
    }
  }
  return off;
}

/** The index of each day's last row in `sorted` (but the list's last day). */
function lastOfDays(sorted: Row[]): number[] {
  return sorted.flatMap((r, j) => j + 1 < sorted.length && sorted[j + 1].day !== r.day ? [j] : []);
}

const liesArb = fc.record({
  case: caseArb,
  dayOff: fc.array(fc.nat(), { maxLength: 6 }),
  /** Every day's last row (in the list's order) read on the next day of the list: each seam lies. */
  everySeam: fc.boolean(),
  endAfter: fc.array(fc.nat(), { maxLength: 2 }),
  failAt: fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined }),
  failWindow: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
});

Deno.test("generated lying services (rows dated a day off, walks ended early, a refused request): rows are always the serial prefix, and a failure's cursor resumes at the next row", async () => {
  await fc.assert(
    fc.asyncProperty(liesArb, async (g) => {
      cases++;
      const c = g.case;
      const rows = rowsOf(c.counts, c.gap);
      if (rows.length === 0) return;
      const lies: Lies = {
        // (one lie about the days at a time: a walk ended early on a row dated otherwise
        // hides its hole from the early-end check, which reads the rows' days)
        dayOff: g.endAfter.length ? new Map() : atSeams(
          service(rows, c.order, c.pageSize, honest).sorted,
          g.everySeam ? lastOfDays(service(rows, c.order, c.pageSize, honest).sorted) : g.dayOff,
        ),
        // (a walk ended early on the last row of a day: one ended inside a day leaves a hole
        // the one-row probe after its last day cannot see, as before the split went on)
        endAfter: new Set(g.endAfter.map((i) => {
          let j = i % rows.length;
          while (j + 1 < rows.length && rows[j + 1].day === rows[j].day) j++;
          return j;
        })),
        failAt: g.failAt,
        failWindow: g.failWindow,
        delay: c.delay,
      };
      const s = service(rows, c.order, c.pageSize, lies, c.seed);
      const limit = c.limitAt === undefined ? undefined : Math.round(c.limitAt * rows.length);
      const got = await pull(s.source, c.parallel, { limit, slowReader: c.slowReader });
      const n = Math.min(limit ?? Infinity, rows.length);
      // never a row lost, repeated or out of order
      assert.deepEqual(ids(got.rows), ids(s.sorted.slice(0, got.rows.length)));
      assert.ok(got.rows.length <= n);
      if (got.error === undefined && lies.endAfter.size === 0) {
        assert.deepEqual(ids(got.rows), ids(s.sorted.slice(0, n)));
        if (limit !== undefined && limit > 0 && rows.length >= limit) {
          assert.equal(got.truncated, rows.length > limit, "truncated");
        }
      }
      // a failure's cursor resumes at the next row, on the service without its failure
      if (got.error !== undefined) {
        assert.notEqual(got.cursor, undefined, `no cursor to resume at: ${got.error}`);
        const again = service(rows, c.order, c.pageSize, {
          ...lies,
          failAt: undefined,
          failWindow: undefined,
          endAfter: new Set(),
        });
        const rest = await pull(again.source, 1 + (c.seed % 8), {
          cursor: got.cursor ?? undefined,
        });
        // (a service that dates rows otherwise may stop a resumed pull: it has no walk to go
        // back to; what it hands out is still the next rows)
        assert.deepEqual(
          ids(rest.rows),
          ids(s.sorted.slice(got.rows.length, got.rows.length + rest.rows.length)),
        );
        if (!(lies.dayOff.size > 0 && rest.error !== undefined)) {
          assert.equal(rest.error, undefined, `resume: ${rest.error}`);
          assert.deepEqual(
            ids(rest.rows),
            ids(s.sorted.slice(got.rows.length)),
            `failure (${(got.error as Error).message}) resumed at ${got.rows.length}`,
          );
        }
      }
      // nexts handed out resume at the next row on the same (lying-dates) service
      for (const { at, next } of got.nexts.filter((_, i) => i % 4 === c.seed % 4).slice(0, 4)) {
        const again = service(rows, c.order, c.pageSize, {
          ...lies,
          failAt: undefined,
          failWindow: undefined,
          endAfter: new Set(),
        });
        const rest = await pull(again.source, 1 + (c.seed % 8), { cursor: next });
        assert.deepEqual(ids(rest.rows), ids(s.sorted.slice(at, at + rest.rows.length)));
        if (lies.dayOff.size > 0 && rest.error !== undefined) continue;
        assert.equal(rest.error, undefined, `resume at next: ${rest.error}`);
        assert.deepEqual(ids(rest.rows), ids(s.sorted.slice(at)), `next resumed at ${at}`);
      }
    }),
    { numRuns: 300, seed: 4402 },
  );
});

Deno.test("generated aborts: an abort at any page ends the pull with an AbortError, nothing hangs", async () => {
  await fc.assert(
    fc.asyncProperty(caseArb, fc.integer({ min: 1, max: 20 }), async (c, abortAfter) => {
      cases++;
      const rows = rowsOf(c.counts, c.gap);
      const s = service(rows, c.order, c.pageSize, { ...honest, delay: c.delay }, c.seed);
      const got = await pull(s.source, c.parallel, { abortAfter, slowReader: c.slowReader });
      assert.deepEqual(ids(got.rows), ids(s.sorted.slice(0, got.rows.length)));
      if (got.error !== undefined) assert.equal((got.error as Error).name, "AbortError");
    }),
    { numRuns: 60, seed: 4403 },
  );
  console.log(`${cases} generated cases`);
});

/** Requests answered together when the test's clock ticks (a pull's order of events, without timing). */
async function inRounds(
  src: WindowSource<Row>,
  parallel: number,
  opts: { fail?: (range: DayRange, cursor: string | null) => boolean } = {},
) {
  const waiting: (() => void)[] = [];
  const rounded: WindowSource<Row> = {
    ...src,
    fetch: async (range, cursor, signal, size) => {
      const fail = size === undefined && opts.fail?.(range, cursor);
      await new Promise<void>((r) => waiting.push(r));
      if (fail) throw Object.assign(new Error("refused"), { name: "ServerError" });
      return src.fetch(range, cursor, signal, size);
    },
  };
  let done = false;
  const p = pull(rounded, parallel).finally(() => (done = true));
  while (!done) {
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
    for (const answer of waiting.splice(0)) answer();
  }
  return await p;
}

Deno.test("a window that fails before its first row: the page before it is handed out, and the failure's cursor resumes at the next row (not at the list's start)", async () => {
  // ten rows on one day, pages of 2, serially: the list's walk is split after its first page and
  // the first window after it fails on its first request while the walk's last page is read
  const rows = rowsOf([10, 0], 1);
  const s = service(rows, "asc", 2, { ...honest, failWindow: 1 });
  const got = await pull(s.source, 1);
  assert.equal((got.error as Error)?.message, "refused");
  assert.deepEqual(ids(got.rows), ids(s.sorted.slice(0, got.rows.length)));
  assert.equal(typeof got.cursor, "string", `cursor ${got.cursor} after ${got.rows.length} rows`);
  const rest = await pull(service(rows, "asc", 2, honest).source, 2, { cursor: got.cursor! });
  assert.deepEqual(ids(rest.rows), ids(s.sorted.slice(got.rows.length)));
});

Deno.test("after a fallback, the list's own walk fails: its cursor resumes after the rows other windows handed out, not before them", async () => {
  // the client reads row 81 a day late: the window holding it goes past its range, so the pull
  // goes on with the list's own walk, which skips the rows handed out; then that walk fails
  const rows = rowsOf([24, 1, 3, 53, 105, 10], 1);
  const lies = { ...honest, dayOff: new Map([[81, day(5)]]) };
  let checked = 0;
  for (let failRoot = 2; failRoot < 20; failRoot++) {
    const s = service(rows, "asc", 4, lies);
    let n = 0;
    const got = await inRounds(s.source, 3, {
      fail: (range) => range.from === undefined && range.to === undefined && ++n === failRoot,
    });
    if (got.error === undefined) continue;
    assert.equal((got.error as Error).message, "refused");
    assert.deepEqual(ids(got.rows), ids(s.sorted.slice(0, got.rows.length)));
    const rest = await pull(service(rows, "asc", 4, lies).source, 1, { cursor: got.cursor! });
    assert.deepEqual(
      ids(rest.rows),
      ids(s.sorted.slice(got.rows.length)),
      `the walk's request ${failRoot} failed after ${got.rows.length} rows`,
    );
    checked++;
  }
  assert.ok(checked > 10, `${checked} failures checked`);
});

Deno.test("windows stopped by an earlier window's failure are not taken as done when a seam undoes the split: a resumed pull never skips their rows", async () => {
  // resumed at a cursor of the list's walk; the client reads the last row of a busy day as the
  // next day of the list: the window holding it fails (a resumed pull cannot go serial), the
  // windows after it are stopped, and a seam that does not match drops the failed window
  const rows = rowsOf([1, 48, 104, 107, 0, 195, 1, 0, 4, 101], 2);
  const sorted = service(rows, "desc", 2, honest).sorted;
  const lies = { ...honest, dayOff: atSeams(sorted, [301]) };
  assert.deepEqual([...lies.dayOff], [[153, day(10)]]);
  const first = await pull(service(rows, "desc", 2, lies).source, 1);
  assert.equal(first.error, undefined);
  assert.deepEqual(ids(first.rows), ids(sorted));
  let stopped = 0;
  for (const { at, next } of first.nexts.slice(0, 12)) {
    const rest = await pull(service(rows, "desc", 2, lies).source, 3, { cursor: next });
    // the rows it hands out are the next rows; when it cannot go on it says so
    assert.deepEqual(
      ids(rest.rows),
      ids(sorted.slice(at, at + rest.rows.length)),
      `resumed at ${at}`,
    );
    if (rest.error === undefined) assert.equal(rest.rows.length, sorted.length - at);
    else {
      assert.equal((rest.error as Error).name, "InvalidResponseError", String(rest.error));
      stopped++;
    }
  }
  assert.ok(stopped > 0, "no resumed pull met the row dated otherwise");
});

Deno.test("the window after a seam fails before its first row: the pull fails there, and its cursor reads the split window's last page again (its row dated otherwise is not lost)", async () => {
  // the list's walk is split before day 4; the client reads row 9 (the last of day 0) on day 4,
  // so the walk's last page holds it past its end; the window from day 4 on fails at once
  const rows = rowsOf([10, 0, 1, 0], 2);
  const sorted = service(rows, "asc", 2, honest).sorted;
  const lies: Lies = { ...honest, dayOff: atSeams(sorted, lastOfDays(sorted)), failWindow: 4 };
  assert.deepEqual([...lies.dayOff], [[9, day(4)]]);
  const got = await pull(service(rows, "asc", 2, lies).source, 2);
  assert.equal((got.error as Error)?.message, "refused");
  assert.deepEqual(ids(got.rows), ids(sorted.slice(0, got.rows.length)));
  const again = service(rows, "asc", 2, { ...lies, failWindow: undefined });
  const rest = await pull(again.source, 2, { cursor: got.cursor ?? undefined });
  assert.equal(rest.error, undefined);
  assert.deepEqual(ids(rest.rows), ids(sorted.slice(got.rows.length)));
});
