/**
 * Coverage benchmark (issue 15): signalbook's estimators against the truth
 * the emulator built in (`stub.truth`), over many seeds.
 *
 * 1. Event-study intervals: for `COVERAGE_SEEDS` (default 40) small worlds
 *    (`COVERAGE_SCALE`, default 0.5 ≈ 12,000 trades, 200 issuers), the
 *    headline study's 95 % intervals under issuer, month and no (i.i.d.)
 *    clustering; coverage = share of worlds whose interval contains the true
 *    mean expected excess return of exactly the trades used. Width ratio:
 *    i.i.d. width ÷ cluster width (the baseline is the i.i.d. interval).
 * 2. Portfolio alpha: mean annualized alpha of the CEO-buys portfolio across
 *    seeds, against the same backtest on noise-free returns; the gap in
 *    cross-seed standard errors.
 * 3. Headline robustness: for `HEADLINE_SEEDS` (default 40) worlds of the
 *    demo's size (scale 1), how often the estimated CEO-buys − all-purchases
 *    gap has the true gap's sign (positive), per horizon.
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
  coverage,
  COVERAGE_HORIZONS,
  type HeadlineGap,
  type WorldChecks,
} from "./coverage_lib.ts";

let peakRss = 0;

/** Runs one batch of seeds in a child process (memory is returned between batches). */
async function batch<T>(kind: "world" | "headline", scale: number, seeds: number[]): Promise<T[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("./coverage_child.ts", import.meta.url).pathname,
      kind,
      String(scale),
      ...seeds.map(String),
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`coverage batch ${kind} ${seeds.join(",")} failed`);
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
  const { results, rssMb } = JSON.parse(lines[lines.length - 1]);
  peakRss = Math.max(peakRss, rssMb);
  return results as T[];
}

async function batches<T>(kind: "world" | "headline", scale: number, n: number): Promise<T[]> {
  const out: T[] = [];
  for (let first = 1; first <= n; first += 5) {
    const seeds = Array.from({ length: Math.min(5, n - first + 1) }, (_, i) => first + i);
    out.push(...await batch<T>(kind, scale, seeds));
  }
  return out;
}

/** Runs the coverage benchmark and returns the printed tables. */
export async function coverageBench(
  seeds = Number(Deno.env.get("COVERAGE_SEEDS") ?? 40),
  scale = Number(Deno.env.get("COVERAGE_SCALE") ?? 0.5),
  headlineSeeds = Number(Deno.env.get("HEADLINE_SEEDS") ?? 40),
): Promise<string> {
  const t0 = performance.now();
  const checks: Check[] = [];
  const alphas: AlphaCheck[] = [];
  for (const w of await batches<WorldChecks>("world", scale, seeds)) {
    checks.push(...w.intervals);
    alphas.push(...w.alphas);
  }
  const cov = coverage(checks);
  const rows: (string | number)[][] = [];
  const targets = [...new Set(cov.map((r) => r.target))];
  for (const target of targets) {
    for (const h of COVERAGE_HORIZONS) {
      const cell = (c: string) =>
        cov.find((r) => r.target === target && r.horizon === h && r.cluster === c);
      const iss = cell("issuer");
      const mon = cell("month");
      const none = cell("none");
      if (!iss || !mon || !none) continue;
      rows.push([
        target,
        h,
        iss.worlds,
        iss.coverage,
        mon.coverage,
        none.coverage,
        none.width / iss.width,
      ]);
    }
  }
  const tIntervals = (performance.now() - t0) / 1000;
  const out = [
    table(
      `Event-study 95 % intervals vs the truth: ${seeds} seeds, scale ${scale} (% of worlds covered)`,
      ["target", "horizon", "worlds", "issuer %", "month %", "i.i.d. %", "i.i.d. ÷ issuer width"],
      rows,
    ),
  ];
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
  const gaps = await batches<HeadlineGap>("headline", 1, headlineSeeds);
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
  out.push(table(
    `Headline robustness at the demo's size (scale 1): CEO buys − all purchases, ${headlineSeeds} seeds`,
    ["horizon", "seeds", "gap > 0 (% of seeds)", "mean gap", "sd across seeds", "mean true gap"],
    gRows,
  ));
  out.push(
    `coverage bench: ${tIntervals.toFixed(0)} s for the intervals, ${
      ((performance.now() - t0) / 1000).toFixed(0)
    } s in all; peak RSS ${peakRss.toFixed(0)} MB (largest batch of 5 worlds)`,
  );
  return out.join("\n");
}

if (import.meta.main) console.log(await coverageBench());
