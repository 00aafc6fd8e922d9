/**
 * The one table `deno task bench` ends with (issue 34): each figure a user
 * feels, its target, and whether this run met it, so a regression is seen
 * at a glance.
 *
 * @module
 */

/** One figure of the table. */
export interface BenchRow {
  /** What was measured. */
  name: string;
  /** The figure (NaN when not measured on this machine). */
  value: number;
  /** Its unit (`s`, `MiB`, `×`). */
  unit: string;
  /** The target; the figure meets it when at or under it. */
  target: number;
}

/** The rows as an aligned text table. */
export function benchTable(title: string, rows: readonly BenchRow[]): string {
  const cells = rows.map((r) => [
    r.name,
    Number.isNaN(r.value) ? "not measured" : `${fmt(r.value)} ${r.unit}`,
    `≤ ${fmt(r.target)} ${r.unit}`,
    Number.isNaN(r.value) ? "–" : r.value <= r.target ? "met" : "MISSED",
  ]);
  const head = ["figure", "this run", "target", ""];
  const width = head.map((h, k) => Math.max(h.length, ...cells.map((c) => c[k].length)));
  const line = (c: string[]) => c.map((x, k) => x.padEnd(width[k])).join("  ").trimEnd();
  return [title, line(head), ...cells.map(line)].join("\n");
}

function fmt(x: number): string {
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
}

/** The environment for a benchmark child: this one's PATH and Deno cache, a given cache home, no service keys. */
export function childEnv(cacheHome: string): Record<string, string> {
  const home = Deno.env.get("HOME") ?? "/root";
  const xdg = Deno.env.get("XDG_CACHE_HOME") ?? `${home}/.cache`;
  return {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: home,
    DENO_DIR: Deno.env.get("DENO_DIR") ?? `${xdg}/deno`,
    XDG_CACHE_HOME: cacheHome,
    NO_COLOR: "1",
  };
}

/** The machine's 1-minute load average (Linux `/proc/loadavg`); NaN where it cannot be read. */
export function loadAverage(): number {
  try {
    return Number(Deno.readTextFileSync("/proc/loadavg").split(" ")[0]);
  } catch {
    return NaN;
  }
}
