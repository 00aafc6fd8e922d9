/**
 * The first cell (issue 34 point 1): a fresh process imports signalbook,
 * connects to the embedded emulator and takes 10 rows of an insider search.
 * Cold: an empty cache folder, so the world is generated (what every
 * process paid before the world cache); warm: the world read from the
 * cache folder (every later process). Prints the medians and the warm ÷
 * cold ratio, from the same run.
 *
 * @module
 */
import { type BenchRow, childEnv } from "./_table.ts";
import { median } from "../lib/backtest/_stats.ts";
import { runChild } from "./_child.ts";

interface Child {
  importS: number;
  firstAnswerS: number;
  rssAfterMb: number;
  catalogS: number;
  peakMb: number;
}

function child(cacheHome: string): Promise<Child> {
  return runChild<Child>("./first_cell_child.ts", [], "first cell failed", [], childEnv(cacheHome));
}

/** Runs the first cell cold once and warm `runs` times; returns the printed text and the table rows. */
export async function firstCellBench(runs = 3): Promise<{ text: string; rows: BenchRow[] }> {
  const home = await Deno.makeTempDir({ prefix: "sb-first-cell-" });
  try {
    const cold = await child(home);
    const warm: Child[] = [];
    for (let i = 0; i < runs; i++) warm.push(await child(home));
    const m = (k: keyof Child) => median(warm.map((w) => w[k]));
    const worlds = `${home}/signalbook/worlds`;
    const fileMb = [...Deno.readDirSync(worlds)].reduce(
      (a, e) => a + Deno.statSync(`${worlds}/${e.name}`).size,
      0,
    ) / 2 ** 20;
    const f = (x: number) => x.toFixed(2);
    const text = [
      "first cell (fresh process: import, connect, 10 rows of an insider search; default world)",
      `  cold (world generated, as before the cache): import ${f(cold.importS)} s, first answer ${
        f(cold.firstAnswerS)
      } s, RSS after ${cold.rssAfterMb.toFixed(0)} MiB, peak ${cold.peakMb.toFixed(0)} MiB`,
      `  warm (world from the cache), median of ${runs}: import ${
        f(m("importS"))
      } s, first answer ${f(m("firstAnswerS"))} s, RSS after ${
        m("rssAfterMb").toFixed(0)
      } MiB, first catalog page ${f(m("catalogS"))} s later`,
      `  world file in the cache folder: ${fileMb.toFixed(0)} MiB`,
      `  warm ÷ cold: first answer ${
        (m("firstAnswerS") / cold.firstAnswerS).toFixed(2)
      }×, RSS after ${(m("rssAfterMb") / cold.rssAfterMb).toFixed(2)}×`,
    ].join("\n");
    return {
      text,
      rows: [
        {
          name: "first answer after connect (warm)",
          value: m("firstAnswerS"),
          unit: "s",
          target: 0.3,
        },
        {
          name: "RSS after the first answer (warm)",
          value: m("rssAfterMb"),
          unit: "MiB",
          target: 150,
        },
      ],
    };
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

if (import.meta.main) console.log((await firstCellBench()).text);
