/**
 * A notebook of the user's own (outside the repo) with a 10,000-dot scatter
 * and every result object — `statsTable`, `portfolioTable`,
 * `entryComparison`, a `portfolioBacktest` result, `show(result)` — executed
 * through Jupyter: the notebook stays under 150 KB, each result displays as
 * HTML, and rendered by nbconvert in the light and the dark theme, every
 * chart and table reads in headless Chromium (text contrast by pixels).
 * The PNGs of each theme's page are left in $SIGNALBOOK_SHOTS when set, for
 * a person to look at.
 */
import assert from "node:assert/strict";
import { execute, jupyterMissing } from "../../lib/notebook/_jupyter.ts";
import { denoNotebook } from "../../bench/_notebook.ts";
import { Browser, chromiumMissing, nbconvertHtml, nbconvertMissing } from "./_chromium.ts";
import { chartOutputs, checkPage, tableOutputs } from "./_pages.ts";
import { toolTest } from "../_tools.ts";

const MOD = new URL("../../mod.ts", import.meta.url).href;
const jupyterTest = toolTest(
  (await jupyterMissing()) ?? (await nbconvertMissing()) ?? (await chromiumMissing()),
  "Jupyter, nbconvert and Chromium",
  {
    skipped: "rich output notebook test",
    enable: "apt-get install python3-nbclient python3-nbconvert chromium && deno jupyter --install",
  },
);

const CELLS = [
  `import * as Plot from "npm:@observablehq/plot@0.6.17";
import pl from "npm:nodejs-polars@0.25.2";
import { connect, entryComparison, eventStudy, headlineStudy, plot, portfolioBacktest, portfolioTable, show, statsTable, tradeClass } from "${MOD}";
const { insider } = await connect({ quiet: true });
const trades = await insider.search({}).frame({ maxRows: 14000, progress: false });
const dots = trades.filter(pl.col("excess_returns_3m").isNotNull().and(pl.col("transaction_value").gt(0))).head(10000);
dots.height`,
  `plot({
  title: "10,000 trades: value vs 3-month excess return",
  subtitle: "one dot per trade",
  x: { type: "log", label: "Value (USD)" },
  y: { label: "Excess return after 3 months (%)", grid: true },
  color: { legend: true, label: "Side" },
  marks: [Plot.dot(dots, { x: "transaction_value", y: "excess_returns_3m", stroke: "acquired_disposed_code" })],
})`,
  `const buys = tradeClass(trades).filter(pl.col("trade_class").eq(pl.lit("open_market_purchase")));
const study = eventStudy(buys, { groupBy: "role", baseline: "Director", horizons: ["1m", "3m"] });
statsTable(study)`,
  `const ceo = portfolioBacktest(buys.filter(pl.col("is_ceo")), { horizon: "3m" });
const all = portfolioBacktest(buys, { horizon: "3m" });
portfolioTable({ "CEO buys": ceo, "All purchases": all })`,
  `entryComparison(headlineStudy(trades, ["1m", "3m"]))`,
  `all`,
  `show(ceo)`,
];

jupyterTest(
  "a notebook with a 10,000-dot scatter and every result object: under 150 KB, legible in light and dark",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "my-analysis-" });
    const browser = await Browser.launch();
    try {
      const path = `${dir}/rich.ipynb`;
      await Deno.writeTextFile(path, denoNotebook(CELLS));
      const summary = await execute(path, path, { stopOnError: true });
      assert.deepEqual(summary.errors, []);
      const bytes = (await Deno.stat(path)).size;
      console.log(
        `notebook with a 10,000-dot scatter and 5 result displays: ${(bytes / 1024).toFixed(0)} KB`,
      );
      assert.ok(bytes <= 150 * 1024, `${bytes} B`);
      type Out = { output_type: string; data?: Record<string, string | string[]> };
      const done = JSON.parse(await Deno.readTextFile(path)) as { cells: { outputs: Out[] }[] };
      const html = (i: number) =>
        [
          done.cells[i].outputs.find((o) => o.output_type === "execute_result")?.data
            ?.["text/html"] ?? "",
        ]
          .flat().join("");
      assert.match(html(1), /^<img class="sb-chart" [^>]*src="data:image\/png;base64,/);
      for (const i of [2, 3, 4]) assert.match(html(i), /^<div class="sb-table">.*<table>/s);
      for (const i of [5, 6]) {
        assert.match(html(i), /^<div class="sb-portfolio">.*<img class="sb-chart".*<table>/s);
      }
      const want = { charts: chartOutputs(path), tables: tableOutputs(path) };
      assert.deepEqual(want, { charts: 3, tables: 5 });
      const lowest: Record<string, Record<string, number>> = {};
      const problems: string[] = [];
      const shots = Deno.env.get("SIGNALBOOK_SHOTS");
      for (const theme of ["light", "dark"]) {
        await nbconvertHtml([path], theme, `${dir}/${theme}`);
        await browser.open(`${dir}/${theme}/rich.html`);
        problems.push(...await checkPage(browser, theme, want, lowest[theme] = {}));
        if (shots) {
          const h = await browser.evaluate<number>("document.body.scrollHeight");
          const png = await browser.send("Page.captureScreenshot", {
            format: "png",
            clip: { x: 0, y: 0, width: 1100, height: h, scale: 1 },
            captureBeyondViewport: true,
          });
          await Deno.mkdir(shots, { recursive: true });
          await Deno.writeFile(
            `${shots}/rich-${theme}.png`,
            Uint8Array.from(atob(String(png.data)), (c) => c.charCodeAt(0)),
          );
        }
      }
      console.log(
        `lowest contrast: ${
          Object.entries(lowest).map(([t, r]) =>
            `${t}: ${Object.entries(r).map(([k, v]) => `${k} ${v.toFixed(1)}:1`).join(", ")}`
          ).join("; ")
        }`,
      );
      assert.deepEqual(problems, []);
    } finally {
      await browser.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
);
