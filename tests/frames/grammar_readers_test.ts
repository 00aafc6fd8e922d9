/**
 * The one case table of every value type (tests/shared/values_test.ts) run
 * by every reader: the frame builder, typed rows, transaction details,
 * feeds (`take()` and `.frame()`), search rows, and the catalog's pitches;
 * the same values give the same answer everywhere, and a field where no
 * value reads is an InvalidResponseError naming it.
 */
import assert from "node:assert/strict";
import type pl from "nodejs-polars";
import { buildFrame, CatalogClient, type FrameReport, InsiderClient } from "../../mod.ts";
import { rowTyping, typeRows } from "../../lib/frames/typed_rows.ts";
import { VALUE_TYPES } from "../../lib/shared/values/mod.ts";
import { createStub, DEMO_KEYS } from "../../lib/stub/mod.ts";
import { rewriting } from "../_rewrite.ts";
import { type CaseReader, type CaseType, runGrammarCases } from "../shared/values_test.ts";
import { rowForm } from "./_case_forms.ts";
import { captureWarnings } from "../_warnings.ts";

function columnOf(df: pl.DataFrame, name: string, type: CaseType): unknown[] {
  const s = df.getColumn(name);
  return Array.from({ length: df.height }, (_, i) => rowForm(type, s.getIndex(i)));
}

const quiet = async <T>(f: () => Promise<T>): Promise<T> => {
  const captured = captureWarnings();
  try {
    return await f();
  } finally {
    captured.restore();
  }
};

const frameReader: CaseReader = (type, values) =>
  quiet(() => {
    let report: FrameReport | undefined;
    const df = buildFrame([{ name: "x", type }], values.map((x) => ({ x })), {
      onReport: (r) => report = r,
    });
    return Promise.resolve({
      values: columnOf(df, "x", type),
      unreadable: report!.unreadable.reduce((n, u) => n + u.rows, 0),
    });
  });

const rowsReader: CaseReader = (type, values) =>
  quiet(() => {
    const t = rowTyping("GET /x", [["x", type]]);
    const rows = typeRows(t, values.map((x) => ({ x })));
    return Promise.resolve({
      values: rows.map((r) => r.x),
      unreadable: countBad(values, rows.map((r) => r.x)),
    });
  });

Deno.test("frames read every case of the value grammars", async (t) => {
  await runGrammarCases(t, frameReader);
});

Deno.test("typed rows read every case of the value grammars", async (t) => {
  await runGrammarCases(t, rowsReader);
});

// through the clients: the values of one field of each type put into the
// emulator's answers, read back by each reader
const stub = createStub({ seed: 1, scale: 0.05 });

/** A field of the insider catalog of each type (snake_case; search rows use camelCase). */
const INSIDER_FIELD: Partial<Record<CaseType, [snake: string, camel: string]>> = {
  date: ["transaction_date", "transactionDate"],
  timestamp: ["filed_at", "filedAt"],
  decimal: ["price_per_share", "pricePerShare"],
  integer: ["filing_delay_days", "filingDelayDays"],
  boolean: ["is_ceo", "isCeo"],
  list: ["feed_ids", "feedIds"],
  code: ["issuer_name", "issuerName"],
};

function insiderWith(edit: (path: string, body: unknown) => unknown): InsiderClient {
  const r = rewriting(stub, edit);
  return new InsiderClient({
    apiKey: DEMO_KEYS.insider,
    baseUrl: "http://s/insider",
    fetch: r.fetch,
  });
}

const blank = (v: unknown) => typeof v === "string" && v.trim() === "";
const countBad = (values: readonly unknown[], got: unknown[]) =>
  values.filter((v, i) => got[i] === null && v !== null && !blank(v)).length;

/**
 * What a list reads of the cases: its `take()` rows' field (`pick`), or its
 * `.frame()` column `column` with the unreadable cells its read report
 * counts (in that column only when `onlyColumn`).
 */
async function readList(
  list: {
    take(n: number): Promise<unknown[]>;
    frame(o: { progress: boolean }): Promise<pl.DataFrame>;
  },
  how: "take" | "frame",
  values: readonly unknown[],
  pick: (row: Record<string, unknown>) => unknown,
  column: string,
  type: CaseType,
  onlyColumn = false,
): Promise<{ values: unknown[]; unreadable: number }> {
  if (how === "take") {
    const got = (await list.take(values.length) as Record<string, unknown>[]).map(pick);
    return { values: got, unreadable: countBad(values, got) };
  }
  const df = await list.frame({ progress: false });
  const report = (df as unknown as { readReport: FrameReport }).readReport;
  return {
    values: columnOf(df, column, type),
    unreadable: report.unreadable.filter((u) => !onlyColumn || u.column === column)
      .reduce((n, u) => n + u.rows, 0),
  };
}

const detailsReader: CaseReader = async (type, values) => {
  const [field] = INSIDER_FIELD[type]!;
  let i = 0;
  const insider = insiderWith((path, body) => {
    if (!path.startsWith("/transactions/")) return body;
    return { ...(body as object), [field]: values[i++] };
  });
  const trade = stub.insider.trades[0].row as { accession_number: string; transaction_id: number };
  const got: unknown[] = [];
  let first: unknown;
  for (let k = 0; k < values.length; k++) {
    try {
      const row = await quiet(() =>
        insider.transaction(trade.accession_number, trade.transaction_id)
      ) as unknown as Record<string, unknown>;
      got.push(row[field]);
    } catch (e) {
      // a detail is one row: a value outside the grammar is the whole field
      if (!(e instanceof Error) || e.name !== "InvalidResponseError") throw e;
      first ??= e;
      got.push(null);
    }
  }
  if (first && got.every((x) => x === null)) throw first;
  return { values: got, unreadable: countBad(values, got) };
};

Deno.test("transaction details read every case of the value grammars", async (t) => {
  await runGrammarCases(t, detailsReader, Object.keys(INSIDER_FIELD) as CaseType[]);
});

const searchReader = (how: "take" | "frame"): CaseReader => async (type, values) => {
  const [snake, camel] = INSIDER_FIELD[type]!;
  const insider = insiderWith((path, body) => {
    if (path !== "/search") return body;
    const b = body as { data: Record<string, unknown>[]; nextCursor?: unknown };
    return {
      ...b,
      data: values.map((v, i) => ({ ...b.data[i % b.data.length], [camel]: v })),
      nextCursor: null,
      hasMore: false,
    };
  });
  return await quiet(() =>
    readList(insider.search({}, { pageSize: 50 }), how, values, (r) => r[camel], snake, type, true)
  );
};

Deno.test("search take() rows read every case of the value grammars", async (t) => {
  await runGrammarCases(t, searchReader("take"), Object.keys(INSIDER_FIELD) as CaseType[]);
});

Deno.test("search .frame() reads every case of the value grammars", async (t) => {
  await runGrammarCases(t, searchReader("frame"), Object.keys(INSIDER_FIELD) as CaseType[]);
});

const feedsReader = (how: "take" | "frame"): CaseReader => async (type, values) => {
  const field = type === "timestamp"
    ? "filed_at"
    : type === "integer"
    ? "transaction_id"
    : "accession_number";
  const insider = insiderWith((path, body) => {
    if (path !== "/feeds") return body;
    const b = body as { data: Record<string, unknown>[] };
    // every row its own (filing, transaction): the list drops repeated rows
    const own = (i: number) =>
      field === "transaction_id"
        ? { accession_number: `0000000000-25-${String(i).padStart(6, "0")}` }
        : { transaction_id: 900_000 + i };
    return {
      data: values.map((v, i) => ({ ...b.data[i % b.data.length], ...own(i), [field]: v })),
      next_cursor: null,
      has_more: false,
    };
  });
  return await quiet(() =>
    readList(insider.feeds({ feedIds: [15] }), how, values, (r) => r[field], field, type)
  );
};

Deno.test("feed take() rows and .frame() read every case of their fields' grammars", async (t) => {
  for (const how of ["take", "frame"] as const) {
    await t.step(how, async (t) => {
      await runGrammarCases(t, feedsReader(how), ["timestamp", "integer", "code"]);
    });
  }
});

Deno.test("raw: true gives the server's values as sent", async () => {
  const insider = insiderWith((path, body) => {
    if (path !== "/feeds") return body;
    const b = body as { data: Record<string, unknown>[] };
    return { ...b, data: b.data.map((r) => ({ ...r, transaction_id: String(r.transaction_id) })) };
  });
  const typed = await insider.feeds({ feedIds: [15] }).take(3);
  const raw = await insider.feeds({ feedIds: [15] }, { raw: true }).take(3);
  assert.equal(typeof typed[0].transaction_id, "number");
  assert.equal(typeof raw[0].transaction_id, "string");
  assert.equal(Number(raw[0].transaction_id), typed[0].transaction_id);
  const first = await insider.feeds({ feedIds: [15] }).firstPage();
  const firstRaw = await insider.feeds({ feedIds: [15] }, { raw: true }).firstPage();
  assert.equal(typeof first.rows[0].transaction_id, "number");
  assert.equal(typeof firstRaw.rows[0].transaction_id, "string");
  const [detail] = (await insider.hydrate(typed.slice(0, 1), { progress: false })).rows;
  assert.equal(typeof detail.transaction_id, "number");
});

/** A field of a catalog pitch row's `pitch` object of each type. */
const PITCH_FIELD: Partial<Record<CaseType, string>> = {
  date: "pitch_date",
  boolean: "is_premium_pitch",
  code: "ticker_symbol",
  text_list: "slugs",
};

const pitchesReader = (how: "take" | "frame"): CaseReader => async (type, values) => {
  const field = PITCH_FIELD[type]!;
  const c = new CatalogClient({
    apiKey: DEMO_KEYS.catalog,
    baseUrl: "http://s/catalog",
    fetch: rewriting(stub, (path, body) => {
      if (path !== "/pitches") return body;
      const b = body as { data: Record<string, unknown>[] };
      const data = values.map((v, i) => {
        const r = b.data[i % b.data.length];
        const id = `p_case_${i}`;
        return { ...r, pitch_id: id, pitch: { ...(r.pitch as object), pitch_id: id, [field]: v } };
      });
      return { data, has_more: false, next_cursor: null };
    }).fetch,
  });
  return await quiet(() =>
    readList(
      c.pitches({ limit: 20 }),
      how,
      values,
      (r) => (r.pitch as Record<string, unknown>)[field],
      field,
      type,
    )
  );
};

Deno.test("catalog pitch rows (take() and .frame()) read every case of their fields' grammars", async (t) => {
  for (const how of ["take", "frame"] as const) {
    await t.step(how, async (t) => {
      await runGrammarCases(t, pitchesReader(how), Object.keys(PITCH_FIELD) as CaseType[]);
    });
  }
});

Deno.test("property: generated values outside a type's grammar are loud in frames and rows", async () => {
  const { default: fc } = await import("fast-check");
  const { readValue, UNREADABLE } = await import("../../lib/shared/values/mod.ts");
  const { grammarFor, CASES } = await import("../shared/values_test.ts");
  const anything = fc.oneof(
    fc.string(),
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.array(fc.oneof(fc.string(), fc.double(), fc.constant(null)), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
  );
  for (const type of VALUE_TYPES) {
    const g = grammarFor(type);
    const outside = anything.filter((v) => readValue(g, v, () => {}) === UNREADABLE);
    await fc.assert(
      fc.asyncProperty(outside, async (v) => {
        // alone: the column is an InvalidResponseError naming the field
        for (const read of [frameReader, rowsReader]) {
          const err = await read(type, [v]).then(() => undefined, (e) => e);
          assert.ok(
            err instanceof Error && err.name === "InvalidResponseError",
            `${type}: ${String(err)}`,
          );
          assert.match(err.message, /\bx expected /);
        }
        // beside a value that reads: null, and counted
        const ok = CASES[type][0][0];
        const got = await frameReader(type, [ok, v]);
        assert.equal(got.values[1], null);
        assert.equal(got.unreadable, 1);
      }),
      { numRuns: 40 },
    );
  }
});
