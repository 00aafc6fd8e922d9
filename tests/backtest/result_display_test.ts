/**
 * Result objects display richly: `statsTable`, `portfolioTable` and
 * `entryComparison` are tables that show as HTML in a notebook and print as
 * aligned text; a `portfolioBacktest` result shows its statistics beside a
 * small equity chart, and stays a plain `{ monthly, stats }` object; `show`
 * gives each its display.
 */
import assert from "node:assert/strict";
import pl from "npm:nodejs-polars@0.25.2";
import {
  connect,
  entryComparison,
  eventStudy,
  headlineStudy,
  portfolioBacktest,
  portfolioTable,
  ResultTable,
  show,
  sparkline,
  statsTable,
  tradeClass,
} from "../../mod.ts";
import { displayBundle } from "../_util.ts";
import { PORTFOLIO_BIAS } from "../../lib/backtest/result_display.ts";

const bundle = displayBundle;

const { insider } = await connect({ quiet: true });
const trades = await insider.search({ onlyMarketTransactions: true }).frame({
  maxRows: 4000,
  progress: false,
});
const buys = tradeClass(trades).filter(pl.col("trade_class").eq(pl.lit("open_market_purchase")));
const study = eventStudy(buys, { groupBy: "role", baseline: "Director", horizons: ["1m", "3m"] });
const result = portfolioBacktest(buys, { horizon: "3m" });

/** The cells of an HTML table, row by row (tags stripped, entities decoded). */
function htmlCells(html: string): string[][] {
  const rows = [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) =>
    [...m[1].matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((c) =>
      c[1].replace(/<[^>]+>/g, "").replaceAll("&lt;", "<").replaceAll("&gt;", ">")
        .replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&amp;", "&")
    )
  );
  return rows;
}

Deno.test("statsTable: an HTML table of every row and column in a notebook, aligned text elsewhere", () => {
  const t = statsTable(study);
  assert.ok(t instanceof ResultTable);
  const b = bundle(t);
  const cells = htmlCells(b["text/html"]);
  assert.deepEqual(cells[0], [...t.head]);
  assert.equal(cells.length, study.height + 1);
  assert.deepEqual(cells.slice(1), t.rows.map((r) => [...r]));
  assert.match(b["text/html"], /class="sb-num"/, "numbers are right-aligned");
  // no fixed colours: the table takes the theme's (the demo badge aside: amber on white text,
  // legible on either theme)
  const withoutBadge = b["text/html"].replace(
    /<div style="display:inline-block;background:#b45309[^>]*>[^<]*<\/div>/,
    "",
  );
  assert.doesNotMatch(withoutBadge, /color\s*:|background/);
  // text: String(), template literal and console.log agree; piped output is whole lines
  const text = String(t);
  assert.equal(`${t}`, text);
  assert.equal(Deno.inspect(t), text);
  // the emulator's figures: the demo mark comes first, then the table
  assert.match(
    text,
    /^DEMO DATA · offline emulator.*\ngroup\s+horizon\s+n \(clusters\)\s+mean excess/,
  );
  assert.match(text, /Director\s+1m .* baseline/);
  // the notebook's text form fits 100 characters: the columns continue below, keyed by group and horizon
  const plain = b["text/plain"];
  assert.ok(plain.split("\n").every((l) => l.length <= 100), plain);
  const blocks = plain.replace(/^DEMO DATA[^\n]*\n/, "").split("\n\n");
  assert.ok(blocks.length >= 2);
  for (const block of blocks) assert.match(block, /^group\s+horizon/);
  assert.match(plain, /vs baseline \(95% CI\)/);
});

Deno.test("portfolioTable and entryComparison: tables; entryComparison keeps its markdown form", () => {
  const p = portfolioTable({ "CEO buys": result, "All purchases": result });
  const cells = htmlCells(bundle(p)["text/html"]);
  assert.equal(cells[0][0], "portfolio");
  assert.deepEqual(cells.map((r) => r[0]), ["portfolio", "CEO buys", "All purchases"]);
  assert.match(bundle(p)["text/html"], /Sharpe over a risk-free rate of 0% a year/);
  assert.ok(bundle(p)["text/plain"].split("\n").every((l) => l.length <= 100));
  assert.match(String(p), /CEO buys\s+trade\s+\d+\s+\d+/);
  const trade = headlineStudy(trades, ["1m"]);
  const e = entryComparison(trade);
  assert.ok(e instanceof ResultTable);
  assert.deepEqual(htmlCells(bundle(e)["text/html"])[0], [
    "group",
    "horizon",
    "n paired",
    "mean excess, trade date",
    "mean excess, filing date",
    "filing − trade (pp)",
    "95% CI of filing − trade",
  ]);
  const md = entryComparison(trade, "markdown");
  assert.equal(typeof md, "string");
  assert.match(md, /^\| group \| horizon \| n paired \| mean excess, trade date/);
});

Deno.test("a portfolioBacktest result displays its statistics beside a small equity chart", () => {
  const b = bundle(result);
  const html = b["text/html"];
  assert.match(html, /^<div class="sb-portfolio">/);
  assert.match(html, /<img class="sb-chart" width="440" height="\d{3}"/);
  const stats = htmlCells(html);
  const row = (name: string) => stats.find((r) => r[0] === name)?.[1];
  // under 12 months CAGR is null (nullReasons.cagr) and shows as a dash
  const cagr = result.stats.cagr === null ? "–" : `${result.stats.cagr.toFixed(1)}%`;
  assert.equal(row("CAGR"), cagr);
  // below MIN_INTERVAL_MONTHS the interval is null and shows as dashes
  const { sharpe, sharpeInterval } = result.stats;
  const two = (v: number | null | undefined) => typeof v === "number" ? v.toFixed(2) : "–";
  assert.equal(
    row("Sharpe [95% CI]"),
    `${two(sharpe)} [${two(sharpeInterval?.[0])}, ${two(sharpeInterval?.[1])}]`,
  );
  assert.match(
    row("months") ?? "",
    new RegExp(`^${result.stats.months} \\(\\d{4}-\\d\\d to \\d{4}-\\d\\d\\)$`),
  );
  // text form: the same numbers and an equity sparkline ending at the final equity
  const text = b["text/plain"];
  // console.log prints the same summary (whole lines into a pipe), not Polars box text
  const logged = Deno.inspect(result);
  assert.match(logged, /^Portfolio backtest: \d+ calendar months/);
  assert.equal(
    logged.replace(/\s+/g, " "),
    text.replace(/\s+/g, " "),
    "the same words, wrapped differently",
  );
  assert.match(text, new RegExp(`CAGR\\s+${cagr}`));
  const equity = result.monthly.getColumn("equity").toArray() as number[];
  assert.match(text, new RegExp(`equity  1\\.00 [▁▂▃▄▅▆▇█]+ ${equity.at(-1)!.toFixed(2)}`));
  assert.doesNotMatch(text, /[┌╞│]/, "no Polars box drawing");
  assert.ok(text.split("\n").every((l) => l.length <= 100), text);
  // still a plain { monthly, stats } object
  assert.deepEqual(Object.keys(result), ["monthly", "stats"]);
  assert.deepEqual(Object.keys({ ...result }), ["monthly", "stats"]);
  assert.doesNotThrow(() => JSON.stringify(result.stats));
});

Deno.test("a portfolio's notebook display carries the measured bias of its estimates, with no report", () => {
  // a notebook has no report: the display itself states the measured bias (IR reads high …)
  const b = bundle(result);
  const flat = (t: string) => t.replace(/\s+/g, " ");
  const ir =
    /IR reads high from 3-month holdings on: \+4\.2 ± 1\.3 to \+12\.8 ± 1\.3 % at 3 months/;
  assert.match(flat(b["text/html"]), ir);
  assert.ok(flat(b["text/html"]).includes(PORTFOLIO_BIAS.replaceAll("&", "&amp;")));
  assert.match(flat(b["text/plain"]), ir);
  assert.match(flat(Deno.inspect(result)), ir);
  // every display prints the Sharpe and alpha biases the README quotes
  const sharpeAlpha =
    /Sharpe −0\.9 ± 0\.6 to \+5\.2 ± 0\.7 % and alpha −0\.14 ± 0\.08 to \+0\.41 ± 0\.07/;
  for (const out of [b["text/html"], b["text/plain"], String(portfolioTable({ a: result }))]) {
    assert.match(flat(out), sharpeAlpha);
  }
  // and never points to a report that is not there
  assert.doesNotMatch(b["text/html"], /in the report/);
  assert.doesNotMatch(b["text/plain"], /in the report/);
  // its note states the one definition of excess
  assert.match(
    flat(String(portfolioTable({ a: result }))),
    /alpha is Jensen's, the return over that rate/,
  );
});

Deno.test("show() gives every result object its own display", () => {
  for (const x of [statsTable(study), portfolioTable({ a: result }), result]) {
    const viaShow = bundle(show(x));
    assert.deepEqual(viaShow, bundle(x));
    assert.equal(String(show(x)), bundle(x)["text/plain"]);
  }
});

Deno.test("ResultTable: rows must match the head; markdown escapes pipes; sparkline scales", () => {
  assert.throws(
    () => new ResultTable({ head: ["a", "b"], rows: [["1"]] }),
    /ResultTable: row 0 has 1 cells, the head 2/,
  );
  const t = new ResultTable({ head: ["name", "value"], rows: [["a|b", "<1>"]], note: "n" });
  assert.match(t.toMarkdown(), /\| a\\\|b \| <1> \|/);
  assert.match(t.toHtml(), /<td>a\|b<\/td><td class="sb-num">&lt;1&gt;<\/td>/);
  assert.equal(sparkline([1, 2, 3, 4, 5, 6, 7, 8]), "▁▂▃▄▅▆▇█");
  assert.equal(sparkline(Array.from({ length: 500 }, (_, i) => i), 20).length, 20);
  assert.equal(sparkline([]), "");
});
