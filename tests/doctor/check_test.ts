/**
 * checkServices() / deno task doctor: exit 0 against the default emulator
 * and every dialect, 1 with a line per problem against a server answering
 * what the client cannot read, and never a key in the output.
 */
import assert from "node:assert/strict";
import { checkServices, formatReport, type ServicesReport } from "../../lib/doctor/mod.ts";
import { createStub, DEMO_KEYS, DIALECTS, type Stub } from "../../lib/stub/mod.ts";
import { InsiderClient } from "../../lib/insider/client.ts";

const NO_KEYS = () => undefined;
const FAKE = { catalog: "sk-live-DOCTOR-CATALOG-7f3a9", insider: "sk-live-DOCTOR-INSIDER-2b81c" };

function shapesOf(r: ServicesReport, service: string, endpoint: string): Record<string, string> {
  const s = r.services.find((x) => x.service === service)!;
  const calls = s.calls.filter((c) => c.endpoint === endpoint && !c.name.startsWith("problem"));
  return Object.fromEntries(calls.flatMap((c) => c.shapes.map((x) => [x.point, x.shape])));
}

function problemType(r: ServicesReport, service: string): string {
  const s = r.services.find((x) => x.service === service)!;
  return s.calls.find((c) => c.name.startsWith("problem"))!.shapes
    .find((x) => x.point === "problem type")!.shape;
}

Deno.test("checkServices against the default emulator: every call understood, full coverage", async () => {
  const r = await checkServices({ env: NO_KEYS });
  assert.deepEqual(r.problems, []);
  assert.equal(r.ok, true);
  assert.deepEqual(r.services.map((s) => [s.service, s.offline, s.target]), [
    ["catalog", true, "in-process emulator"],
    ["insider", true, "in-process emulator"],
  ]);
  const calls = r.services.flatMap((s) => s.calls.map((c) => `${s.service} ${c.endpoint}`));
  assert.deepEqual(calls, [
    "catalog GET /pitches",
    "catalog GET /pitches/{id}",
    "catalog GET /pitches/{id}/document",
    "catalog GET /tags",
    "catalog GET /filter-sets",
    "catalog GET /pitches/{id}",
    "catalog GET /search",
    "insider POST /search",
    "insider GET /feeds",
    "insider GET /transactions/{accessionNumber}/{transactionId}",
    "insider GET /transactions/{accessionNumber}/{transactionId}",
    "insider GET /insiders",
  ]);
  for (const c of r.services.flatMap((s) => s.calls)) {
    assert.equal(c.ok, true, c.endpoint);
    assert.equal(c.statuses.length, 1, `${c.endpoint}: one request`);
    assert.ok(c.ms >= 0);
  }
  const search = r.services[1].calls[0].coverage!;
  assert.deepEqual([search.found, search.fields, search.missing, search.extra], [174, 174, [], []]);
  assert.deepEqual(search.renamed, []);
  assert.deepEqual(search.lost, []);
  assert.equal(r.services[0].calls[0].coverage!.found, 16);
  assert.deepEqual(shapesOf(r, "insider", "GET /feeds"), {
    "list container": '"data"',
    cursor: '"next_cursor"',
    "has-more flag": '"has_more"',
    "row field names": "as declared",
  });
  assert.equal(problemType(r, "catalog"), '"not-found"');
  assert.deepEqual(r.services.map((s) => s.rateLimitHeaders), [{}, {}]);
  const text = formatReport(r);
  assert.equal(text.at(-1), "contract: the client understood every answer");
  assert.ok(text.includes("catalog: in-process emulator (PITCH_API_KEY not set; demo data)"));
});

Deno.test("formatReport: a failed call shows FAILED and its error, a skipped one its reason", () => {
  const call = { ok: false, ms: 12, statuses: [500], shapes: [] };
  const report: ServicesReport = {
    ok: false,
    problems: ["catalog GET /tags: boom"],
    diagnoses: [],
    services: [{
      service: "catalog",
      offline: false,
      target: "https://example.test",
      rateLimitHeaders: {},
      calls: [
        { ...call, name: "tag vocabulary", endpoint: "GET /tags", error: "boom" },
        { ...call, name: "document signing", endpoint: "GET /d", ok: true, skipped: "no archive" },
      ],
    }],
  };
  const text = formatReport(report);
  assert.ok(text.includes("      FAILED: boom"), text.join("\n"));
  assert.ok(text.includes("      no archive"), text.join("\n"));
  assert.deepEqual(text.slice(-2), ["contract: 1 problem", "problem: catalog GET /tags: boom"]);
});

for (const name of [...Object.keys(DIALECTS).filter((n) => n !== "default"), "all"]) {
  Deno.test(`checkServices understands the emulator's ${name} dialect`, async () => {
    const r = await checkServices({ env: NO_KEYS, stub: { scale: 0.1, dialect: name } });
    assert.deepEqual(r.problems, [], formatReport(r).join("\n"));
    const all = name === "all";
    if (name === "feed-items" || all) {
      const f = shapesOf(r, "insider", "GET /feeds");
      assert.equal(f["list container"], '"items"');
      assert.match(f["has-more flag"], /^none/);
    }
    if (name === "upper-digits" || all) {
      const cov = r.services[1].calls[0].coverage!;
      // with omit-nulls (in all), fields null in every sampled row are left out, and said so
      assert.equal(cov.found + (all ? cov.missing.length : 0), 174);
      assert.equal(cov.omitsNulls, all);
      assert.ok(cov.renamed.some((x) => x.startsWith("is10B51 → ")), cov.renamed.join());
    }
    if (name === "lookup-bare" || all) {
      assert.equal(shapesOf(r, "insider", "GET /insiders")["list container"], "bare list");
    }
    if (name === "problem-uri" || all) {
      assert.equal(problemType(r, "insider"), '"https://problems.signalbook.invalid/not-found"');
    }
    if (name === "entity-search-wrapped" || all) {
      assert.equal(shapesOf(r, "catalog", "GET /search")["detail envelope"], 'wrapped in "data"');
    }
    if (name === "detail-wrapped-camel" || all) {
      assert.match(shapesOf(r, "catalog", "GET /pitches/{id}")["detail envelope"], /data/);
    }
    if (name === "rate-limit-headers" || all) {
      assert.equal(r.services[0].rateLimitHeaders["x-ratelimit-limit"], "600");
    }
  });
}

/** A "live" service behind an injected fetch: the emulator, with the fake keys, and edits. */
function liveFetch(stub: Stub, edit: (path: string, body: unknown) => unknown) {
  return async (input: Request | URL | string, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    const auth = req.headers.get("authorization") ?? "";
    const headers = new Headers(req.headers);
    headers.set(
      "authorization",
      auth === `Bearer ${FAKE.catalog}`
        ? `Bearer ${DEMO_KEYS.catalog}`
        : auth === `Bearer ${FAKE.insider}`
        ? `Bearer ${DEMO_KEYS.insider}`
        : auth,
    );
    const res = await stub.fetch(
      new Request(`http://stub${url.pathname}${url.search}`, {
        method: req.method,
        headers,
        body: req.method === "POST" ? await req.text() : undefined,
      }),
    );
    if (res.status !== 200) return res;
    const path = url.pathname.replace(/^\/(catalog|insider)\/api\/v1/, "$1 ");
    const body = edit(path, await res.json());
    return new Response(typeof body === "string" ? body : JSON.stringify(body), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  };
}

const LIVE_ENV = (name: string) =>
  ({
    PITCH_API_KEY: FAKE.catalog,
    PITCH_BASE_URL: "https://catalog.example.test/catalog",
    INSIDER_API_KEY: FAKE.insider,
    INSIDER_BASE_URL: "https://insider.example.test/insider",
  })[name];

let small: Stub | undefined;
const smallStub = () => small ??= createStub({ seed: 1, scale: 0.1 });

Deno.test("a live service the client cannot read: ok false, one line per problem, no key anywhere", async () => {
  const edit = (path: string, body: unknown) => {
    const b = body as Record<string, unknown>;
    if (path === "catalog /tags") return { vocabulary: "withdrawn" };
    if (path === "catalog /filter-sets") {
      // a server that echoes the key it was sent
      return `{"error": "key ${FAKE.catalog} is not allowed to list filter sets"`;
    }
    if (path === "insider /search") {
      const rows = b.data as Record<string, unknown>[];
      for (const [i, r] of rows.entries()) {
        delete r.returns1w, delete r.returns1m, delete r.isDirector;
        // one value that reads: a column where none does is an InvalidResponseError
        r.transactionValue = i === 0 ? 1000 : "n/a";
      }
    }
    if (path === "insider /feeds") return { feed: "none today", next_cursor: null };
    return body;
  };
  const r = await checkServices({ env: LIVE_ENV, fetch: liveFetch(smallStub(), edit) });
  assert.equal(r.ok, false);
  assert.deepEqual(r.services.map((s) => [s.offline, s.target]), [
    [false, "https://catalog.example.test/catalog"],
    [false, "https://insider.example.test/insider"],
  ]);
  const lines = r.problems;
  const expect = [
    /^catalog GET \/tags: .*got a JSON object with keys "vocabulary"/,
    /^catalog GET \/filter-sets: .*not valid JSON/,
    /^insider POST \/search: 3 of 174 catalog fields missing from the rows: (?=.*returns_1w)(?=.*returns_1m)(?=.*is_director)/,
    /^insider POST \/search: values the client could not read \(null in the frame\): transaction_value \(2 rows\)$/,
    /^insider GET \/feeds: .*(feed rows|list)/,
  ];
  assert.equal(lines.length, expect.length, lines.join("\n"));
  for (const [i, re] of expect.entries()) assert.match(lines[i], re);
  for (const l of lines) assert.ok(!l.includes("\n"));
  const everything = JSON.stringify(r) + formatReport(r).join("\n");
  assert.ok(!everything.includes(FAKE.catalog) && !everything.includes(FAKE.insider));
  // the client quotes the start of an answer that is not JSON: no part of the key either
  assert.ok(!everything.includes(FAKE.catalog.slice(0, 10)), "a prefix of the key");
  assert.match(everything, /\[redacted\]|\*\*\*/); // the echoed key, scrubbed
  const detail = r.services[1].calls.find((c) => c.endpoint.startsWith("GET /transactions"))!;
  assert.equal(detail.skipped, "no feed row");
});

Deno.test("coercions are counted, not problems: numbers as text, booleans as text", async () => {
  const edit = (path: string, body: unknown) => {
    if (path === "insider /search") {
      for (const r of (body as { data: Record<string, unknown>[] }).data) {
        if (typeof r.numberOfShares === "number") r.numberOfShares = String(r.numberOfShares);
        if (typeof r.isDirector === "boolean") r.isDirector = String(r.isDirector);
      }
    }
    return body;
  };
  const r = await checkServices({ env: LIVE_ENV, fetch: liveFetch(smallStub(), edit) });
  const cov = r.services[1].calls[0].coverage!;
  assert.deepEqual(
    cov.coercions.map((c) => [c.field, c.from]).sort(),
    [["is_director", "text"], ["number_of_shares", "text"]],
  );
  assert.deepEqual(cov.lost, []);
  assert.deepEqual(r.problems, []);
  assert.match(formatReport(r).join("\n"), /coercions: 2 columns sent as text: /);
});

Deno.test("a transaction detail's coverage reads its one row, bare or wrapped in one object", async () => {
  for (const wrap of [false, true]) {
    const edit = (path: string, body: unknown) =>
      wrap && path.startsWith("insider /transactions/") ? { transaction: body } : body;
    const r = await checkServices({ env: LIVE_ENV, fetch: liveFetch(smallStub(), edit) });
    const detail = r.services[1].calls.find((c) => c.name === "transaction detail")!;
    const envelope = detail.shapes.find((s) => s.point === "detail envelope")?.shape;
    assert.equal(envelope, wrap ? 'wrapped in "transaction"' : "bare");
    assert.deepEqual([detail.coverage?.rows, detail.coverage?.found], [1, 174]);
    assert.deepEqual(r.problems, []);
  }
});

Deno.test("a key a server echoes where no error carries it (a rate-limit header) is scrubbed from the report", async () => {
  const live = liveFetch(smallStub(), (_path, body) => body);
  const echo = async (input: RequestInfo | URL, init?: RequestInit) => {
    const res = await live(input, init);
    const headers = new Headers(res.headers);
    headers.set("x-ratelimit-policy", `key=${FAKE.insider}; 600 per minute`);
    return new Response(res.body, { status: res.status, headers });
  };
  const r = await checkServices({ env: LIVE_ENV, fetch: echo });
  const everything = JSON.stringify(r) + formatReport(r).join("\n");
  assert.match(r.services[1].rateLimitHeaders["x-ratelimit-policy"], /600 per minute/);
  assert.ok(!everything.includes(FAKE.insider), "the key is never printed");
});

Deno.test("a key of another client of this process (not in the environment) echoed by a server is scrubbed from the report too", async () => {
  const other = "pk_test_Zq81OtherClient44vW";
  // a client made with that key registers it (see http/_redact.ts), as a notebook's would be
  new InsiderClient({ apiKey: other, baseUrl: "https://other.example.test/insider" });
  const live = liveFetch(smallStub(), (_path, body) => body);
  const echo = async (input: RequestInfo | URL, init?: RequestInit) => {
    const res = await live(input, init);
    const headers = new Headers(res.headers);
    headers.set("x-ratelimit-policy", `key=${other}; 600 per minute`);
    return new Response(res.body, { status: res.status, headers });
  };
  const r = await checkServices({ env: LIVE_ENV, fetch: echo });
  const everything = JSON.stringify(r) + formatReport(r).join("\n");
  assert.match(r.services[1].rateLimitHeaders["x-ratelimit-policy"], /600 per minute/);
  assert.ok(!everything.includes(other), "the other client's key is never printed");
});

Deno.test("a key without its base URL fails before any call, naming the variable", async () => {
  await assert.rejects(
    checkServices({ env: (n) => n === "INSIDER_API_KEY" ? FAKE.insider : undefined }),
    /INSIDER_API_KEY is set but INSIDER_BASE_URL is not; set both/,
  );
});

async function doctor(args: string[], env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "lib/cli/doctor.ts", ...args],
    cwd: new URL("../../", import.meta.url).pathname,
    env: { PITCH_API_KEY: "", INSIDER_API_KEY: "", NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("deno task doctor: exit 0 offline (and says so), in every dialect at once", async () => {
  const r = await doctor(["--dialect", "all"], {});
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(
    r.stdout,
    /^signalbook doctor: no keys set; checking the in-process emulator \(dialect /,
  );
  assert.match(r.stdout, /contract: the client understood every answer\n$/);
});

Deno.test({
  name: "deno task doctor over loopback: exit 1, one problem line each, the key never printed",
  sanitizeResources: false,
  fn: async () => {
    const stub = smallStub();
    const ac = new AbortController();
    const server = Deno.serve(
      { port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen: () => {} },
      (req: Request) =>
        liveFetch(stub, (path, body) => path === "catalog /tags" ? [1, 2, 3] : body)(req),
    );
    try {
      const base = `http://127.0.0.1:${server.addr.port}`;
      const env = {
        PITCH_API_KEY: FAKE.catalog,
        PITCH_BASE_URL: `${base}/catalog`,
        INSIDER_API_KEY: "sk-live-DOCTOR-WRONG-KEY-99e1",
        INSIDER_BASE_URL: `${base}/insider`,
      };
      for (const args of [[], ["--json"]]) {
        const r = await doctor(args, env);
        assert.equal(r.code, 1, r.stdout + r.stderr);
        const all = r.stdout + r.stderr;
        for (const k of [FAKE.catalog, env.INSIDER_API_KEY]) assert.ok(!all.includes(k), k);
        if (args.length) {
          const report = JSON.parse(r.stdout) as ServicesReport;
          assert.equal(report.ok, false);
          continue;
        }
        const problems = r.stdout.split("\n").filter((l) => l.startsWith("problem: "));
        // the tag answer, and one diagnosis for the insider service (the key is
        // refused: 401 on every call), its symptoms folded under it
        assert.deepEqual(problems.length, 2, problems.join("\n"));
        assert.match(problems[0], /^problem: catalog GET \/tags: .*a JSON array of 3/);
        assert.match(problems[1], /^problem: insider: every call answered 401.*INSIDER_API_KEY/);
        assert.match(r.stdout, /^signalbook doctor: checking catalog and insider\n/);
        assert.match(r.stdout, /\ndiagnosis: insider: every call answered 401/);
        assert.match(r.stdout, /\n {2}symptom: insider .*401/);
        assert.match(r.stdout, /\ncontract: \d+ problems\n/);
      }
    } finally {
      ac.abort();
      await server.finished;
    }
  },
});

Deno.test("coverage: a field's lost rows are the larger of the frame's nulls and the builder's unreadable count", async () => {
  const { coverage } = await import("../../lib/doctor/_coverage.ts");
  const pl = (await import("nodejs-polars")).default;
  const raw = [{ a: "1", b: "x" }, { a: "oops", b: "y" }];
  const frame = pl.DataFrame({ a: [1, null], b: ["x", "y"] });
  const unreadable = [
    { column: "a", rows: 3, example: "oops", row: 1 },
    { column: "c", rows: 2, example: "?", row: 0 },
  ];
  const report = {
    rows: 2,
    missing: [],
    partlyMissing: [],
    extra: [],
    droppedExtra: { count: 0, names: [] },
    coerced: [],
    unreadable,
  };
  const declared = [{ name: "a" }, { name: "b" }, { name: "c" }];
  assert.deepEqual(coverage(raw, declared, frame, report).lost, [
    { field: "a", rows: 3 },
    { field: "c", rows: 2 },
  ]);
});
