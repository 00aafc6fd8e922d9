import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { join } from "node:path";
import { demoRun } from "../_demo_run.ts";
import { task } from "./_task.ts";

/** Decodes a PNG far enough to prove it is whole: chunks, CRC-free inflate of IDAT, row sizes. */
async function decodePng(bytes: Uint8Array): Promise<{ width: number; height: number }> {
  assert.deepEqual([...bytes.slice(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], "PNG signature");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 8;
  let width = 0, height = 0, colorType = 0, depth = 0;
  const idat: Uint8Array[] = [];
  let ended = false;
  while (pos < bytes.length) {
    const len = view.getUint32(pos);
    const type = new TextDecoder().decode(bytes.slice(pos + 4, pos + 8));
    const data = bytes.slice(pos + 8, pos + 8 + len);
    if (type === "IHDR") {
      width = view.getUint32(pos + 8);
      height = view.getUint32(pos + 12);
      depth = data[8];
      colorType = data[9];
    } else if (type === "IDAT") idat.push(data);
    else if (type === "IEND") ended = true;
    pos += 12 + len;
  }
  assert.ok(ended, "IEND chunk");
  const raw = new Uint8Array(
    await new Response(
      new Blob(idat as BlobPart[]).stream().pipeThrough(new DecompressionStream("deflate")),
    ).arrayBuffer(),
  );
  const channels = colorType === 6 ? 4 : colorType === 2 ? 3 : colorType === 4 ? 2 : 1;
  assert.equal(depth, 8);
  assert.equal(raw.length, height * (1 + width * channels), "inflated pixel data size");
  return { width, height };
}

Deno.test({
  name: "deno task demo writes every promised file, valid, and prints the table and paths",
  sanitizeResources: false,
  fn: async () => {
    const r = await demoRun(); // one run, shared with tests/backtest/duckdb_check_test.ts
    const out = r.out;
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /CEO buys\s+3m/);
    assert.match(r.stdout, /All purchases\s+1m .* baseline/);
    assert.match(r.stdout, new RegExp(`${out}/report.md`));
    const stats = pl.readParquet(join(out, "stats.parquet"));
    for (
      const c of ["group", "horizon", "n", "mean_excess", "ci_low", "ci_high", "diff_vs_baseline"]
    ) assert.ok(stats.columns.includes(c), c);
    assert.deepEqual(stats.getColumn("group").unique().sort().toArray(), [
      "10b5-1 sales",
      "All purchases",
      "CEO buys",
    ]);
    assert.equal(stats.height, 12);
    const csv = await Deno.readTextFile(join(out, "stats.csv"));
    assert.equal(csv.trim().split("\n").length, 13);
    // the demo mark travels with the CSV: a last column `source` on every row, which any CSV
    // reader keeps (a comment line would break them)
    assert.match(csv.split("\n")[0], /,source$/);
    for (const line of csv.trim().split("\n").slice(1)) {
      assert.match(line, /,"DEMO DATA · offline emulator, not the live service"$/);
    }
    for (const name of ["event-study", "forward-returns", "equity-curve", "drawdown"]) {
      const { width, height } = await decodePng(await Deno.readFile(join(out, `${name}.png`)));
      assert.ok(width > 1000 && height > 500);
      assert.match(
        await Deno.readTextFile(join(out, `${name}.svg`)),
        /^<svg color="#1a1a1a" xmlns=.*<rect class="background"/,
      );
    }
    const md = await Deno.readTextFile(join(out, "report.md"));
    for (
      const h of [
        "## Conclusion",
        "## Event study: excess return after the trade",
        "## Calendar-time portfolios",
        "## Caveats",
      ]
    ) assert.ok(md.includes(h), h);
    assert.match(md, /\| median \|/);
    assert.match(md, /a sale hits when its excess return is below 0/);
    assert.match(md, /CEO buys (beat|trailed) it by \d+\.\d\d percentage points/);
    assert.match(md, /\| CEO buys \| trade \| \d+ \| \d+ \| -?\d+\.\d%/);
    assert.match(md, /\| CEO buys \(filing\) \| filing \| \d+ \| \d+ \| -?\d+\.\d%/);
    assert.match(md, /## Entry at the trade date vs at the filing date/);
    // n paired, the two entries' means, and the interval of their difference
    assert.match(
      md,
      /\| CEO buys \| 3m \| \d+ \| -?\d+\.\d\d% \| -?\d+\.\d\d% \| [+-]\d+\.\d\d \| \[-?\d+\.\d\d, -?\d+\.\d\d\] \|/,
    );
    assert.doesNotMatch(md, /after the filing/);
    assert.match(r.stdout, /Sharpe \[95% CI\]\s+IR/);
    assert.match(r.stdout, /Sharpe over a risk-free rate of 0% a year/);
    assert.match(r.stdout, /Entry at the trade date vs at the filing date/);
    assert.match(r.stdout, /mean excess, trade date\s+mean excess, filing date/);
    const ceo = pl.readParquet(join(out, "portfolio-ceo-buys.parquet"));
    assert.deepEqual(ceo.columns, [
      "month",
      "n_positions",
      "n_short",
      "return",
      "market_return",
      "benchmark_return",
      "excess_return",
      "turnover",
      "cost",
      "equity",
      "drawdown",
      "source", // the demo mark on disk (lib/backtest/report.ts)
    ]);
    const links = [...md.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]);
    assert.ok(links.includes("event-study.svg") && links.includes("stats.parquet"));
    for (const l of links) {
      assert.ok((await Deno.stat(join(out, l))).isFile, `report link ${l} resolves`);
    }
    const trades = [...Deno.readDirSync(join(out, "data", "insider_trades"))].filter((e) =>
      e.name.startsWith("year=")
    );
    assert.ok(trades.length >= 5);
  },
});

Deno.test("deno task backtest: help, bad flags and values exit 2 naming them", async () => {
  const help = await task(["backtest", "--help"]);
  assert.equal(help.code, 0);
  for (
    const flag of [
      "--feed",
      "--from",
      "--group-by",
      "--horizons",
      "--out",
      "--max-rows",
      "--baseline",
      "--min-n",
      "--min-clusters",
      "--cluster",
      "--entry",
      "--all-codes",
      "--risk-free",
      "--portfolio",
      "--horizon",
      "--cost-bps",
      "--weighting",
      "--direction",
    ]
  ) {
    assert.ok(help.stdout.includes(flag), flag);
  }
  const cases: [string[], RegExp][] = [
    [["--colour", "red"], /Unknown option '--colour'/],
    [
      ["--feed", "penny-stocks:buy"],
      /--feed "penny-stocks:buy": topic "penny-stocks" is not allowed/,
    ],
    [["--feed", "ceo-trades:hold"], /side "hold" is not allowed; allowed: buy, sell/],
    [["--from", "2023-02-30"], /--from "2023-02-30" is not allowed/],
    [["--group-by", "mood"], /--group-by "mood" is not allowed/],
    [["--horizons", "1m,2y"], /--horizons: "2y" is not allowed/],
    [["--max-rows", "0"], /--max-rows "0" is not allowed/],
    [
      ["--cluster", "week"],
      /--cluster "week" is not allowed; allowed: two-way, month, issuer, none/,
    ],
    [["--entry", "announcement"], /--entry "announcement" is not allowed; allowed: trade, filing/],
    [["--min-clusters", "1"], /--min-clusters "1" is not allowed; allowed: an integer from 2/],
    [["--risk-free", "4"], /--risk-free needs --portfolio/],
    [["--min-n", "1"], /--min-n "1" is not allowed; allowed: an integer from 2 to 100000/],
    [["--horizon", "6m"], /--horizon needs --portfolio/],
    [["--portfolio", "--horizon", "2y"], /--horizon "2y" is not allowed; allowed: 1m, 3m, 6m, 1y/],
    [["--portfolio", "--cost-bps", "ten"], /--cost-bps "ten" is not allowed/],
    [
      ["--portfolio", "--risk-free", "0.04"],
      /--risk-free 0\.04 looks like a fraction; the rate is in percent a year \(did you mean 4\? For a rate under 1 % a year, write 0\.04%\)/,
    ],
    [
      ["--portfolio", "--weighting", "cap"],
      /--weighting "cap" is not allowed; allowed: equal, value/,
    ],
    [
      ["--portfolio", "--direction", "short"],
      /--direction "short" is not allowed; allowed: long, follow/,
    ],
  ];
  // every problem is reported at once, so two runs check them all: without and with --portfolio
  for (const portfolio of [false, true]) {
    const mine = cases.filter(([args]) => args.includes("--portfolio") === portfolio);
    const args = mine.flatMap(([a]) => a.filter((x) => x !== "--portfolio"));
    const r = await task(["backtest", ...(portfolio ? ["--portfolio"] : []), ...args]);
    assert.equal(r.code, 2, r.stderr);
    for (const [args, re] of mine) assert.match(r.stderr, re, args.join(" "));
  }
  // a rate under 1 % a year is written with its percent sign, and is then taken as written
  // (the run stops on the bad --weighting, before any pull, with nothing to say of the rate)
  const sub = await task(["backtest", "--portfolio", "--risk-free", "0.5%", "--weighting", "cap"]);
  assert.equal(sub.code, 2, sub.stderr);
  assert.match(sub.stderr, /--weighting "cap"/);
  assert.doesNotMatch(sub.stderr, /risk-free/);
  const over = await task(["backtest", "--portfolio", "--risk-free", "150%"]);
  assert.equal(over.code, 2);
  assert.match(over.stderr, /--risk-free "150" is not allowed/);
  assert.match(
    (await task(["backtest", "--portfolio", "--risk-free", "0.5"])).stderr,
    /did you mean 50\? For a rate under 1 % a year, write 0\.5%\)/,
  );
});

Deno.test({
  name: "deno task backtest runs two feeds and writes stats and charts",
  sanitizeResources: false,
  fn: async () => {
    const out = await Deno.makeTempDir();
    const r = await task([
      "backtest",
      "--feed",
      "ceo-trades:buy",
      "--feed",
      "top-insiders:buy",
      "--max-rows",
      "150",
      "--horizons",
      "1m,3m",
      "--out",
      out,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /ceo-trades:buy\s+1m/);
    for (
      const f of [
        "stats.parquet",
        "stats.csv",
        "event-study.svg",
        "event-study.png",
        "feed-comparison.svg",
        "feed-comparison.png",
        "report.md",
      ]
    ) {
      assert.ok((await Deno.stat(join(out, f))).size > 0, f);
    }
    assert.equal(pl.readParquet(join(out, "stats.parquet")).height, 4);
    await Deno.remove(out, { recursive: true });
  },
});

Deno.test("deno task sync and demo reject bad flags with exit 2", async () => {
  const a = await task(["sync", "--concurrency", "99"]);
  assert.equal(a.code, 2);
  assert.match(a.stderr, /--concurrency "99" is not allowed/);
  const b = await task(["sync", "--datasets", "trades"]);
  assert.equal(b.code, 2);
  assert.match(
    b.stderr,
    /--datasets: "trades" is not allowed; allowed: insider_trades, pitches \(/,
  );
  const c = await task(["demo", "--outdir", "x"]);
  assert.equal(c.code, 2);
  assert.match(c.stderr, /Unknown option '--outdir'/);
});

Deno.test({
  name:
    "deno task backtest --portfolio prints stats, writes charts; baseline and truncation are stated",
  sanitizeResources: false,
  fn: async () => {
    const out = await Deno.makeTempDir();
    const r = await task([
      "backtest",
      "--portfolio",
      "--horizon",
      "6m",
      "--cost-bps",
      "10",
      "--risk-free",
      "0.5%",
      "--feed",
      "ceo-trades:buy",
      "--feed",
      "top-insiders:buy",
      "--max-rows",
      "200",
      "--out",
      out,
    ]);
    assert.equal(r.code, 0, r.stderr);
    // a rate under 1 % a year, written with its percent sign, reaches every portfolio as written
    assert.doesNotMatch(r.stderr, /riskFree|risk-free/);
    assert.match(r.stdout, /Sharpe over a risk-free rate of 0\.50% a year/);
    assert.match(r.stderr, /warning: ceo-trades:buy has more than 200 rows; only the first 200/);
    assert.match(
      r.stderr,
      /baseline "[^"]+": the largest group, used because no --baseline was given/,
    );
    assert.match(r.stdout, /Sharpe \[95% CI\]\s+IR\*\s+max DD\*/);
    // CAGR: a dash under 12 months (never annualized from a few), a percent from 12 on
    assert.match(r.stdout, /ceo-trades:buy\s+trade\s+\d+\s+\d+\s+(-?\d+\.\d%|–)\s/);
    // 200 rows span a few months: most rows are thin, and the command says what to change
    assert.match(r.stderr, /rows are thin .* raise --max-rows \(now 200\) or widen --from\/--to/);
    for (const f of ["equity-curve.png", "drawdown.png", "portfolio-ceo-trades-buy.csv"]) {
      assert.ok((await Deno.stat(join(out, f))).size > 0, f);
    }
    const md = await Deno.readTextFile(join(out, "report.md"));
    assert.match(md, /the largest group, used because no --baseline was given/);
    const explicit = await task([
      "backtest",
      "--feed",
      "ceo-trades:buy",
      "--feed",
      "top-insiders:buy",
      "--max-rows",
      "100",
      "--horizons",
      "1m",
      "--baseline",
      "top-insiders:buy",
      "--min-n",
      "150",
      "--cluster",
      "issuer",
      "--out",
      out,
    ]);
    assert.equal(explicit.code, 0, explicit.stderr);
    const stats = pl.readParquet(join(out, "stats.parquet"));
    assert.deepEqual(stats.getColumn("baseline").toArray(), [
      "top-insiders:buy",
      "top-insiders:buy",
    ]);
    assert.deepEqual(stats.getColumn("cluster").toArray(), ["issuer", "issuer"]);
    assert.deepEqual(stats.getColumn("thin").toArray(), [true, true]);
    const bad = await task(["backtest", "--max-rows", "20", "--baseline", "Pope", "--out", out]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--baseline "Pope" is not a group; groups: CEO/);
    await Deno.remove(out, { recursive: true });
  },
});
