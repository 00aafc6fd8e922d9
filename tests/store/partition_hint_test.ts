/**
 * Issue 33: `writeDataset(df, dir, { partitionBy: ["year", "month"] })` on a
 * frame without those columns names `withYearMonth` and the frame's date
 * columns, instead of a close match among 174 columns.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { transactionsFrame, withYearMonth, writeDataset } from "../../mod.ts";
import { createStub } from "../../lib/stub/mod.ts";

const stub = createStub({ seed: 1, scale: 0.1 });
const trades = transactionsFrame(stub.insider.trades.slice(0, 40).map((t) => t.row));

async function message(df: pl.DataFrame, partitionBy: string[]): Promise<string> {
  const dir = await Deno.makeTempDir();
  try {
    await writeDataset(df, dir, { partitionBy });
  } catch (e) {
    return (e as Error).message;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  throw new Error("writeDataset did not refuse");
}

Deno.test("partitionBy year/month without withYearMonth: the hint names withYearMonth and the date columns", async () => {
  const m = await message(trades, ["year", "month"]);
  assert.match(m, /^writeDataset: the frame lacks partition columns "year", "month"; /);
  assert.match(m, /withYearMonth\(df, "filed_at"\) adds "year" and "month" from a date column/);
  assert.match(m, /date columns of this frame: filed_at, .*transaction_date/);
  assert.doesNotMatch(m, /did you mean/, "no close matches among unrelated columns");
  // one of the two, and a frame whose only date column is another
  const dated = pl.DataFrame({ d: [new Date("2025-03-01")], x: [1] });
  assert.match(
    await message(dated, ["month"]),
    /lacks partition column "month"; withYearMonth\(df, "d"\) .*\(date columns of this frame: d\)/,
  );
  assert.match(
    await message(pl.DataFrame({ x: [1] }), ["year"]),
    /withYearMonth\(df, "a date column"\) .*; this frame has none/,
  );
  // after withYearMonth it writes
  const dir = await Deno.makeTempDir();
  const files = await writeDataset(withYearMonth(trades, "filed_at"), dir, {
    partitionBy: ["year", "month"],
  });
  assert.ok(files.length >= 1);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("partitionBy with another missing column keeps its close matches, and the year hint", async () => {
  const m = await message(trades, ["year", "issuer_nme"]);
  assert.match(m, /lacks partition columns "year", "issuer_nme" \(did you mean "issuer_name"/);
  assert.match(m, /withYearMonth\(df, "filed_at"\)/);
});
