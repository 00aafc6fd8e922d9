/**
 * The window plan and guards as pure functions (`lib/http/_window_plan.ts`,
 * `lib/http/_window_guard.ts`), driven in rounds without time or I/O: what
 * a window is cut to when it starts, when a running one is split, which
 * windows may send, and the verdicts of the seam and range guards.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  cutAt,
  daysOf,
  densityOf,
  eligible,
  MAX_BUFFERED_PAGES,
  MIN_PART,
  type PlanContext,
  share,
  splitAt,
  TARGET_PAGES,
} from "../../lib/http/_window_plan.ts";
import { endGap, inRange, seamVerdict } from "../../lib/http/_window_guard.ts";
import { Window } from "../../lib/http/_window.ts";

const ctx = (over: Partial<PlanContext> = {}): PlanContext => ({
  sign: 1,
  ordered: true,
  splittable: true,
  bound: {},
  pageSize: 25,
  parallel: 8,
  limit: Infinity,
  ...over,
});

/** A window that read `rows` rows from day `first` to day `last` (`onLast` of them on its last day). */
function read(
  a: number | undefined,
  b: number | undefined,
  rows: number,
  first: number,
  last: number,
  onLast: number,
) {
  const w = new Window<number>(a, b);
  w.state = "running";
  w.rows = rows;
  w.pagesRead = 1;
  w.firstDay = first;
  w.run = { day: last, keys: Array.from({ length: onLast }, (_, i) => `k${i}`) };
  return w;
}

Deno.test("density: the rows before the last day over the days they span, all rows on one day", () => {
  // 100 rows over days 0–9, 10 of them on day 9 (still going on): 90 rows over 9 days
  assert.equal(densityOf(read(0, 99, 100, 0, 9, 10), ctx()), 10);
  // all on one day: that day's rows
  assert.equal(densityOf(read(5, 99, 40, 5, 5, 40), ctx()), 40);
  // newest first: positions are day numbers times -1
  assert.equal(densityOf(read(-9, 0, 100, 9, 0, 10), ctx({ sign: -1 })), 10);
});

Deno.test("share: the pages left over the slots, between MIN_PART and TARGET_PAGES; the target at an open end", () => {
  const root = read(undefined, undefined, 25, 0, 2, 5);
  assert.equal(share([root], ctx()), TARGET_PAGES);
  // a row limit: the rows still needed over 8 slots
  assert.equal(share([root], ctx({ limit: 25 + 25 * 40 })), 5);
  assert.equal(share([root], ctx({ limit: 30 })), MIN_PART);
  assert.equal(share([root], ctx({ limit: 1e9 })), TARGET_PAGES);
});

Deno.test("rounds of cuts tile the range: each window starts the day after the last one's end, none past the list's end", () => {
  fc.assert(
    fc.property(
      fc.double({ min: 0.05, max: 400, noNaN: true }),
      fc.integer({ min: 5, max: 100 }),
      fc.integer({ min: 1, max: 16 }),
      fc.option(fc.integer({ min: 1, max: 50_000 }), { nil: undefined }),
      fc.integer({ min: 2, max: 3_000 }),
      (density, pageSize, parallel, limit, span) => {
        const c = ctx({
          pageSize,
          parallel,
          limit: limit ?? Infinity,
          bound: { a: 0, b: span - 1 },
        });
        // the list's first page: a page of rows over the days it spans at that density
        const days = Math.max(1, Math.ceil(pageSize / density));
        const root = read(
          undefined,
          undefined,
          pageSize,
          0,
          days - 1,
          Math.min(pageSize, Math.ceil(density)),
        );
        root.root = true;
        const windows: Window<number>[] = [root, new Window<number>(days, undefined, 0)];
        windows[1].hint = density;
        // each round: the next window is taken by a slot and cut to its share
        for (let i = 1; i < windows.length && i < 400; i++) {
          const x = windows[i];
          const cut = cutAt(x, windows, c);
          if (cut) {
            const rest = x.cut(cut);
            assert.equal(rest.a, x.b! + 1);
            assert.equal(rest.b, undefined);
            assert.ok(x.b! >= x.a!, `${x.a}..${x.b}`);
            assert.ok(x.b! - x.a! + 1 <= 3_660);
            windows.splice(i + 1, 0, rest);
          }
          x.state = "running";
        }
        const last = windows.at(-1)!;
        assert.ok(last.b === undefined || last.b <= span - 1);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("a window about to start is cut to its share at the density read so far", () => {
  // the list's first page: 25 rows over days 0–4 (5 on day 4): 5 rows a day
  const root = read(undefined, undefined, 25, 0, 4, 5);
  root.root = true;
  const next = new Window<number>(5, 999);
  const cut = cutAt(next, [root, next], ctx({ bound: { a: 0, b: 999 } }))!;
  // share: the rest (995 days × 5 rows = 199 pages) over 8 slots, at most 12 pages = 60 days
  assert.equal(cut.end, 5 + 60 - 1);
  // the window after it takes the rest of the range, at that density
  const rest = next.cut(cut);
  assert.deepEqual([rest.a, rest.b, rest.expect, rest.hint], [65, 999, 5 * (995 - 60), 5]);
  // read whole: not splittable, after an empty window, one day left
  assert.equal(cutAt(next, [root, next], ctx({ splittable: false })), undefined);
  assert.equal(
    cutAt(new Window<number>(999, 999), [root], ctx({ bound: { a: 0, b: 999 } })),
    undefined,
  );
});

Deno.test("a running window is split when its rest holds more than twice its share, or when slots would stay idle", () => {
  // 100 rows over days 0–9 (10 a day), range to day 999: 990 days × 10 = 396 pages left
  const w = read(0, 999, 100, 0, 9, 10);
  const c = ctx({ bound: { a: 0, b: 999 } });
  const cut = splitAt(w, [w], c, () => 0)!;
  // its share, plus the rows of its last day already read: (12 + 10/25) pages at 10 a day
  assert.equal(cut.end, 9 + daysOf(TARGET_PAGES + 10 / 25, 10, 25) - 1);
  assert.equal(w.cut(cut).a, cut.end + 1);
  // a small rest (11 days, 4.4 pages) at parallel 1: split only for an idle slot, in two
  const small = read(0, 19, 100, 0, 9, 10);
  const one = ctx({ bound: { a: 0, b: 999 }, parallel: 1 });
  assert.equal(splitAt(small, [small], one, () => 0), undefined);
  assert.equal(
    splitAt(small, [small], one, () => 1)?.end,
    9 + daysOf(4.4 / 2 + 10 / 25, 10, 25) - 1,
  );
});

Deno.test("eligible: the window the reader waits for always goes; windows past the limit or the page cap wait; nothing after a failure", () => {
  const c = ctx({ parallel: 1, limit: 1_000 });
  const head = read(0, 9, 0, 0, 0, 0);
  head.rows = 0;
  const full = read(10, 19, 10, 10, 19, 1);
  full.pages = Array.from(
    { length: MAX_BUFFERED_PAGES },
    () => ({ rows: [], next: null, raw: null }),
  );
  const after = new Window<number>(20, 29);
  const seen = [...eligible([head, full, after], head, c)].map((e) => [e.w, e.ok]);
  assert.deepEqual(seen, [[head, true], [full, false], [after, false]]);
  // past the row limit
  const limited = [...eligible([head, after], head, ctx({ limit: 0 }))];
  assert.equal(limited[0].ok, true); // the head waited for, still
  assert.equal(limited[1].ok, false);
  const failed = new Window<number>(10, 19);
  failed.state = "failed";
  assert.deepEqual([...eligible([head, failed, after], head, c)].map((e) => e.w), [head]);
});

Deno.test("seamVerdict: holds, differs, wait and failed", () => {
  const w = (keys: string[][], state: Window<number>["state"]) => ({ pageKeys: keys, state });
  assert.deepEqual(seamVerdict(["a", "b"], [w([["a"], ["b", "c"]], "running")]), {
    verdict: "holds",
  });
  assert.deepEqual(seamVerdict(["a", "b"], [w([["a"]], "done"), w([["b"]], "queued")]), {
    verdict: "holds",
  });
  assert.deepEqual(seamVerdict(["a", "b"], [w([["b", "a"]], "running")]), { verdict: "differs" });
  // too few rows before the list ends
  assert.deepEqual(seamVerdict(["a", "b"], [w([["a"]], "done")]), { verdict: "differs" });
  assert.deepEqual(seamVerdict(["a", "b"], [w([["a"]], "done"), w([], "running")]), {
    verdict: "wait",
    at: 1,
  });
  assert.deepEqual(seamVerdict(["a", "b"], [w([["a"]], "failed")]), { verdict: "failed", at: 0 });
  assert.deepEqual(seamVerdict(["a", "b"], [w([["x"]], "failed")]), { verdict: "differs" });
});

Deno.test("inRange and endGap", () => {
  const id = (p: number | undefined) => p;
  assert.equal(inRange({ a: 1, b: 3 }, [1, 2, 3], id), true);
  assert.equal(inRange({ a: 1, b: 3 }, [0], id), false);
  assert.equal(inRange({ a: 1, b: 3 }, [4], id), false);
  assert.equal(inRange({ a: 1, b: 3 }, [undefined], id), false); // a day it cannot read
  assert.equal(inRange({}, [undefined, 99], id), true); // the list itself: not checked
  assert.equal(inRange({ a: 1 }, [1_000], id), true); // an open end
  // a walk that ended on a full page short of its end: the rest is probed
  const w = read(0, 20, 25, 0, 4, 5);
  w.lastPos = 4;
  assert.deepEqual(endGap(w, Array(25).fill(4), 25, 1), { a: 5, b: 20, skip: 5 });
  // a short last page, and the density says the rest is nearly empty: a real end
  const quiet = read(0, 5, 10, 0, 4, 2);
  quiet.lastPos = 4;
  assert.equal(endGap(quiet, [3, 4], 25, 1), undefined);
  // nothing left
  const done = read(0, 4, 25, 0, 4, 5);
  done.lastPos = 4;
  assert.equal(endGap(done, Array(25).fill(4), 25, 1), undefined);
});
