/**
 * Coverage benchmark (issues 15, 24 and 32): signalbook's estimators against
 * the truth the emulator built in (`stub.truth`, which covers every effect
 * the world builds into prices, the ten-bagger landmark included), over
 * many seeds.
 *
 * 1. Event-study intervals: for `COVERAGE_SEEDS` (default 60) small worlds
 *    (`COVERAGE_SCALE`, default 0.5 ≈ 11,000 trades, 200 issuers) from
 *    `COVERAGE_FIRST_SEED` (default 1; pick seeds never used to tune), the
 *    headline study's 95 % intervals under two-way (the default), issuer,
 *    month (the old default) and no (i.i.d.) clustering, on the full pull
 *    and on the newest 5,000 and 2,000 rows; coverage = share of worlds
 *    whose interval contains the true mean expected excess return of exactly
 *    the trades used, counting only intervals on at least
 *    `DEFAULT_MIN_CLUSTERS` clusters (the others are thin). Then coverage by
 *    the number of clusters behind the interval, which `minClusters` is
 *    chosen from. `COVERAGE_CLUSTERINGS` narrows the clusterings;
 *    `COVERAGE_OUT` saves every check as JSON.
 *    Then the bias per cell: the mean of estimate − truth across worlds, its
 *    cross-world standard error and z (issue 32 asks |z| ≤ 3 in every cell
 *    over at least 60 worlds: `COVERAGE_SEEDS=60`).
 * 1b. The CLI's default run (`backtest --feed ceo-trades:buy`, by role,
 *    `--max-rows` 1000) and larger pulls, on `CLI_SEEDS` (default 60) worlds
 *    of the default size (scale 1): per pull and horizon, how many role rows
 *    get an interval and how many of those cover the truth.
 * 2. Entry at filing: the filing-date mean excess approximated from the
 *    service's points, against the same computed on the true daily prices
 *    and against the expected value (the truth).
 * 3. Portfolio alpha: mean annualized alpha of the CEO-buys portfolio across
 *    seeds, against the same backtest on noise-free returns; the gap in
 *    cross-seed standard errors.
 * 4. Headline robustness: for `HEADLINE_SEEDS` (default 40; 0 skips) worlds
 *    of the demo's size (scale 1), how often the estimated CEO-buys −
 *    all-purchases gap has the true gap's sign (positive), per horizon.
 *
 * `deno run -A bench/coverage_bench.ts`; no thresholds: read the table.
 *
 * @module
 */
import { table } from "./loopback.ts";
import {
  type AlphaCheck,
  alphaSummary,
  type Check,
  CLI_PULLS,
  type CliCheck,
  CLUSTERINGS,
  coverage,
  COVERAGE_HORIZONS,
  type FilingCheck,
  type HeadlineGap,
  PULLS,
  type WorldChecks,
} from "./coverage_lib.ts";
import { DEFAULT_MIN_CLUSTERS } from "../lib/backtest/event_study.ts";
import { runChild } from "./_child.ts";

let peakRss = 0;

/** Runs one batch of seeds in a child process (memory is returned between batches). */
async function batch<T>(
  kind: "world" | "headline" | "cli",
  scale: number,
  seeds: number[],
): Promise<T[]> {
  const { results, rssMb } = await runChild<{ results: T[]; rssMb: number }>(
    "./coverage_child.ts",
    [kind, scale, ...seeds],
    `coverage batch ${kind} ${seeds.join(",")} failed`,
  );
  peakRss = Math.max(peakRss, rssMb);
  return results as T[];
}

/** First seed (`COVERAGE_FIRST_SEED`, default 1): pick unseen worlds with e.g. 2001. */
const FIRST_SEED = Number(Deno.env.get("COVERAGE_FIRST_SEED") ?? 1);

async function batches<T>(
  kind: "world" | "headline" | "cli",
  scale: number,
  n: number,
): Promise<T[]> {
  const out: T[] = [];
  for (let k = 0; k < n; k += 5) {
    const seeds = Array.from({ length: Math.min(5, n - k) }, (_, i) => FIRST_SEED + k + i);
    out.push(...await batch<T>(kind, scale, seeds));
  }
  return out;
}

const pct = (k: number, n: number) => (n ? `${(100 * k / n).toFixed(0)}% (${k}/${n})` : "–");

/**
 * The coverage tables from the interval checks: per pull, target and
 * horizon, the share of worlds whose interval covers the truth under each
 * clustering (intervals on fewer than `minClusters` clusters count as thin
 * and are left out: the cell shows how many worlds had an interval), then
 * coverage by the number of clusters behind the interval (what
 * `minClusters` is chosen from).
 */
export function coverageTables(checks: Check[], minClusters: number, title: string): string[] {
  const cov = coverage(checks, minClusters);
  const rows: (string | number)[][] = [];
  const targets = [...new Set(checks.map((r) => r.target))];
  const worlds = new Set(checks.map((c) => c.seed)).size;
  for (const pull of PULLS) {
    for (const target of targets) {
      for (const h of COVERAGE_HORIZONS) {
        const cell = (c: string) =>
          cov.find((r) =>
            r.pull === pull && r.target === target && r.horizon === h && r.cluster === c
          );
        const show = (c: string) => {
          const x = cell(c);
          // "thin": run, but no world had enough clusters; "–": not run
          return x ? pct(x.covered, x.worlds) : checks.some((k) => k.cluster === c) ? "thin" : "–";
        };
        if (!CLUSTERINGS.some((c) => cell(c))) continue;
        if (!checks.some((c) => c.pull === pull)) continue;
        rows.push([pull, target, h, ...CLUSTERINGS.map(show)]);
      }
    }
  }
  const out = [
    table(
      `${title}: ${worlds} worlds; % of worlds whose 95 % interval covers the truth (covered/worlds with an interval; thin: fewer than ${minClusters} clusters in every world)`,
      ["pull", "target", "horizon", ...CLUSTERINGS.map((c) => `${c}`)],
      rows,
    ),
  ];
  const bins: [number, number][] = [
    [2, 9],
    [10, 14],
    [15, 19],
    [20, 24],
    [25, 29],
    [30, 49],
    [50, 1e9],
  ];
  const bRows = CLUSTERINGS.filter((c) => c !== "none").map((c) => [
    c,
    ...bins.map(([lo, hi]) => {
      const cs = checks.filter((x) => x.cluster === c && x.clusters >= lo && x.clusters <= hi);
      return pct(cs.filter((x) => x.low <= x.truth && x.truth <= x.high).length, cs.length);
    }),
  ]);
  out.push(table(
    "Coverage by the number of clusters behind the interval (all cells pooled)",
    ["clustering", ...bins.map(([lo, hi]) => hi > 1e6 ? `${lo}+` : `${lo}–${hi}`)],
    bRows,
  ));
  return out;
}

/** The filing-entry approximation against the truth, across worlds. */
export function filingTable(xs: FilingCheck[]): string {
  const rows: (string | number)[][] = [];
  const m = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const se = (v: number[]) =>
    Math.sqrt(v.reduce((a, b) => a + (b - m(v)) ** 2, 0) / (v.length - 1) / v.length);
  for (const target of [...new Set(xs.map((x) => x.target))]) {
    for (const h of COVERAGE_HORIZONS) {
      const cs = xs.filter((x) => x.target === target && x.horizon === h);
      if (!cs.length) continue;
      const bias = cs.map((c) => c.approx - c.realized);
      const vsTruth = cs.map((c) => c.approx - c.expected);
      const tradeVs = cs.map((c) => c.trade - c.expectedTrade);
      rows.push([
        target,
        h,
        cs.length,
        m(cs.map((c) => c.trade)),
        m(cs.map((c) => c.approx)),
        m(cs.map((c) => c.realized)),
        m(cs.map((c) => c.expected)),
        `${m(bias).toFixed(3)} ± ${se(bias).toFixed(3)}`,
        `${m(vsTruth).toFixed(2)} ± ${se(vsTruth).toFixed(2)}`,
        `${m(tradeVs).toFixed(2)} ± ${se(tradeVs).toFixed(2)}`,
        m(cs.map((c) => c.expectedTrade - c.expected)),
      ]);
    }
  }
  return table(
    `Entry at filing (mean excess return, %, across worlds; ± cross-world SE)`,
    [
      "group",
      "horizon",
      "worlds",
      "trade date (service)",
      "filing, approximated",
      "filing, true prices",
      "filing, expected (truth)",
      "approx − true prices",
      "approx − truth",
      "trade-date est. − its truth",
      "truth lost by waiting",
    ],
    rows,
  );
}

/**
 * Bias against the truth per cell (pull × target × horizon): the mean of
 * estimate − truth across worlds, its cross-world standard error, and z =
 * mean ÷ SE. The estimate is the same under every clustering, so the checks
 * of the first clustering run are used. A cell passes when |z| ≤ 3.
 */
export function biasRows(
  checks: Check[],
): {
  pull: string;
  target: string;
  horizon: string;
  worlds: number;
  mean: number;
  se: number;
  z: number;
}[] {
  const first = checks[0]?.cluster;
  const cells = new Map<string, Check[]>();
  for (const c of checks) {
    if (c.cluster !== first) continue;
    const k = `${c.pull}|${c.target}|${c.horizon}`;
    cells.set(k, [...(cells.get(k) ?? []), c]);
  }
  return [...cells.values()].map((cs) => {
    const d = cs.map((c) => c.estimate - c.truth);
    const m = d.reduce((a, b) => a + b, 0) / d.length;
    const se = Math.sqrt(d.reduce((a, b) => a + (b - m) ** 2, 0) / (d.length - 1) / d.length);
    return {
      pull: cs[0].pull,
      target: cs[0].target,
      horizon: cs[0].horizon,
      worlds: d.length,
      mean: m,
      se,
      z: m / se,
    };
  });
}

/** The bias table (see {@link biasRows}). */
export function biasTable(checks: Check[]): string {
  const rows = biasRows(checks);
  const worst = Math.max(...rows.map((r) => Math.abs(r.z)));
  return table(
    `Mean estimate − truth (percentage points; ± cross-world SE; z = mean / SE), every cell; largest |z| ${
      worst.toFixed(2)
    }`,
    ["pull", "target", "horizon", "worlds", "mean − truth", "SE", "z", "|z| ≤ 3"],
    rows.map((
      r,
    ) => [
      r.pull,
      r.target,
      r.horizon,
      r.worlds,
      r.mean,
      r.se,
      r.z,
      Math.abs(r.z) <= 3 ? "yes" : "NO",
    ]),
  );
}

/**
 * The CLI's default run (`backtest --feed ceo-trades:buy`, by role,
 * two-way, minClusters 20) and larger `--max-rows`: per pull and horizon,
 * role rows with an interval, how many cover the truth, the rows reported
 * thin, and the spread of the errors over the reported standard errors.
 */
export function cliTable(xs: CliCheck[]): string {
  const rows: (string | number)[][] = [];
  for (const maxRows of CLI_PULLS) {
    for (const h of COVERAGE_HORIZONS) {
      const cs = xs.filter((x) => x.maxRows === maxRows && x.horizon === h);
      if (!cs.length) continue;
      const shown = cs.filter((x) => !x.thin);
      const cov = shown.filter((x) => x.low <= x.truth && x.truth <= x.high).length;
      const z = shown.map((x) => (x.estimate - x.truth) / ((x.high - x.low) / 3.92));
      const rms = Math.sqrt(z.reduce((a, b) => a + b * b, 0) / Math.max(1, z.length));
      const ks = shown.map((x) => x.clusters).sort((a, b) => a - b);
      rows.push([
        maxRows,
        h,
        cs.length,
        cs.length - shown.length,
        pct(cov, shown.length),
        shown.length ? `${ks[0]}–${ks[ks.length - 1]}` : "–",
        shown.length ? rms : "–",
      ]);
    }
  }
  const worlds = new Set(xs.map((x) => x.seed)).size;
  return table(
    `CLI default run (backtest --feed ceo-trades:buy, by role, two-way, minClusters 20) by --max-rows: ${worlds} worlds, role rows pooled`,
    [
      "max-rows",
      "horizon",
      "role rows",
      "thin",
      "covered (of rows with an interval)",
      "clusters",
      "rms (error / SE)",
    ],
    rows,
  );
}

/** Runs the coverage benchmark and returns the printed tables. */
export async function coverageBench(
  seeds = Number(Deno.env.get("COVERAGE_SEEDS") ?? 60),
  scale = Number(Deno.env.get("COVERAGE_SCALE") ?? 0.5),
  headlineSeeds = Number(Deno.env.get("HEADLINE_SEEDS") ?? 40),
  cliSeeds = Number(Deno.env.get("CLI_SEEDS") ?? 60),
): Promise<string> {
  const t0 = performance.now();
  const checks: Check[] = [];
  const alphas: AlphaCheck[] = [];
  const filingAll: FilingCheck[] = [];
  for (const w of await batches<WorldChecks>("world", scale, seeds)) {
    checks.push(...w.intervals);
    alphas.push(...w.alphas);
    filingAll.push(...w.filing);
  }
  const out = coverageTables(
    checks,
    DEFAULT_MIN_CLUSTERS,
    `Event-study 95 % intervals vs the truth, scale ${scale}`,
  );
  const tIntervals = (performance.now() - t0) / 1000;
  const dump = Deno.env.get("COVERAGE_OUT");
  // the CLI's default run reads the default world (scale 1)
  const cli = cliSeeds > 0 ? (await batches<CliCheck[]>("cli", 1, cliSeeds)).flat() : [];
  if (dump) {
    await Deno.writeTextFile(dump, JSON.stringify({ checks, alphas, filing: filingAll, cli }));
  }
  out.push(biasTable(checks));
  if (cli.length) out.push(cliTable(cli));
  out.push(filingTable(filingAll));
  const aRows: (string | number)[][] = [];
  for (const h of ["1m", "6m"] as const) {
    const a = alphaSummary(alphas.filter((x) => x.horizon === h));
    aRows.push([
      `CEO buys, hold ${h}`,
      a.mean,
      a.truth,
      a.se,
      (a.mean - a.truth) / a.se,
      a.within ? "yes" : "no",
    ]);
  }
  out.push(table(
    `Portfolio alpha (%/yr, equal weight, no costs) vs the noise-free backtest: ${seeds} seeds`,
    ["portfolio", "mean alpha", "truth", "cross-seed SE", "gap in SEs", "within 1 SE"],
    aRows,
  ));
  const gaps = headlineSeeds > 0 ? await batches<HeadlineGap>("headline", 1, headlineSeeds) : [];
  const gRows = COVERAGE_HORIZONS.map((h) => {
    const est = gaps.map((g) => g.estimate[h]);
    const tru = gaps.map((g) => g.truth[h]);
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    const sd = Math.sqrt(est.reduce((a, b) => a + (b - mean(est)) ** 2, 0) / (est.length - 1));
    return [
      h,
      headlineSeeds,
      100 * est.filter((x) => x > 0).length / est.length,
      mean(est),
      sd,
      mean(tru),
    ];
  });
  if (gaps.length) {
    out.push(table(
      `Headline robustness at the demo's size (scale 1): CEO buys − all purchases, ${headlineSeeds} seeds`,
      ["horizon", "seeds", "gap > 0 (% of seeds)", "mean gap", "sd across seeds", "mean true gap"],
      gRows,
    ));
  }
  out.push(
    `coverage bench: ${tIntervals.toFixed(0)} s for the intervals, ${
      ((performance.now() - t0) / 1000).toFixed(0)
    } s in all; peak RSS ${peakRss.toFixed(0)} MiB (largest batch of 5 worlds)`,
  );
  return out.join("\n");
}

if (import.meta.main) console.log(await coverageBench());
