/**
 * A key echoed inside a normal 200 answer: the transport replaces every
 * value that is the key (raw, upper-cased, hex, a field's name) by
 * `[redacted]` before the answer is parsed, with one warning giving the
 * count, so the key reaches no frame value, column name, `toRecords()`,
 * `take()` row, notebook display, nor the parquet files a `sync` writes. An
 * answer holding the key inside a longer text is refused: nothing is cut.
 */
import assert from "node:assert/strict";
import {
  createStub,
  DEMO_KEYS,
  InsiderClient,
  InvalidResponseError,
  query,
  sync,
} from "../../mod.ts";
import { displayBundle } from "../_util.ts";
import { KEY_MIN_LENGTH, keyMatcher } from "../../lib/http/_key_match.ts";
import { loopback } from "../_loopback.ts";

/** The key: built, not written out. */
const KEY = ["sk", "live", "Bd7Q2pW9", "zR4mT8vK"].join("-");
const hex = (s: string) =>
  [...new TextEncoder().encode(s)].map((b) => b.toString(16).padStart(2, "0")).join("");
const ident = (s: string) => s.replace(/[^A-Za-z0-9]/g, "_");

/** Every shape of the key a leak could take (and long parts of it). */
const SHAPES = [
  KEY,
  KEY.toUpperCase(),
  KEY.toLowerCase(),
  KEY.slice(3, 15),
  KEY.slice(-10),
  KEY.slice(-10).toUpperCase(),
  hex(KEY),
  hex(KEY).toUpperCase(),
  hex(KEY).slice(8, 40),
  ident(KEY),
  ident(KEY).toUpperCase(),
];

function leaks(text: string): string[] {
  const lower = text.toLowerCase();
  return SHAPES.filter((s) => lower.includes(s.toLowerCase()));
}

function assertClean(text: string, what: string) {
  const found = leaks(text);
  assert.deepEqual(found, [], `${what}: the key leaked as ${found.join(", ")}`);
}

/**
 * The emulator behind a loopback proxy that adds to every trade the key it
 * was sent: as `issuerName`, as fields holding its raw, upper-cased and hex
 * forms, and as the name of a field; with `inText`, inside a longer text.
 */
function echoingStub(inText = false) {
  const stub = createStub({ seed: 2, scale: 0.1 });
  return loopback(async (req) => {
    const sent = (req.headers.get("authorization") ?? "").replace(/^Bearer\s+/i, "");
    const u = new URL(req.url);
    const headers = new Headers(req.headers);
    headers.set("authorization", `Bearer ${DEMO_KEYS.insider}`);
    const r = await stub.fetch(
      new Request(new URL(u.pathname + u.search, "http://stub.offline"), {
        method: req.method,
        headers,
        body: req.method === "GET" ? undefined : await req.arrayBuffer(),
      }),
    );
    const text = await r.text();
    if (r.status !== 200) return new Response(text, { status: r.status, headers: r.headers });
    const inject = (o: unknown): unknown =>
      Array.isArray(o) ? o.map(inject) : o && typeof o === "object"
        ? {
          ...Object.fromEntries(Object.entries(o).map(([k, v]) => [k, inject(v)])),
          ...("accessionNumber" in o
            ? {
              issuerName: inText ? `ECHO ${sent}` : sent,
              echoNote: sent,
              echoUpper: sent.toUpperCase(),
              echoHex: hex(sent),
              echoHexUpper: hex(sent).toUpperCase(),
              [sent]: 2,
            }
            : {}),
        }
        : o;
    return Response.json(inject(JSON.parse(text)));
  });
}

const html = (x: unknown) => displayBundle(x)["text/html"];

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...await filesUnder(p));
    else out.push(p);
  }
  return out;
}

Deno.test("a key echoed in 200 answers (raw, upper-cased, hex, as field names; configured with CR-LF) reaches no frame, row, display or synced parquet", async () => {
  const srv = echoingStub();
  const dir = await Deno.makeTempDir();
  const warn = console.warn;
  const warnings: string[] = [];
  console.warn = (...a: unknown[]) => warnings.push(a.map(String).join(" "));
  try {
    const insider = new InsiderClient({
      apiKey: `\r\n${KEY}\r\n`, // a .env saved with CR-LF
      baseUrl: `${srv.base}/insider`,
      maxRetries: 0,
    });
    const df = await insider.search({}).frame({ maxRows: 300, progress: false });
    assert.ok(df.height > 0);
    assert.ok(df.columns.includes("echoNote"), df.columns.join(","));
    assertClean(df.columns.join("\n"), "column names");
    assert.ok(df.columns.some((c) => c.includes("[redacted]")), "the key's column is renamed");
    const records = JSON.stringify(df.toRecords());
    assertClean(records, "toRecords()");
    assert.ok(records.includes('"[redacted]"'), records.slice(0, 300));
    assertClean(html(df), "the notebook display");
    const rows = await insider.search({}).take(50);
    assert.equal(rows.length, 50);
    assertClean(JSON.stringify(rows), "take() rows");
    const report = await sync({
      dir,
      from: "2026-10-01",
      to: "2026-11-20",
      insider,
      progress: false,
    });
    assert.ok((report.datasets.insider_trades?.rows ?? 0) > 0, JSON.stringify(report.datasets));
    const files = await filesUnder(dir);
    assert.ok(files.some((f) => f.endsWith(".parquet")), files.join(", "));
    for (const f of files) {
      assertClean(new TextDecoder().decode(await Deno.readFile(f)), f);
    }
    const back = await query("select * from insider_trades", { dir });
    assert.ok(back.height > 0);
    assertClean(back.columns.join("\n"), "synced column names");
    assertClean(JSON.stringify(back.toRecords()), "synced rows read back");
  } finally {
    console.warn = warn;
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
  assertClean(warnings.join("\n"), "warnings");
  const said = warnings.filter((w) => w.includes("API key"));
  assert.ok(said.length > 0, "the redaction is loud");
  assert.match(said[0], /^signalbook: POST \/search: \d+ values of the answer were this client's/);
});

Deno.test("a key echoed inside a longer text of a 200 answer: the pull is refused with a typed error, nothing cut, the key nowhere", async () => {
  const srv = echoingStub(true);
  const warn = console.warn;
  const warnings: string[] = [];
  console.warn = (...a: unknown[]) => warnings.push(a.map(String).join(" "));
  try {
    const insider = new InsiderClient({
      apiKey: KEY,
      baseUrl: `${srv.base}/insider`,
      maxRetries: 0,
    });
    const e = await insider.search({}).take(50).catch((e) => e);
    assert.ok(e instanceof InvalidResponseError, String(e));
    assert.match(e.message, /^POST \/search: .*API key inside a longer text/);
    assertClean([e.message, JSON.stringify(e), Deno.inspect(e, { depth: 50 })].join("\n"), "error");
  } finally {
    console.warn = warn;
    await srv.close();
  }
  assertClean(warnings.join("\n"), "warnings");
});

Deno.test("keyMatcher.scrub: every whole value that is a form replaced and counted, the key inside a longer value counted and left; a clean text comes back as is; toy keys are not searched", () => {
  const scrub = keyMatcher(`${KEY}\r\n`).scrub;
  const body = JSON.stringify({
    a: KEY,
    b: `x ${KEY.toUpperCase()} y`,
    c: hex(KEY),
    d: hex(KEY).toUpperCase().match(/../g)!.join(" "),
    [`e_${ident(KEY)}`]: btoa(`user:${KEY}`),
  });
  const { text, count, inside } = scrub(body);
  assert.deepEqual({ count, inside }, { count: 3, inside: 3 }, text);
  const back = JSON.parse(text);
  assert.deepEqual([back.a, back.c, back.d], ["[redacted]", "[redacted]", "[redacted]"]);
  // inside longer values (a text, a field's name, base64): left as they are, never cut
  assert.equal(back.b, `x ${KEY.toUpperCase()} y`);
  assert.deepEqual(Object.keys(back), ["a", "b", "c", "d", `e_${ident(KEY)}`]);
  const clean = '{"data":[{"a":"sk-live"}]}';
  assert.equal(scrub(clean).text, clean);
  assert.equal(scrub(clean).count, 0);
  const toy = "k".repeat(KEY_MIN_LENGTH - 1);
  assert.deepEqual(keyMatcher(toy).scrub(`{"${toy}":1}`), {
    text: `{"${toy}":1}`,
    count: 0,
    inside: 0,
  });
});
