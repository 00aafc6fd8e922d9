/**
 * Issue 33: a one-feed backtest is compared with every open-market trade of
 * its side filed in the same period, never with itself; the README's
 * one-feed command reads right.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { join } from "node:path";
import { feedPeriod } from "../../lib/cli/market_baseline.ts";
import { easternDate } from "../../lib/insider/_windows.ts";
import { createStub } from "../../lib/stub/mod.ts";
import { task } from "./_task.ts";

/** The README's one-feed backtest command, as its arguments. */
function readmeOneFeedCommand(): string[] {
  const readme = Deno.readTextFileSync(new URL("../../README.md", import.meta.url));
  const line = readme.split("\n").find((l) =>
    /task backtest .*--portfolio/.test(l) && (l.match(/--feed /g) ?? []).length === 1
  );
  assert.ok(line, "the README shows a one-feed --portfolio backtest");
  return line.replace(/#.*$/, "").trim().split(/\s+/).slice(
    line.trim().split(/\s+/).indexOf("backtest"),
  );
}

Deno.test("feedPeriod: first and last US Eastern filing date", () => {
  assert.deepEqual(
    feedPeriod([
      { filed_at: "2025-03-04T22:10:00Z" },
      { filed_at: "2025-01-02T03:00:00Z" }, // 22:00 on Jan 1 in New York
      { filed_at: "not a date" },
    ]),
    { from: "2025-01-01", to: "2025-03-04" },
  );
  assert.equal(feedPeriod([]), undefined);
});

Deno.test({
  name:
    "the README's one-feed backtest compares CEO buys with all open-market purchases of the same period",
  sanitizeResources: false,
  fn: async () => {
    const out = await Deno.makeTempDir();
    const args = readmeOneFeedCommand();
    assert.deepEqual(args.filter((a) => a.includes(":")), ["ceo-trades:buy"]);
    const r = await task([...args, "--out", out]);
    assert.equal(r.code, 0, r.stderr);
    const note =
      /baseline "All purchases": every open-market purchase filed from (\d{4}-\d\d-\d\d) to (\d{4}-\d\d-\d\d), the period of ceo-trades:buy \((\d+) trades\), used because no --baseline was given/
        .exec(r.stderr);
    assert.ok(note, r.stderr);
    const [, from, to, n] = note;
    // the baseline is exactly the open-market purchases (code P) filed in that period
    const stub = createStub({ seed: 1 });
    const expected = stub.insider.trades.filter((t) => {
      const d = easternDate(t.row.filed_at);
      return t.row.code === "P" && d !== undefined && d >= from && d <= to;
    }).length;
    assert.equal(Number(n), expected);
    assert.doesNotMatch(r.stderr, /All purchases has more than/);

    const stats = pl.readParquet(join(out, "stats.parquet"));
    const groups = stats.getColumn("group").toArray() as string[];
    assert.deepEqual([...new Set(groups)], ["CEO", "All purchases"]);
    assert.deepEqual([...new Set(stats.getColumn("baseline").toArray())], ["All purchases"]);
    const ceo = stats.filter(pl.col("group").eq(pl.lit("CEO")));
    assert.ok(
      (ceo.getColumn("diff_vs_baseline").toArray() as (number | null)[]).some((d) =>
        d !== null && d !== 0
      ),
      "CEO rows carry a difference against the baseline",
    );
    // in the printed table only the baseline's rows say "baseline"
    const rows = r.stdout.split("\n").filter((l) => /^(CEO|All purchases)\s+\d[wmy]\s/.test(l));
    assert.equal(rows.length, groups.length);
    for (const row of rows) {
      assert.equal(row.startsWith("All purchases"), /baseline\s*$/.test(row), row);
    }
    // a portfolio for each, side by side
    assert.match(r.stdout, /^CEO\s+trade\s+\d+/m);
    assert.match(r.stdout, /^All purchases\s+trade\s+\d+/m);
    const md = await Deno.readTextFile(join(out, "report.md"));
    assert.match(md, /every open-market purchase filed from/);
    await Deno.remove(out, { recursive: true });
  },
});

Deno.test({
  name: "a :sell feed is compared with all sales; --baseline names the market for several feeds",
  sanitizeResources: false,
  fn: async () => {
    const out = await Deno.makeTempDir();
    const backtest = (args: string) => task(["backtest", ...args.split(" "), "--out", out]);
    const sell = await backtest("--feed ceo-trades:sell --max-rows 100 --horizons 1m");
    assert.equal(sell.code, 0, sell.stderr);
    assert.match(
      sell.stderr,
      /baseline "All sales": every open-market or 10b5-1 plan sale filed from .* the period of ceo-trades:sell \(\d+ trades\)/,
    );
    assert.deepEqual(
      [...new Set(pl.readParquet(join(out, "stats.parquet")).getColumn("baseline").toArray())],
      ["All sales"],
    );
    const two = await task([
      "backtest",
      ..."--feed ceo-trades:buy --feed top-insiders:buy --max-rows 80 --horizons 1m".split(" "),
      "--baseline",
      "All purchases",
      "--out",
      out,
    ]);
    assert.equal(two.code, 0, two.stderr);
    assert.match(
      two.stderr,
      /the period of ceo-trades:buy, top-insiders:buy \(\d+ trades\) \(--baseline\)/,
    );
    const stats = pl.readParquet(join(out, "stats.parquet"));
    assert.deepEqual(stats.getColumn("group").toArray(), [
      "ceo-trades:buy",
      "top-insiders:buy",
      "All purchases",
    ]);
    // a baseline that is no group: named, with close matches, exit 2
    const bad = await backtest(
      "--feed ceo-trades:buy --feed top-insiders:buy --baseline ceo-trade:buy --max-rows 30",
    );
    assert.equal(bad.code, 2);
    assert.match(
      bad.stderr,
      /--baseline "ceo-trade:buy" is not a group; groups: ceo-trades:buy, top-insiders:buy \(did you mean "ceo-trades:buy"/,
    );
    await Deno.remove(out, { recursive: true });
  },
});
