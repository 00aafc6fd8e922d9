/**
 * The emulator's truth against its own rows, with no estimator in between:
 * for `TRUTH_SEEDS` worlds (default 120) from `TRUTH_FIRST_SEED` (default
 * 30001) at `TRUTH_SCALE` (default 0.5), each open-market purchase's
 * realized excess return (`excess_returns_<h>`) minus `stub.truth.expected`,
 * averaged per world over CEO buys and over all purchases (anomalous trades
 * excluded, as the headline study does), also without the ten-bagger and
 * over the trades of the last 2 years (about what the newest 5,000 rows of
 * `bench/coverage_bench.ts` hold), then across worlds: mean ± the
 * cross-world standard error and z. The headline study's `mean_excess` is
 * exactly the mean of these rows (`tests/backtest/truth_alignment_test.ts`),
 * so this is the event study's bias against the truth, measured on more
 * worlds than `bench/coverage_bench.ts` can afford.
 *
 * `deno run -A bench/truth_rows_bench.ts`
 *
 * @module
 */
import { createStub } from "../lib/stub/mod.ts";
import { PRICE_MODEL, TEN_BAGGER, type World } from "../lib/stub/world.ts";
import { table } from "./loopback.ts";

const HORIZONS = ["1m", "3m", "6m", "1y"] as const;
const GROUPS = [
  "CEO buys",
  "All purchases",
  "CEO buys − all purchases",
  "CEO buys, no ten-bagger",
  "All purchases, no ten-bagger",
  "CEO buys, traded in the last 2 years",
  "All purchases, traded in the last 2 years",
  "CEO buys − all purchases, last 2 years",
] as const;

/** Days before the as-of date that the "last 2 years" groups look back (the newest rows' span). */
const RECENT_DAYS = 730;

/**
 * A stock's log growth from `d0` to `d1` net of everything the price model
 * puts in on purpose: its effects, its beta times the market's log growth,
 * and its compensated drift (the formula of `compensatedDrift` in
 * `lib/stub/world.ts`). What is left is the idiosyncratic noise, whose mean
 * is exactly 0 for any stock and days chosen without looking at the path.
 */
function noise(world: World, c: number, d0: number, d1: number): number {
  const muM = Math.log(1 + PRICE_MODEL.marketReturn) / 365 - PRICE_MODEL.marketVol ** 2 / 365 / 2;
  const s2 = PRICE_MODEL.marketVol ** 2 / 365;
  const p = PRICE_MODEL.jumpsPerYear / 365;
  const mgf = 1 - p + p * Math.exp(PRICE_MODEL.jumpMean + PRICE_MODEL.jumpSd ** 2 / 2);
  const b = world.beta(c);
  const v2 = world.idioVol(c) ** 2 / 365;
  const drift = muM + s2 / 2 - b * muM - b * b * s2 / 2 - v2 / 2 - Math.log(mgf);
  return Math.log(world.price(c, d1) / world.price(c, d0)) -
    (world.effect(c, d1) - world.effect(c, d0)) -
    b * Math.log(world.market(d1) / world.market(d0)) - drift * (d1 - d0);
}

/** Per world and group × horizon: the mean of realized minus true excess return, percent. */
export function worldBias(seed: number, scale: number): Record<string, number> {
  const stub = createStub({ seed, scale });
  const { world } = stub;
  // the ten-bagger: the one company whose path has an effect besides the insiders' signals
  const landmark = world.companies.findIndex((_, c) =>
    Math.abs(world.effect(c, world.asOf) - world.abnormal(c, world.asOf)) > 1e-9
  );
  const sums: Record<string, [number, number]> = {};
  for (const t of stub.insider.trades) {
    const r = t.row as unknown as Record<string, unknown>;
    if (r.code !== "P" || r.is_anomalous_transaction !== false) continue;
    for (const h of HORIZONS) {
      const ex = r[`excess_returns_${h}`];
      const e = stub.truth.expected(t.row, h);
      if (typeof ex !== "number" || e === null) continue;
      const groups: string[] = r.is_ceo === true ? [GROUPS[0], GROUPS[1]] : [GROUPS[1]];
      if (t.company !== landmark) {
        groups.push(...(r.is_ceo === true ? [GROUPS[3], GROUPS[4]] : [GROUPS[4]]));
      }
      if (t.day >= world.asOf - RECENT_DAYS) {
        groups.push(...(r.is_ceo === true ? [GROUPS[5], GROUPS[6]] : [GROUPS[6]]));
      }
      for (const g of groups) {
        const s = (sums[`${g}|${h}`] ??= [0, 0]);
        s[0] += ex - e;
        s[1]++;
      }
    }
  }
  const out: Record<string, number> = {};
  for (const [k, [s, n]] of Object.entries(sums)) out[k] = s / n;
  // the ten-bagger's noise in the year before its run-up, against the other biotechs'
  const iD = world.asOf - TEN_BAGGER.daysBeforeAsOf;
  const bio = world.companies.filter((c) => c.sector === "biotech" && c.idx !== landmark);
  out["noise|landmark"] = 100 * noise(world, landmark, iD - 365, iD);
  out["noise|biotech"] = 100 *
    bio.reduce((a, c) => a + noise(world, c.idx, iD - 365, iD), 0) / bio.length;
  for (const h of HORIZONS) {
    out[`${GROUPS[2]}|${h}`] = out[`${GROUPS[0]}|${h}`] - out[`${GROUPS[1]}|${h}`];
    out[`${GROUPS[7]}|${h}`] = out[`${GROUPS[5]}|${h}`] - out[`${GROUPS[6]}|${h}`];
  }
  return out;
}

/** Runs the bench and returns the printed table. */
export function truthRowsBench(
  seeds = Number(Deno.env.get("TRUTH_SEEDS") ?? 120),
  first = Number(Deno.env.get("TRUTH_FIRST_SEED") ?? 30001),
  scale = Number(Deno.env.get("TRUTH_SCALE") ?? 0.5),
): string {
  const worlds = Array.from({ length: seeds }, (_, i) => worldBias(first + i, scale));
  const dump = Deno.env.get("TRUTH_OUT");
  if (dump) Deno.writeTextFileSync(dump, JSON.stringify(worlds));
  const f = (v: number) => `${v < 0 ? "−" : ""}${Math.abs(v).toFixed(2)}`;
  const per = (g: string, h: string) => worlds.map((w) => w[`${g}|${h}`]).filter(Number.isFinite);
  const moments = (xs: number[]) => {
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
    const skew = xs.reduce((a, b) => a + ((b - m) / sd) ** 3, 0) / xs.length;
    return { m, se: sd / Math.sqrt(xs.length), skew };
  };
  const rows = GROUPS.map((g) => [
    g,
    ...HORIZONS.map((h) => {
      const { m, se } = moments(per(g, h));
      return `${f(m)} ± ${se.toFixed(2)} (${f(m / se)})`;
    }),
  ]);
  // a right-skewed spread across worlds (a lognormal stock path, the ten-bagger's ×15)
  // puts the typical mean of a sample below the expectation
  const skews = GROUPS.map((g) => [g, ...HORIZONS.map((h) => f(moments(per(g, h)).skew))]);
  const noiseRows = [
    ["the ten-bagger", "landmark"],
    ["other biotechs (mean)", "biotech"],
  ].map(([label, k]) => {
    const { m, se } = moments(worlds.map((w) => w[`noise|${k}`]));
    return [label, `${f(m)} ± ${se.toFixed(2)} (${f(m / se)})`];
  });
  return `${
    table(
      `Realized minus true excess return of the rows, mean ± cross-world SE (z), percentage points: ${seeds} worlds from seed ${first}, scale ${scale}`,
      ["group", ...HORIZONS],
      rows,
    )
  }\n${table("Skewness of the per-world means across worlds", ["group", ...HORIZONS], skews)}\n${
    table(
      "Idiosyncratic log growth in the year before the ten-bagger's run-up, net of the model's drift, beta and effects (log points; 0 unless chosen by its path)",
      ["stock", "mean ± SE (z)"],
      noiseRows,
    )
  }`;
}

if (import.meta.main) console.log(truthRowsBench());
