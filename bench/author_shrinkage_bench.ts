/**
 * The winner's curse of `authorWinRates` rankings over many emulator worlds
 * (see author_shrinkage_lib.ts for the truth): for the top 3 and the top 20
 * authors, how far their rate overstates their true win rate when ranked by
 * the raw rate (`win_rate`) and when ranked by the shrunk rate
 * (`win_rate_shrunk`, the frame's order), the true rate of the authors each
 * ranking picks, and how often the raw rate's Wilson interval covers the
 * truth. Each figure is the mean over worlds ± its standard error (sd /
 * √worlds). docs/validation.md quotes it.
 *
 * `deno run -A bench/author_shrinkage_bench.ts`; `SHRINK_SEEDS` worlds
 * (default 60) from `SHRINK_FIRST_SEED` (default 7601) at `SHRINK_SCALE`
 * (default 1, the default world).
 *
 * @module
 */
import { type ShrinkageCheck, shrinkageCheck } from "./author_shrinkage_lib.ts";

const env = (k: string, d: number) => Number(Deno.env.get(k) ?? d);
const [seeds, first, scale] = [
  env("SHRINK_SEEDS", 60),
  env("SHRINK_FIRST_SEED", 7601),
  env("SHRINK_SCALE", 1),
];

const checks: ShrinkageCheck[] = [];
const t0 = performance.now();
for (let s = first; s < first + seeds; s++) {
  checks.push(await shrinkageCheck(s, scale));
  const c = checks.at(-1)!;
  console.error(
    `seed ${s}: ${c.authors} authors, prior strength ${c.strength.toFixed(1)}, top 3 raw ${
      c.top[3].rawOver.toFixed(1)
    } shrunk ${c.top[3].shrunkOver.toFixed(1)} (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
  );
}

const meanSe = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
  return `${m >= 0 ? "+" : ""}${m.toFixed(1)} ± ${(sd / Math.sqrt(xs.length)).toFixed(1)}`;
};
const strengths = checks.map((c) => c.strength).filter(Number.isFinite).sort((a, b) => a - b);
console.log(
  `author rankings vs the emulator's truth: ${checks.length} worlds (seeds ${first}-${
    first + seeds - 1
  }, scale ${scale}), 1y abs, minPitches 5; ${
    meanSe(checks.map((c) => c.authors)).split(" ")[0].slice(1)
  } authors a world; prior strength median ${
    strengths[Math.floor(strengths.length / 2)]?.toFixed(1)
  } pitches (${checks.length - strengths.length} worlds without spread)`,
);
console.log(
  `calibration: win_rate − true rate over all authors ${
    meanSe(checks.map((c) => c.allOver))
  } points (the truth is right when ≈ 0)`,
);
console.log("figure (percentage points; mean over worlds ± SE)       top 3          top 20");
const row = (label: string, f: (t: ShrinkageCheck["top"][string]) => number) =>
  console.log(
    `${label.padEnd(55)}${meanSe(checks.map((c) => f(c.top[3]))).padEnd(15)}${
      meanSe(checks.map((c) => f(c.top[20])))
    }`,
  );
row("overstatement, ranked by raw win_rate", (t) => t.rawOver);
row("overstatement, ranked by win_rate_shrunk", (t) => t.shrunkOver);
row("true win rate of the authors picked, raw ranking", (t) => t.rawTruth);
row("true win rate of the authors picked, shrunk ranking", (t) => t.shrunkTruth);
row("shrunk picks' true rate minus raw picks' (paired)", (t) => t.shrunkTruth - t.rawTruth);
row("Wilson 95% interval covers the truth, raw top (%)", (t) => t.wilsonCover);
