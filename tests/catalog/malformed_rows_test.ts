/**
 * Issue 25.10a: pitch rows without a `pitch` object (or not objects at all)
 * are an `InvalidResponseError` naming the row, in frames, lists, `sync()`
 * and the sync and demo commands; never `TypeError … 'pitch_date'`.
 */
import assert from "node:assert/strict";
import { CatalogClient, InvalidResponseError, pitchesFrame, sync } from "../../mod.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";
import { loopback } from "../_loopback.ts";

/** What a malformed row becomes: each variant with the text the error must show. */
const VARIANTS: [string, (row: Record<string, unknown>) => unknown, RegExp][] = [
  ["no pitch", ({ pitch: _, ...rest }) => rest, /has no "pitch" object \(its keys: pitch_id/],
  ["pitch null", (r) => ({ ...r, pitch: null }), /has no "pitch" object \("pitch" is null\)/],
  ["pitch a list", (r) => ({ ...r, pitch: [1] }), /"pitch" is \[1\]/],
  ["pitch text", (r) => ({ ...r, pitch: "x" }), /"pitch" is "x"/],
  ["row null", () => null, /is not a JSON object but null/],
  ["row text", () => "row", /is not a JSON object but "row"/],
];

/**
 * The stub's fetch with list row `at` (0-based, counted across pages) made
 * malformed; with `everyPage`, row `at` of every page.
 */
function breaking(
  stub: ReturnType<typeof createStub>,
  at: number,
  bad: (r: never) => unknown,
  everyPage = false,
) {
  let seen = 0;
  return async (input: Request | URL | string, init?: RequestInit) => {
    const res = await stub.fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!url.pathname.endsWith("/api/v1/pitches") || res.status !== 200) return res;
    const body = await res.json();
    if (everyPage) seen = 0;
    body.data = body.data.map((r: never) => seen++ === at ? bad(r) : r);
    return Response.json(body);
  };
}

Deno.test("pitchesFrame: every kind of malformed row is an InvalidResponseError naming its number and pitch_id", async () => {
  const stub = createStub({ seed: 2, scale: 0.1 });
  const catalog = new CatalogClient({
    apiKey: DEMO_KEYS.catalog,
    baseUrl: "http://s/catalog",
    fetch: stub.fetch,
  });
  const rows = (await catalog.pitches({ limit: 5 }).firstPage()).rows;
  for (const [name, bad, re] of VARIANTS) {
    for (const at of [0, 3]) {
      const broken = rows.map((r, i) => i === at ? bad(structuredClone(r) as never) : r);
      const err = (() => {
        try {
          pitchesFrame(broken as never);
        } catch (e) {
          return e as Error;
        }
        assert.fail(`${name} at ${at}: no error`);
      })();
      assert.ok(
        err instanceof InvalidResponseError,
        `${name} at ${at}: ${err.name}: ${err.message}`,
      );
      assert.match(err.message, new RegExp(`^pitch list row ${at + 1}\\b`), err.message);
      assert.match(err.message, re);
      if (name.startsWith("pitch") || name === "no pitch") {
        assert.ok(err.message.includes(`(pitch_id "${rows[at].pitch_id}")`), err.message);
      }
    }
  }
});

Deno.test(".frame() and sync() on a list with a malformed row on page 2: typed error naming the row", async () => {
  const stub = createStub({ seed: 2, scale: 0.1 });
  const client = (at: number) =>
    new CatalogClient({
      apiKey: DEMO_KEYS.catalog,
      baseUrl: "http://s/catalog",
      fetch: breaking(stub, at, ({ pitch: _, ...rest }: Record<string, unknown>) => rest),
    });
  const err = await client(26).pitches({ limit: 20 }).frame().then(
    () => assert.fail("no error"),
    (e) => e,
  );
  assert.ok(err instanceof InvalidResponseError, `${err}`);
  assert.match(
    err.message,
    /^GET \/pitches: row \d+ of 20 \(pitch_id "[^"]+"\) has no "pitch" object/,
  );
  // a plain loop over the list gets the same typed error, after the good rows before it
  let seen = 0;
  const loop = await (async () => {
    for await (const row of client(26).pitches({ limit: 20 })) {
      assert.equal(typeof row.pitch.pitch_date, "string");
      seen++;
    }
  })().then(() => assert.fail("no error"), (e) => e);
  assert.ok(loop instanceof InvalidResponseError, `${loop}`);
  assert.equal(seen, 20, "the first page's rows were all seen");
  const dir = await Deno.makeTempDir();
  try {
    const s = await sync({ dir, catalog: client(3), datasets: ["pitches"], to: "2026-11-20" })
      .then(() => assert.fail("sync went through"), (e) => e);
    // sync keeps the other months and reports the failed one with its typed error
    assert.ok(s instanceof AggregateError, `${s}`);
    assert.equal(s.errors.length, 1);
    assert.ok(s.errors[0] instanceof InvalidResponseError, `${s.errors[0]}`);
    assert.match(
      s.errors[0].message,
      /^GET \/pitches: row \d+ of \d+ \(pitch_id "[^"]+"\) has no "pitch" object/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task sync and demo against a service sending a row without pitch: one line, exit 1, no TypeError", async () => {
  const stub = createStub({ seed: 2, scale: 0.05 });
  const fetch = breaking(stub, 0, ({ pitch: _, ...rest }: Record<string, unknown>) => rest, true);
  const srv = loopback((req) => fetch(req));
  const base = srv.base;
  const dir = await Deno.makeTempDir();
  try {
    for (
      const [cli, args] of [
        ["sync", ["--dir", `${dir}/data`, "--datasets", "pitches"]],
        ["demo", ["--out", `${dir}/out`]],
      ] as const
    ) {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--no-check", `lib/cli/${cli}.ts`, ...args],
        env: {
          PITCH_API_KEY: DEMO_KEYS.catalog,
          PITCH_BASE_URL: `${base}/catalog`,
          INSIDER_API_KEY: DEMO_KEYS.insider,
          INSIDER_BASE_URL: `${base}/insider`,
          NO_COLOR: "1",
        },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr).trim();
      assert.equal(out.code, 1, `${cli}: ${stderr}`);
      const lines = stderr.split("\n").filter((l) => !/^\s*$/.test(l) && !l.includes("▏"));
      const last = lines.at(-1)!;
      assert.match(
        last,
        new RegExp(
          `^${cli}: GET /pitches: row \\d+ of \\d+ \\(pitch_id "[^"]+"\\) has no "pitch" object`,
        ),
      );
      assert.doesNotMatch(stderr, /TypeError|pitch_date'|^\s+at /m);
    }
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
