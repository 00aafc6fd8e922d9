/**
 * Paging lies caught, each pull in its own process with time and memory
 * ceilings (a lie not caught pages forever): a page of rows already sent,
 * under a new cursor, is a loop (`PaginationError`, reason
 * `"repeated-rows"`); rows sent twice under one key are handed out once and
 * counted in one warning, serial and `parallel: 8` alike; a date window
 * that ends early while a later window has rows stops the pull with reason
 * `"early-end"` and the rows before the hole. Generated lies (fast-check)
 * hold the same invariants: what is handed out is always a prefix of the
 * list, in order, each row once.
 */
import assert from "node:assert/strict";
import type { Lies } from "./_lies.ts";
import { lyingFeeds } from "./_lies.ts";
import { Paginated } from "../../lib/http/paginate.ts";
import type { Outcome } from "./paging_lies_child.ts";

const CHILD = new URL("./paging_lies_child.ts", import.meta.url).pathname;
/** Ceilings of a child: heap (MB) and time (a hang, not a speed check). */
const HEAP_MB = 256;
const CEILING_MS = 240_000;

async function child(...args: string[]): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", `--v8-flags=--max-old-space-size=${HEAP_MB}`, CHILD, ...args],
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(CEILING_MS),
  }).output();
  const text = new TextDecoder().decode(out.stdout).trim();
  assert.equal(
    out.code,
    0,
    `child ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`,
  );
  return text.split("\n").at(-1)!;
}

const pull = async (lies: Lies, parallel: number): Promise<Outcome> =>
  JSON.parse(await child("case", JSON.stringify({ lies, parallel })));

const upTo = (n: number) => Array.from({ length: n }, (_, i) => i);

Deno.test("the same rows under ever-new cursors are a loop: PaginationError after a few requests, serial and parallel", async () => {
  // 200 rows in 8 pages of 25, then the same pages again forever under new page numbers
  const loop = { days: 40, perDay: 5, loopAfter: 8 };
  const serial = await pull(loop, 1);
  assert.equal(serial.error?.name, "PaginationError");
  assert.equal(serial.error?.reason, "repeated-rows");
  assert.deepEqual(serial.rows, upTo(200));
  assert.equal(serial.requests, 9);
  for (const pageCursor of [false, true]) {
    const par = await pull({ ...loop, pageCursor }, 8);
    assert.equal(par.error?.name, "PaginationError", JSON.stringify(par.error));
    assert.deepEqual(par.rows, upTo(200));
    assert.ok(par.requests <= 80, `${par.requests} requests`);
    console.log(
      `200 rows sent again forever (${pageCursor ? "page-number" : "named"} cursors): ` +
        `${serial.requests} requests serially, ${par.requests} at parallel: 8`,
    );
  }
});

Deno.test("rows sent twice under the same key are handed out once, counted in one warning, serial and parallel alike", async () => {
  const within = { days: 100, perDay: 20, again: [5, 150, 151] };
  for (const parallel of [1, 8]) {
    const out = await pull(within, parallel);
    assert.equal(out.error, null);
    assert.deepEqual(out.rows, upTo(2000));
    const warned = out.warnings.filter((w) => /again under a key/.test(w));
    assert.equal(warned.length, 1, JSON.stringify(out.warnings));
    assert.match(warned[0], /sent 3 rows again/);
  }
  // across pages: each page starts with the last row of the page before
  const across = { days: 100, perDay: 20, repeatPrev: true };
  const serial = await pull(across, 1);
  assert.deepEqual(serial.rows, upTo(2000));
  assert.match(serial.warnings.join("\n"), /sent 79 rows again/); // 80 pages
  const par = await pull(across, 8);
  assert.deepEqual(par.rows, upTo(2000));
  assert.match(par.warnings.join("\n"), /sent \d+ rows again/);
});

Deno.test("firstPage() hands out a row sent twice in its page once, with the warning", async () => {
  const svc = lyingFeeds({ days: 2, perDay: 20, again: [3] });
  const warned: string[] = [];
  const warn = console.warn;
  console.warn = (...a: unknown[]) => void warned.push(a.join(" "));
  try {
    const page = await svc.insider.feeds({ feedIds: [1], limit: 25 }).firstPage();
    assert.deepEqual(page.rows.map((r) => Number(r.accession_number.slice(-6))), upTo(25));
  } finally {
    console.warn = warn;
  }
  assert.deepEqual(warned, [
    "signalbook: the service sent 1 row again under a key it had already sent in this pull; " +
    "each row was kept once",
  ]);
});

Deno.test("rows without a key are never taken for duplicates; a keyed row sent again is", async () => {
  const pages = [[{ k: "" }, { k: "a" }, { k: "" }], [{ k: "a" }, { k: "" }, { k: "b" }]];
  const list = new Paginated<{ k: string }>(
    (cursor) =>
      Promise.resolve({ rows: pages[Number(cursor ?? 0)], next: cursor ? null : "1", raw: null }),
    {},
    (r) => r.k,
  );
  const warn = console.warn;
  console.warn = () => {};
  try {
    assert.deepEqual((await list.take(100)).map((r) => r.k), ["", "a", "", "", "b"]);
  } finally {
    console.warn = warn;
  }
});

Deno.test("a window that ends early while a later window has rows stops with reason early-end and the rows before the hole", async () => {
  const lies = { days: 100, perDay: 20, endAfter: 1000 };
  const par = await pull(lies, 8);
  assert.equal(par.error?.name, "PaginationError");
  assert.equal(par.error?.reason, "early-end");
  assert.deepEqual(par.rows, upTo(1001));
  assert.match(par.error?.cursor ?? "", /^sbw1\./);
  // resumed at the cut against an honest service: the rest, each row once
  const honest = lyingFeeds({ days: 100, perDay: 20 });
  const rest: number[] = [];
  const list = honest.insider.feeds({ feedIds: [1], limit: 25 }, {
    parallel: 8,
    cursor: par.error!.cursor!,
  });
  for await (const r of list) rest.push(Number(r.accession_number.slice(-6)));
  assert.deepEqual(rest, upTo(2000).slice(1001));
  // serial: one walk cannot see its own early end (documented)
  const serial = await pull(lies, 1);
  assert.equal(serial.error, null);
  assert.deepEqual(serial.rows, upTo(1001));
});

Deno.test("a list whose own walk skips pages past a window's end stops with skipped-rows, not a seam read otherwise", async () => {
  // the list's own request serves page n as page n + 20: its second page is wholly past the first
  // window's end, after a stretch of days that hold rows (a probe finds them)
  const lies = { days: 100, perDay: 20, skipPages: 20 };
  for (const parallel of [2, 8]) {
    const par = await pull(lies, parallel);
    assert.equal(par.error?.name, "PaginationError", `parallel ${parallel}`);
    assert.equal(par.error?.reason, "skipped-rows");
    assert.deepEqual(par.rows, upTo(25));
    assert.match(par.error?.cursor ?? "", /^sbw1\./);
    // resumed at the cut against the same service: its date-bounded requests give the rest once
    const rest: number[] = [];
    const list = lyingFeeds(lies).insider.feeds({ feedIds: [1], limit: 25 }, {
      parallel,
      cursor: par.error!.cursor!,
    });
    for await (const r of list) rest.push(Number(r.accession_number.slice(-6)));
    assert.deepEqual(rest, upTo(2000).slice(25));
  }
  // what cannot be seen (documented): a skip inside one walk (serial, or within a window's
  // range) leaves no row sent again and no quiet stretch past an end; no total count is sent
  const serial = await pull(lies, 1);
  assert.equal(serial.error, null);
  assert.equal(serial.rows.length, 2000 - 20 * 25);
});

Deno.test("generated lies: what a pull hands out is a prefix of the list, in order, each row once; loops end", async () => {
  assert.equal(await child("property", "80"), "ok");
});
