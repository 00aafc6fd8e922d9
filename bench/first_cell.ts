/**
 * The first cell (issue 34 point 1, issue 53 point 1): a fresh process
 * imports signalbook, connects to the embedded emulator and takes 10 rows of
 * an insider search. Where users are: the child script runs from a new
 * folder outside the repository with no deno.json (nor one above it),
 * importing mod.ts by its absolute file URL (`runChildOutside`), so Deno
 * runs it without the repository's configuration and lockfile; and, beside
 * it, from bench/ in the repository (the repository's deno.json and
 * deno.lock apply). Cold: an empty cache folder, so the world is generated
 * (what every process paid before the world cache); warm: the world read
 * from the cache folder (every later process). Prints the medians, the warm
 * ÷ cold ratio and the load average the runs started and ended at.
 *
 * @module
 */
import { type BenchRow, childEnv, loadAverage } from "./_table.ts";
import { jStat } from "../lib/backtest/_stats.ts";
import { runChild, runChildOutside } from "./_child.ts";

interface Child {
  importS: number;
  firstAnswerS: number;
  rssAfterMb: number;
  catalogS: number;
  peakMb: number;
}

const SCRIPT = "./first_cell_child.ts";

/** The first cell from a user's folder (no deno.json), or from bench/ in the repository. */
function child(cacheHome: string, where: "outside" | "repo"): Promise<Child> {
  const failed = `first cell (${where}) failed`;
  return where === "outside"
    ? runChildOutside<Child>(SCRIPT, [], failed, childEnv(cacheHome))
    : runChild<Child>(SCRIPT, [], failed, [], childEnv(cacheHome));
}

/**
 * Runs the first cell cold once (from a user's folder), then warm `runs`
 * times from a user's folder and `runs` times in the repository, alternating;
 * returns the printed text and the table rows.
 */
export async function firstCellBench(runs = 3): Promise<{ text: string; rows: BenchRow[] }> {
  const home = await Deno.makeTempDir({ prefix: "sb-first-cell-" });
  try {
    const loadBefore = loadAverage();
    const cold = await child(home, "outside");
    const outside: Child[] = [];
    const repo: Child[] = [];
    for (let i = 0; i < runs; i++) {
      outside.push(await child(home, "outside"));
      repo.push(await child(home, "repo"));
    }
    const loadAfter = loadAverage();
    const m = (xs: Child[], k: keyof Child) => jStat.median(xs.map((w) => w[k]));
    const worlds = `${home}/signalbook/worlds`;
    const fileMb = [...Deno.readDirSync(worlds)].reduce(
      (a, e) => a + Deno.statSync(`${worlds}/${e.name}`).size,
      0,
    ) / 2 ** 20;
    const f = (x: number) => x.toFixed(2);
    const mb = (x: number) => `${x.toFixed(0)} MiB`;
    const list = (xs: Child[]) => xs.map((x) => x.rssAfterMb.toFixed(0)).join(", ");
    const warm = (label: string, xs: Child[]) =>
      `  ${label}, median of ${runs}: import ${f(m(xs, "importS"))} s, first answer ${
        f(m(xs, "firstAnswerS"))
      } s, RSS after ${mb(m(xs, "rssAfterMb"))} (runs: ${list(xs)} MiB), first catalog page ${
        f(m(xs, "catalogS"))
      } s later`;
    const text = [
      "first cell (fresh process: import, connect, 10 rows of an insider search; default world;" +
      ` load average ${loadBefore.toFixed(1)} at the start, ${loadAfter.toFixed(1)} at the end)`,
      `  cold, from a user's folder (world generated, as before the cache): import ${
        f(cold.importS)
      } s, first answer ${f(cold.firstAnswerS)} s, RSS after ${mb(cold.rssAfterMb)}, peak ${
        mb(cold.peakMb)
      }`,
      warm("warm, from a user's folder without deno.json (mod.ts by file URL)", outside),
      warm("warm, in the repository (bench/, its deno.json and deno.lock)", repo),
      `  world file in the cache folder: ${fileMb.toFixed(0)} MiB`,
      `  warm ÷ cold (user's folder): first answer ${
        (m(outside, "firstAnswerS") / cold.firstAnswerS).toFixed(2)
      }×, RSS after ${(m(outside, "rssAfterMb") / cold.rssAfterMb).toFixed(2)}×`,
    ].join("\n");
    return {
      text,
      rows: [
        {
          name: "first answer after connect (warm, user's folder)",
          value: m(outside, "firstAnswerS"),
          unit: "s",
          target: 0.3,
        },
        {
          name: "RSS after the first answer (warm, user's folder, no deno.json)",
          value: m(outside, "rssAfterMb"),
          unit: "MiB",
          target: 150,
        },
        {
          name: "RSS after the first answer (warm, in the repository)",
          value: m(repo, "rssAfterMb"),
          unit: "MiB",
          target: 150,
        },
      ],
    };
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

if (import.meta.main) console.log((await firstCellBench(Number(Deno.args[0] ?? 3))).text);
