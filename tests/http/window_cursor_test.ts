/**
 * Window cursors (`lib/http/_window_cursor.ts`): a service's cursor is
 * opaque text, so any string (Unicode past Latin-1, lone surrogates) is
 * carried exactly through a parallel pull and its resume; a hand-made or
 * damaged `sbw1.` cursor is refused before any request, naming the `cursor`
 * parameter and never quoting more than 40 characters of it.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { type Page, Paginated, partialOf } from "../../lib/http/paginate.ts";
import type { DayRange, WindowSource } from "../../lib/http/windows.ts";
import { decodeWindowCursor, encodeWindowCursor } from "../../lib/http/_window_cursor.ts";
import { RequestValidationError } from "../../lib/http/errors.ts";
import { WindowedList } from "../../lib/frames/windowed_list.ts";
import { lyingFeeds } from "./_lies.ts";
import type { FeedsParams } from "../../mod.ts";

/** Any UTF-16 text: whole code points past Latin-1, and lone surrogates. */
const anyText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)) }),
  fc.constantFrom("курсор:", "\ud800", "\udfff~", "𝄞", "\u0000\u2028"),
);

Deno.test("any cursor text round-trips in a window cursor, lone surrogates included", () => {
  fc.assert(
    fc.property(anyText, fc.nat(1_000), fc.boolean(), (c, s, asc) => {
      const p = { o: asc ? "a" as const : "d" as const, f: "2024-02-29", c, s };
      const cursor = encodeWindowCursor(p);
      assert.match(cursor, /^sbw1\.[A-Za-z0-9_-]*$/);
      assert.deepEqual(decodeWindowCursor(cursor), { ...p, t: undefined });
    }),
    { numRuns: 300 },
  );
});

type Row = { day: string; id: number };
const dayOf = (n: number) =>
  new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);

/** A date-ordered service whose cursors open with `prefix`; a cursor it did not issue fails the request. */
function unicodeService(prefix: string, rows: Row[]) {
  const issued = new Set<string>();
  const fetch = (range: DayRange, cursor: string | null, _s: AbortSignal, size?: number) => {
    if (cursor !== null && !issued.has(cursor)) {
      return Promise.reject(new Error(`cursor not issued: ${JSON.stringify(cursor)}`));
    }
    const all = rows.filter((r) =>
      (range.from === undefined || r.day >= range.from) &&
      (range.to === undefined || r.day <= range.to)
    );
    const at = cursor === null ? 0 : Number(cursor.slice(cursor.lastIndexOf(":") + 1));
    const n = size ?? 10;
    const next = at + n < all.length ? `${prefix}${range.from}..${range.to}:${at + n}` : null;
    if (next !== null) issued.add(next);
    return Promise.resolve<Page<Row>>({ rows: all.slice(at, at + n), next, raw: null });
  };
  const source: WindowSource<Row> = {
    pageSize: 10,
    order: "desc",
    day: (r) => r.day,
    key: (r) => String(r.id),
    fetch,
  };
  const list = (parallel: number, cursor?: string) =>
    new WindowedList<Row>((c, s) => fetch({}, c, s), source, {
      sink: () => {
        throw new Error("no frame here");
      },
    }, { parallel, ...(cursor === undefined ? {} : { cursor }) });
  return { fetch, list };
}

Deno.test("a service whose cursors are any Unicode text: serial, parallel and resumed pulls give every row once", async () => {
  const rows: Row[] = [];
  for (let d = 0; d < 60; d++) {
    for (let i = 0; i < 1 + (d % 7) * 3; i++) rows.push({ day: dayOf(200 - d), id: rows.length });
  }
  const ids = rows.map((r) => r.id);
  await fc.assert(
    fc.asyncProperty(anyText, fc.constantFrom(2, 4, 8), fc.nat(20), async (prefix, k, stop) => {
      const svc = unicodeService(prefix, rows);
      const serial = await new Paginated<Row>((c, s) => svc.fetch({}, c, s)).take(10_000);
      assert.deepEqual(serial.map((r) => r.id), ids);
      const pages: Page<Row>[] = [];
      for await (const page of svc.list(k).pages()) pages.push(page);
      assert.deepEqual(pages.flatMap((p) => p.rows.map((r) => r.id)), ids);
      // resumed at the next of any page, in parallel and at parallel 1
      const at = Math.min(stop, pages.length - 2);
      const before = pages.slice(0, at + 1).flatMap((p) => p.rows).length;
      for (const again of [k, 1]) {
        const rest = await svc.list(again, pages[at].next!).take(10_000);
        assert.deepEqual(rest.map((r) => r.id), ids.slice(before));
      }
    }),
    { numRuns: 40 },
  );
});

Deno.test("feeds with Cyrillic cursors: a parallel pull that fails keeps its rows, and its cursor resumes", async () => {
  const lies = { days: 40, perDay: 9, cursorPrefix: "курсор:", failOnce: 3 };
  const svc = lyingFeeds(lies);
  const all = await lyingFeeds({ days: 40, perDay: 9 }).insider.feeds({ feedIds: [1], limit: 25 })
    .take(1_000);
  const ids = all.map((r) => r.accession_number);
  let error: unknown;
  try {
    await svc.insider.feeds({ feedIds: [1], limit: 25 }, { parallel: 8 }).take(1_000);
  } catch (e) {
    error = e;
  }
  const partial = partialOf<typeof all>(error);
  assert.ok(partial, `a failure with its rows: ${error}`);
  assert.deepEqual(partial.rows.map((r) => r.accession_number), ids.slice(0, partial.rows.length));
  const rest = await svc.insider.feeds({ feedIds: [1], limit: 25 }, {
    parallel: 8,
    cursor: partial.cursor!,
  }).take(1_000);
  assert.deepEqual([...partial.rows, ...rest].map((r) => r.accession_number), ids);
  // and serially, every cursor sent back as it was issued
  const serial = await lyingFeeds({ days: 40, perDay: 9, cursorPrefix: "курсор:" }).insider
    .feeds({ feedIds: [1], limit: 25 }).take(1_000);
  assert.deepEqual(serial.map((r) => r.accession_number), ids);
});

const b64 = (json: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(json))).replace(/\+/g, "-")
    .replace(/\//g, "_").replace(/=+$/, "");

Deno.test("a hand-made window cursor is refused before any request, naming the cursor parameter", () => {
  const secretish = "s3cr3t-" + "x".repeat(80);
  const bad = [
    "sbw1.zzzz",
    "sbw1.",
    "sbw1.!!!",
    "sbw1." + b64('{"o":"d","f":"2024-13-45","c":null,"s":0}'),
    "sbw1." + b64('{"o":"d","t":"zzzz","c":null,"s":0}'),
    "sbw1." + b64('{"o":"d","f":"2024-03-02","t":"2024-03-01","c":null,"s":0}'),
    "sbw1." + b64('{"o":"d","c":null,"s":-1}'),
    "sbw1." + b64('{"o":"x","c":null,"s":0}'),
    "sbw1." + b64('{"o":"a","c":7,"s":0}'),
    "sbw1." + b64("[1,2]"),
    "sbw1." + btoa("\xff\xfe{}"),
    "sbw1." + b64(`{"o":"d","f":"${secretish}","c":null,"s":0}`),
  ];
  for (const cursor of bad) {
    const svc = lyingFeeds({ days: 3, perDay: 3 });
    for (const parallel of [undefined, 8]) {
      assert.throws(
        () => svc.insider.feeds({ feedIds: [1], limit: 25 }, { parallel, cursor }),
        (e: unknown) => {
          assert.ok(e instanceof RequestValidationError, String(e));
          assert.equal(e.issues[0].param, "cursor");
          assert.match(e.message, /cursor: "sbw1\./);
          assert.ok(!e.message.includes(cursor.slice(0, 41)) || cursor.length <= 40, e.message);
          return true;
        },
      );
    }
    assert.equal(svc.counts.requests, 0);
  }
});

Deno.test("a cursor a URL cannot carry as given (a lone surrogate) is refused naming it, never sent as U+FFFD", async () => {
  for (const parallel of [undefined, 8]) {
    const svc = lyingFeeds({ days: 30, perDay: 7, cursorPrefix: "ab\ud800cd:" });
    const error = await svc.insider.feeds({ feedIds: [1] }, { parallel }).frame({ progress: false })
      .then(() => undefined, (e) => e);
    const cause = error?.cause ?? error;
    const found = [error, cause].find((e) => e instanceof RequestValidationError);
    assert.ok(found instanceof RequestValidationError, `${parallel}: ${error}`);
    assert.equal(found.issues[0].param, "cursor");
    assert.match(found.message, /"ab\\ud800cd:.*lone surrogate/);
  }
  // what a URL can carry goes as it is: the surrogate pair of 𝄞
  const ok = lyingFeeds({ days: 3, perDay: 7, cursorPrefix: "ab𝄞:" });
  assert.equal((await ok.insider.feeds({ feedIds: [1] }).take(100)).length, 21);
});

/** A window cursor's bytes (its JSON, then its seal). */
const bytesOf = (cursor: string) =>
  Uint8Array.fromBase64(cursor.slice(5), { alphabet: "base64url" });
const cursorOf = (bytes: Uint8Array) =>
  "sbw1." + bytes.toBase64({ alphabet: "base64url", omitPadding: true });

Deno.test("only a window cursor this list sealed passes: bytes or fields changed, hand-made skips and days, another cursor's seal are refused", () => {
  const position = fc.record({
    o: fc.constantFrom("d" as const, "a" as const),
    f: fc.constantFrom("2024-01-01", "2024-02-29"),
    c: fc.oneof(fc.constant(null), anyText),
    s: fc.nat(100),
  });
  const refused = (cursor: string) => {
    assert.throws(() => decodeWindowCursor(cursor), (e: unknown) => {
      assert.ok(e instanceof RequestValidationError, String(e));
      assert.equal(e.issues[0].param, "cursor");
      assert.match(e.message, /cursor: "sbw1\./);
      return true;
    });
  };
  fc.assert(
    fc.property(position, position, fc.nat(), fc.integer({ min: 1, max: 255 }), (p, q, at, x) => {
      const good = encodeWindowCursor(p);
      const bytes = bytesOf(good);
      // one byte changed anywhere: in the JSON or in the seal
      const flipped = bytes.slice();
      flipped[at % bytes.length] ^= x;
      refused(cursorOf(flipped));
      // fields changed (a huge skip, days out of any range, another cursor): the old seal
      const json = new TextDecoder().decode(bytes.subarray(0, -12));
      const seal = bytes.subarray(-12);
      for (
        const edit of [
          { s: 9_007_199_254_740_991 },
          { s: p.s + 1 },
          { f: "2024-13-45", t: "zzzz" },
          { f: "1900-01-01", t: "9999-12-31" },
          { o: p.o === "d" ? "a" : "d" },
          { c: "hand-made" },
        ]
      ) {
        const edited = new TextEncoder().encode(JSON.stringify({ ...JSON.parse(json), ...edit }));
        refused(cursorOf(new Uint8Array([...edited, ...seal])));
        refused(cursorOf(edited)); // no seal at all
      }
      // another position's seal (a foreign digest)
      const other = bytesOf(encodeWindowCursor(q));
      if (JSON.stringify(p) !== JSON.stringify(q)) {
        refused(cursorOf(new Uint8Array([...bytes.subarray(0, -12), ...other.subarray(-12)])));
      }
      // cut short or grown
      refused(cursorOf(bytes.subarray(0, -1)));
      refused(cursorOf(new Uint8Array([...bytes, 0])));
      assert.deepEqual(decodeWindowCursor(good), { ...p, t: undefined });
    }),
    { numRuns: 200 },
  );
});

Deno.test("a hand-made window cursor with a huge skip is refused through a list, sending nothing", () => {
  const handMade = cursorOf(
    new TextEncoder().encode('{"o":"d","f":"2024-01-01","c":null,"s":1000000}'),
  );
  for (const parallel of [undefined, 1, 8]) {
    const svc = lyingFeeds({ days: 30, perDay: 9 });
    assert.throws(
      () => svc.insider.feeds({ feedIds: [1], limit: 25 }, { parallel, cursor: handMade }),
      (e: unknown) => e instanceof RequestValidationError && e.issues[0].param === "cursor",
    );
    assert.equal(svc.counts.requests, 0);
  }
});

Deno.test("a window cursor resumes only the list that handed it out: another feed, date range or endpoint is refused; page size and key order are not the list", async () => {
  const svc = lyingFeeds({ days: 40, perDay: 9 });
  const params: FeedsParams = { feedIds: [1], from: "2000-01-01", limit: 25 };
  let cursor = "";
  for await (const page of svc.insider.feeds(params, { parallel: 8 }).pages()) {
    if (page.next?.startsWith("sbw1.")) {
      cursor = page.next;
      break;
    }
  }
  assert.match(cursor, /^sbw1\./);
  const before = svc.counts.requests;
  for (
    const other of [
      { ...params, feedIds: [2] } as FeedsParams,
      { ...params, from: "2000-01-02" },
      { ...params, to: "2099-01-01" },
    ]
  ) {
    for (const parallel of [undefined, 8]) {
      assert.throws(
        () => svc.insider.feeds(other, { parallel, cursor }),
        (e: unknown) => e instanceof RequestValidationError && e.issues[0].param === "cursor",
        JSON.stringify(other),
      );
    }
  }
  assert.throws(
    () => svc.insider.search({}, { parallel: 8, cursor }),
    (e: unknown) => e instanceof RequestValidationError && e.issues[0].param === "cursor",
  );
  assert.equal(svc.counts.requests, before, "no request");
  // the same list, its keys in another order and another page size: resumed
  const same: FeedsParams = { limit: 10, from: "2000-01-01", feedIds: [1] };
  const rest = await svc.insider.feeds(same, { parallel: 4, cursor }).take(10_000);
  assert.ok(rest.length > 0);
});

Deno.test("a search window cursor resumes the same filter written in another key order (nested too), and no other filter", async () => {
  const { createStub, DEMO_KEYS, InsiderClient } = await import("../../mod.ts");
  const stub = createStub({ seed: 1, latencyMs: 0 });
  const insider = new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://s/insider",
    fetch: stub.fetch,
  });
  const filter = {
    filingDateFrom: "2025-01-01",
    filingDateTo: "2026-11-01",
    position: { ceo: true, officer: true },
  };
  let cursor = "";
  for await (const page of insider.search(filter, { parallel: 4, pageSize: 20 }).pages()) {
    if (page.next?.startsWith("sbw1.")) {
      cursor = page.next;
      break;
    }
  }
  assert.match(cursor, /^sbw1\./);
  const reordered = {
    position: { officer: true, ceo: true },
    filingDateTo: "2026-11-01",
    filingDateFrom: "2025-01-01",
  };
  assert.ok((await insider.search(reordered, { parallel: 4, cursor }).take(5)).length > 0);
  assert.throws(
    () => insider.search({ ...filter, filingDateTo: "2026-10-31" }, { parallel: 4, cursor }),
    (e: unknown) => e instanceof RequestValidationError && e.issues[0].param === "cursor",
  );
});
