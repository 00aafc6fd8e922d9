/**
 * Numbers in answers are read exactly or refused loudly, never as the double
 * `JSON.parse` rounded them to: in rows (declared and extra columns), in
 * paging fields, in frames and typed rows (`shared/json_numbers.ts`, read
 * by the grammars of `shared/values/`).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { InsiderClient } from "../../lib/insider/client.ts";
import { FrameBuilder } from "../../lib/frames/build.ts";
import { holdsLiteral, parseExactJson, roundsNumbers } from "../../lib/shared/json_numbers.ts";
import { captureWarnings } from "../_warnings.ts";

/** A client whose every answer is one page: `rows` (JSON texts), then `envelope` text. */
function rawClient(rows: string[], envelope = '"next_cursor":null,"has_more":false') {
  const body = `{"data":[${rows.join(",")}],${envelope}}`;
  return new InsiderClient({
    apiKey: "sk-test-exact-numbers-0001",
    baseUrl: "http://exact.test/insider",
    fetch: () =>
      Promise.resolve(new Response(body, { headers: { "content-type": "application/json" } })),
  });
}

/** A search row (accession number `i`) with `extra` members. */
const row = (i: number, extra: string) =>
  `{"accession_number":"0000000001-24-${String(i).padStart(6, "0")}","transaction_id":${i},` +
  `"filed_at":"2024-12-31T15:00:00.000Z","feed_ids":[1],${extra}}`;

/** Runs `f` with console.warn collected. */
async function warned<T>(f: () => Promise<T>): Promise<{ value: T; warns: string[] }> {
  const captured = captureWarnings();
  const warns = captured.lines;
  try {
    return { value: await f(), warns };
  } finally {
    captured.restore();
  }
}

Deno.test("a JSON number a double rounds is refused where it must be an integer, in a frame and in typed rows", async () => {
  for (const lit of ["4503599627370496.5", "2.9999999999999999", "1e-400", "9007199254740993"]) {
    const rows = [row(1, `"filing_delay_days":3`), row(2, `"filing_delay_days":${lit}`)];
    const { value: df, warns } = await warned(() =>
      rawClient(rows).search({}).frame({ progress: false })
    );
    assert.deepEqual(df.getColumn("filing_delay_days").toArray(), [3, null], lit);
    assert.ok(
      warns.some((w) => /filing_delay_days/.test(w) && /not read|unreadable|null/i.test(w)),
      `${lit}: ${warns}`,
    );
    const { value: typed } = await warned(() => rawClient(rows).search({}).take(2));
    assert.equal((typed[1] as unknown as Record<string, unknown>).filingDelayDays, null, lit);
  }
});

Deno.test("a list sent as JSON text reads its numbers exactly too: a rounded item is refused", async () => {
  for (const lit of ["4503599627370496.5", "2.9999999999999999", "12345678901234567890"]) {
    // (a later member of the same name wins in JSON.parse)
    const rows = [row(1, `"feed_ids":"[1, 2]"`), row(2, `"feed_ids":"[1, ${lit}]"`)];
    const { value: df } = await warned(() => rawClient(rows).search({}).frame({ progress: false }));
    assert.deepEqual(
      (df.getColumn("feed_ids").toArray() as unknown as (number[] | null)[]).map((l) =>
        l && [...l]
      ),
      [[1, 2], null],
      lit,
    );
  }
});

Deno.test("an identifier sent as a long JSON number keeps its digits; 1e21 is still refused", async () => {
  // (security_title: a code field that is no CIK; a CIK has one form of ten digits, below)
  const rows = [
    row(1, `"security_title":320193`),
    row(2, `"security_title":12345678901234567890`),
  ];
  const { value: df } = await warned(() => rawClient(rows).search({}).frame({ progress: false }));
  assert.deepEqual(df.getColumn("security_title").toArray(), ["320193", "12345678901234567890"]);
  const { value: typed } = await warned(() => rawClient(rows).search({}).take(2));
  assert.equal(
    (typed[1] as unknown as Record<string, unknown>).securityTitle,
    "12345678901234567890",
  );
  const bad = [row(1, `"security_title":320193`), row(2, `"security_title":1e21`)];
  const { value: df2 } = await warned(() => rawClient(bad).search({}).frame({ progress: false }));
  assert.deepEqual(df2.getColumn("security_title").toArray(), ["320193", null]);
});

Deno.test("a CIK sent as a JSON number is its ten digits, zero-padded; past ten digits or 1e21 it is refused", async () => {
  const rows = [
    row(1, `"issuer_cik":320193`),
    row(2, `"issuer_cik":12345678901234567890`),
    row(3, `"issuer_cik":1e21`),
    row(4, `"issuer_cik":"320193"`),
  ];
  const { value: df } = await warned(() => rawClient(rows).search({}).frame({ progress: false }));
  assert.deepEqual(df.getColumn("issuer_cik").toArray(), [
    "0000320193",
    null,
    null,
    "0000320193",
  ]);
  const { value: typed } = await warned(() => rawClient(rows).search({}).take(4));
  assert.deepEqual(
    typed.map((r) => (r as unknown as Record<string, unknown>).issuerCik),
    ["0000320193", null, null, "0000320193"],
  );
});

Deno.test("a decimal that a JSON number would round to 0 is refused; one past 17 digits is the nearest double", async () => {
  const rows = [
    row(1, `"number_of_shares":1e-400`),
    row(2, `"number_of_shares":0.30000000000000004441`),
    row(3, `"number_of_shares":5`),
  ];
  const { value: df } = await warned(() => rawClient(rows).search({}).frame({ progress: false }));
  assert.deepEqual(df.getColumn("number_of_shares").toArray(), [null, 0.30000000000000004, 5]);
});

Deno.test("an extra column of integers past 2^53 keeps their digits (never a rounded Float64)", async () => {
  const feedRow = (i: number, extra: string) =>
    `{"accession_number":"0000000001-24-00000${i}","transaction_id":${i},` +
    `"filed_at":"2024-12-31T15:00:00.000Z",${extra}}`;
  const { value: df } = await warned(() =>
    rawClient([feedRow(1, '"x_id":12345678901234567890')]).feeds({ feedIds: [1] })
      .frame({ progress: false })
  );
  assert.deepEqual(df.getColumn("x_id").toArray(), ["12345678901234567890"]);
  // with numbers a double holds: each as its digits (not the JSON text of a string)
  const mixed = ["1", "12345678901234567890", "2.5", "1e-400"].map((v, i) =>
    feedRow(i, `"x_id":${v}`)
  );
  const { value: df2 } = await warned(() =>
    rawClient(mixed).feeds({ feedIds: [1] }).frame({ progress: false })
  );
  assert.deepEqual(df2.getColumn("x_id").toArray(), ["1", "12345678901234567890", "2.5", "1e-400"]);
});

Deno.test("an extra column's numbers are the same digits on both sides of a chunk boundary", () => {
  // the second chunk holds a literal a double rounds, which the transport hands on as its text
  const b = new FrameBuilder([{ name: "v", type: "integer" }], {
    chunkRows: 2,
    onReport: () => {},
  });
  b.append([{ v: 1, x: 1 }, { v: 2, x: 2.5 }, { v: 3, x: "12345678901234567890" }]);
  assert.deepEqual(b.finish().getColumn("x").toArray(), ["1", "2.5", "12345678901234567890"]);
});

Deno.test("a cursor sent as a long JSON number is sent back with its digits", async () => {
  const page = await warned(() =>
    rawClient([row(1, '"issuer_cik":"1"')], '"next_cursor":12345678901234567890,"has_more":true')
      .search({}).firstPage()
  );
  assert.equal(page.value.next, "12345678901234567890");
});

Deno.test("a timestamp with digits past the millisecond is cut and noted, as text and as epoch seconds", async () => {
  for (const lit of ['"2024-01-01T00:00:00.9999999Z"', "1704067200.9999999"]) {
    const { value: df, warns } = await warned(() =>
      rawClient([row(1, `"filed_at":${lit}`)]).search({}).frame({ progress: false })
    );
    assert.equal(
      (df.getColumn("filed_at").toArray()[0] as unknown as Date).toISOString(),
      "2024-01-01T00:00:00.999Z",
    );
    assert.ok(
      warns.some((w) => /filed_at/.test(w) && /past the millisecond/.test(w)),
      `${lit}: ${warns}`,
    );
  }
  // epoch milliseconds are whole: a fraction is refused, whatever a double would round it to
  // (a later member of the same name wins in JSON.parse)
  const rows = [row(1, `"issuer_cik":"1"`), row(2, `"filed_at":"1704067200000.00000001"`)];
  const { value: df } = await warned(() => rawClient(rows).search({}).frame({ progress: false }));
  assert.equal(df.getColumn("filed_at").toArray()[1], null);
});

/** Number literals of every form: doubles as JSON writes them, long digit runs, long exponents. */
const LITERALS = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  fc.tuple(
    fc.constantFrom("", "-"),
    fc.stringMatching(/^(0|[1-9]\d{0,24})$/),
    fc.option(fc.stringMatching(/^\d{1,24}$/), { nil: undefined }),
    fc.option(fc.integer({ min: -500, max: 500 }), { nil: undefined }),
  ).map(([s, w, f, e]) =>
    `${s}${w}${f === undefined ? "" : `.${f}`}${e === undefined ? "" : `e${e}`}`
  ),
);

Deno.test("property: a literal is its double when the double holds it as written, else its own text", () => {
  fc.assert(
    fc.property(fc.array(LITERALS, { minLength: 1, maxLength: 6 }), (lits) => {
      const text = `{"a":[${lits.join(", ")}],"s":"${lits[0]}"}`;
      const got = parseExactJson(text) as { a: unknown[]; s: string };
      const plain = JSON.parse(text) as { a: number[] };
      lits.forEach((lit, i) => {
        const v = got.a[i];
        if (typeof v === "number") {
          assert.ok(holdsLiteral(lit, v), `${lit} read as ${v}`);
          // the double holds the literal: the same digits, as BigInt-exact for integers
          if (/^-?\d+$/.test(lit)) assert.equal(BigInt(lit), BigInt(v));
        } else assert.equal(v, lit);
        assert.equal(typeof v === "number", holdsLiteral(lit, plain.a[i]), lit);
      });
      // the scan says so whenever the plain parse would differ (the fast path loses nothing)
      if (!roundsNumbers(text)) assert.deepEqual(got, plain);
    }),
    { numRuns: 2000 },
  );
});

Deno.test("the scan finds a rounded literal of any length from 16 characters, at any place in the text", () => {
  // 16 and 17 digits past 2^53, 17 characters with a point, a 3-digit exponent; each with a
  // run of padding before it so its digits start at every place relative to the scan's steps
  for (const lit of ["9007199254740993", "-12345678901234567", "0.99999999999999999", "1e-400"]) {
    for (let pad = 0; pad < 17; pad++) {
      const text = `{"s":"${"x".repeat(pad)}","a":[1, ${lit} ],"b":2}`;
      assert.equal(roundsNumbers(text), true, `${lit} after ${pad}`);
      // right after a long literal a double holds
      const next = `{"s":"${"x".repeat(pad)}","a":[0.30000000000000004,${lit}]}`;
      assert.equal(roundsNumbers(next), true, `${lit} after 0.30000000000000004 and ${pad}`);
      // the same digits in a string, or a literal a double holds, are not reported
      assert.equal(roundsNumbers(`{"s":"${"x".repeat(pad)}","a":"${lit}"}`), false, lit);
      assert.equal(roundsNumbers(`{"s":"${"x".repeat(pad)}","a":0.30000000000000004}`), false);
    }
  }
});

Deno.test("property: a cursor sent as a JSON number is sent back as its text as written, under every name the client reads", async () => {
  const literal = fc.oneof(
    fc.constantFrom("0.1e1", "1.0", "1E0", "10e-1", "-0", "2", "0", "1e+2", "100E-2", "7.50"),
    fc.integer().map(String),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
    fc.tuple(fc.nat(99), fc.nat(99), fc.integer({ min: -5, max: 5 })).map(([a, b, e]) =>
      `${a}.${b}e${e}`
    ),
  );
  const names = ["next_cursor", "nextCursor", "NEXT_CURSOR", "next_page_token", "next"];
  await fc.assert(
    fc.asyncProperty(literal, fc.constantFrom(...names), fc.boolean(), async (lit, name, down) => {
      // at the top, or one object down (where lists put their cursors too)
      const member = `"${name}"${down ? " : " : ":"}${lit}`;
      const envelope = down ? `"meta":{${member}},"has_more":true` : `${member},"has_more":true`;
      const sent: string[] = [];
      const insider = new InsiderClient({
        apiKey: "sk-test-exact-numbers-0001",
        baseUrl: "http://exact.test/insider",
        fetch: (_u, init) => {
          sent.push(String(init?.body ?? ""));
          return Promise.resolve(
            new Response(`{"data":[${row(sent.length, '"issuer_cik":"1"')}],${envelope}}`, {
              headers: { "content-type": "application/json" },
            }),
          );
        },
      });
      const page = await insider.search({}).firstPage();
      assert.equal(page.next, lit, envelope);
      const pages = insider.search({}).pages();
      await pages.next();
      await pages.next();
      assert.equal(JSON.parse(sent.at(-1)!).pagination.cursor, lit, envelope);
    }),
    { numRuns: 150 },
  );
});

Deno.test("a number cursor's text is kept only where the list's cursor stands: a row member of such a name stays a number", async () => {
  const rows = [row(1, `"refresh_token":5`), row(2, `"refresh_token":6`)];
  for (
    const envelope of ['"next_cursor":0.1e1,"has_more":true', '"next_cursor":"c2","has_more":true']
  ) {
    const { value: df } = await warned(() =>
      rawClient(rows, envelope).search({}).frame({ progress: false, maxRows: 2 })
    );
    assert.deepEqual(df.getColumn("refresh_token").toArray(), [5, 6], envelope);
  }
});
