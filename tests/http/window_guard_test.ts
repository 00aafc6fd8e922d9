/**
 * A parallel pull never returns what the serial pull would not (issue 31,
 * Deliver 1): against servers that read the date filter otherwise — one
 * that ignores `from`, one that ignores `to`, one that dates rows by
 * another field — and servers whose cursors loop after 3 or 50 pages,
 * `parallel: 8` gives exactly the serial pull's rows (or the same error
 * with the same partial rows), for the search, feeds and `sync`, with at
 * most one warning and no row twice. Cursors are refused above
 * `MAX_CURSOR_CHARS` with an `InvalidResponseError`.
 */
import assert from "node:assert/strict";
import {
  InsiderClient,
  InvalidResponseError,
  PaginationError,
  partialOf,
  scanInsiderTrades,
  sync,
} from "../../mod.ts";
import { MAX_CURSOR_CHARS, Paginated } from "../../lib/http/paginate.ts";
import { createStub, DEMO_KEYS, type Stub } from "../../lib/stub/mod.ts";
import { captureWarnings } from "../_warnings.ts";

type Mode = "ignore-from" | "ignore-to" | "other-field" | { cycle: number } | "huge-cursor";

const shift = (d: unknown, days: number) =>
  typeof d === "string" && /^\d{4}-\d{2}-\d{2}$/.test(d)
    ? new Date(Date.parse(d) + days * 86_400_000).toISOString().slice(0, 10)
    : d;

/**
 * The emulator behind a server that chose otherwise. Date modes rewrite the
 * request's date bounds (the search's `filingDateFrom`/`filingDateTo`, the
 * feeds' `from`/`to`): dropped, or moved 3 days later (the server filters by
 * a date 3 days before the filing, rows stay ordered by filing). `cycle`
 * hands out its own cursors `p1`, `p2`, … per walk (the page number, as an
 * offset server would) and sends `p1` again after `cycle` pages.
 */
function hostile(stub: Stub, mode: Mode) {
  const walks = new Map<string, (string | null)[]>();
  const fetch = async (input: Request | URL | string, init?: RequestInit) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    let body: Record<string, Record<string, unknown>> | undefined = req.method === "POST"
      ? await req.json()
      : undefined;
    const bounds = (f: (from: unknown, to: unknown) => [unknown, unknown]) => {
      if (body) {
        const [a, b] = f(body.filter.filingDateFrom, body.filter.filingDateTo);
        body.filter = { ...body.filter, filingDateFrom: a ?? null, filingDateTo: b ?? null };
      } else {
        const [a, b] = f(
          url.searchParams.get("from") ?? undefined,
          url.searchParams.get("to") ?? undefined,
        );
        url.searchParams.delete("from");
        url.searchParams.delete("to");
        if (a) url.searchParams.set("from", String(a));
        if (b) url.searchParams.set("to", String(b));
      }
    };
    if (mode === "ignore-from") bounds((_a, b) => [undefined, b]);
    if (mode === "ignore-to") bounds((a) => [a, undefined]);
    if (mode === "other-field") bounds((a, b) => [shift(a, 3), shift(b, 3)]);
    let walk: (string | null)[] | undefined;
    let k = 0;
    if (typeof mode === "object") {
      const token = body
        ? (body.pagination.cursor as string | null)
        : url.searchParams.get("cursor");
      const key = body
        ? JSON.stringify(body.filter)
        : [...url.searchParams].filter(([n]) => n !== "cursor").sort().join("&");
      walk = walks.get(key) ?? [null];
      walks.set(key, walk);
      k = token ? Number(token.slice(1)) : 0;
      const real = walk[k];
      if (body) body = { ...body, pagination: { ...body.pagination, cursor: real } };
      else if (real) url.searchParams.set("cursor", real);
      else url.searchParams.delete("cursor");
    }
    const res = await stub.fetch(
      new Request(url, {
        method: req.method,
        headers: req.headers,
        body: body ? JSON.stringify(body) : undefined,
      }),
    );
    if (mode !== "huge-cursor" && typeof mode !== "object") return res;
    const json = await res.json();
    const field = "nextCursor" in json ? "nextCursor" : "next_cursor";
    if (mode === "huge-cursor") {
      if (json[field]) json[field] = json[field] + "x".repeat(MAX_CURSOR_CHARS);
    } else if (json[field] && walk && typeof mode === "object") {
      walk[k + 1] = json[field];
      json[field] = k + 1 === mode.cycle ? "p1" : `p${k + 1}`;
    }
    const headers = new Headers(res.headers);
    headers.delete("content-length");
    return new Response(JSON.stringify(json), { status: res.status, headers });
  };
  return new InsiderClient({ apiKey: DEMO_KEYS.insider, baseUrl: "http://s/insider", fetch });
}

const stub = createStub({ seed: 4, scale: 0.3 });
const syncStub = createStub({ seed: 4, scale: 0.1 });
const FROM = "2023-01-01";
const TO = "2025-06-30";

async function caught(f: () => Promise<unknown[]>) {
  try {
    return { rows: await f() };
  } catch (e) {
    return { error: e as Error, rows: partialOf<unknown[]>(e)?.rows ?? [] };
  }
}

async function withWarnings<T>(f: () => Promise<T>): Promise<{ value: T; warnings: string[] }> {
  const captured = captureWarnings();
  const warnings = captured.lines;
  try {
    return { value: await f(), warnings };
  } finally {
    captured.restore();
  }
}

const searchKey = (r: unknown) => {
  const x = r as { accessionNumber: string; transactionId: unknown };
  return `${x.accessionNumber}/${x.transactionId}`;
};
const feedKey = (r: unknown) => {
  const x = r as { accession_number: string; transaction_id: unknown };
  return `${x.accession_number}/${x.transaction_id}`;
};

const lists = {
  search: (c: InsiderClient, parallel: number) =>
    c.search({ filingDatePreset: "custom", filingDateFrom: FROM, filingDateTo: TO }, {
      pageSize: 25,
      parallel,
    }),
  feeds: (c: InsiderClient, parallel: number) =>
    c.feeds({ feedIds: [15, 16, 17, 18], from: FROM, to: TO, limit: 5 }, { parallel }),
};

const modes: Mode[] = ["ignore-from", "ignore-to", "other-field", { cycle: 3 }, { cycle: 50 }];

for (const [name, list] of Object.entries(lists)) {
  const key = name === "search" ? searchKey : feedKey;
  for (const mode of modes) {
    Deno.test(`${name}, a server with ${JSON.stringify(mode)}: parallel 8 gives the serial pull's rows, each once`, async () => {
      const serial = await caught(() => list(hostile(stub, mode), 1).take(1e6));
      const { value: par, warnings } = await withWarnings(() =>
        caught(() => list(hostile(stub, mode), 8).take(1e6))
      );
      const keys = par.rows.map(key);
      assert.equal(new Set(keys).size, keys.length, "no row twice");
      assert.deepEqual(keys, serial.rows.map(key));
      assert.equal(par.error?.name, serial.error?.name);
      if (typeof mode === "object") {
        assert.ok(serial.error instanceof PaginationError, "the serial pull catches the loop");
        assert.equal(serial.rows.length, (name === "search" ? 25 : 5) * mode.cycle);
      } else {
        assert.equal(serial.error, undefined);
        assert.ok(serial.rows.length > 300, `${serial.rows.length} rows`);
      }
      assert.ok(warnings.length <= 1, warnings.join("\n"));
      if (mode !== "ignore-to" || name !== "feeds") {
        // (a server that ignores `to` on a newest-first list may never be asked a later window)
        assert.equal(warnings.length, 1, `one warning: ${warnings.join("\n")}`);
      }
      assert.ok(
        !/\d{4}-\d{2}-\d{2}|accession|sk-/.test(warnings.join("")),
        "no value in the warning",
      );
    });
  }
}

Deno.test("a cursor longer than MAX_CURSOR_CHARS is an InvalidResponseError, serial and parallel; the message does not quote it", async () => {
  for (const parallel of [1, 8]) {
    const e = await lists.search(hostile(stub, "huge-cursor"), parallel).take(1e6).catch((e) => e);
    assert.ok(e instanceof InvalidResponseError, String(e));
    assert.match(e.message, new RegExp(`at most ${MAX_CURSOR_CHARS}`));
    assert.ok(!e.message.includes("xxxx"));
  }
  const p = new Paginated<number>(() =>
    Promise.resolve({ rows: [1], next: "c".repeat(MAX_CURSOR_CHARS + 1), raw: null })
  );
  await assert.rejects(p.take(5), InvalidResponseError);
});

Deno.test("cursors are kept as digests: a 4 MiB cursor is refused at once, memory does not grow with pages", async () => {
  let pages = 0;
  const big = "z".repeat(4 << 20);
  const p = new Paginated<number>(() => {
    pages++;
    return Promise.resolve({ rows: [pages], next: big + pages, raw: null });
  });
  const e = await p.take(1000).catch((e) => e);
  assert.ok(e instanceof InvalidResponseError);
  assert.equal(pages, 1, "no request made with it");
});

for (
  const mode of ["ignore-from", "ignore-to", "other-field", { cycle: 3 }, { cycle: 50 }] as Mode[]
) {
  Deno.test(`sync, a server with ${JSON.stringify(mode)}: concurrency 8 stores what concurrency 1 stores`, async () => {
    const stored: unknown[] = [];
    for (const concurrency of [1, 8]) {
      const dir = await Deno.makeTempDir();
      const r = await withWarnings(() =>
        sync({
          dir,
          // six months of a small world: each month is its own pull, so more months or
          // rows only repeat the check (a server that drops a bound sends the whole history)
          from: "2024-01-01",
          to: "2024-06-30",
          insider: hostile(syncStub, mode),
          datasets: ["insider_trades"],
          concurrency,
          progress: false,
        }).then(() => undefined, (e: Error) => e.name)
      );
      let rows: string[] = [];
      try {
        const df = (await scanInsiderTrades(dir)).collectSync();
        rows = df.select("accession_number", "transaction_id").rows().map((x) => x.join("/"))
          .sort();
      } catch {
        rows = [];
      }
      assert.equal(new Set(rows).size, rows.length, "no row twice");
      assert.ok(r.warnings.length <= 1 + (r.value ? 1 : 0), r.warnings.join("\n"));
      stored.push({ error: r.value, rows });
      await Deno.remove(dir, { recursive: true });
    }
    assert.deepEqual(stored[1], stored[0]);
    if (typeof mode !== "object") {
      assert.ok((stored[0] as { rows: string[] }).rows.length > 100);
    }
  });
}
