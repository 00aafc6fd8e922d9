/**
 * Starts `deno task stub` as a child process over loopback for benchmarks and
 * waits for its ready line.
 *
 * @module
 */
import { peakMb } from "./_peak.ts";

/** A running loopback stub. */
export interface LoopbackStub {
  /** Base URL, e.g. http://127.0.0.1:41234. */
  url: string;
  /** Process id. */
  pid: number;
  /** Peak resident memory of the stub so far, MiB (from /proc). */
  rssMb(): number;
  /** Stops it. */
  stop(): Promise<void>;
}

/** Spawns the stub with extra flags. */
export async function startStub(flags: string[]): Promise<LoopbackStub> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../lib/cli/stub.ts", import.meta.url).pathname,
      "--port",
      "0",
      ...flags,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  let m: RegExpExecArray | null;
  while (!(m = /stub listening on (\S+)\n/.exec(text))) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`stub exited: ${text}`);
    text += value;
  }
  reader.releaseLock();
  return {
    url: m[1],
    pid: child.pid,
    rssMb: () => peakMb(child.pid),
    stop: async () => {
      child.kill("SIGTERM");
      await child.status;
      await child.stdout.cancel().catch(() => {});
    },
  };
}

/** Formats a table of rows. */
export function table(title: string, header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((r) => r.map((c) => typeof c === "number" ? fmt(c) : c))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => String(r[i]).length)));
  const line = (r: (string | number)[]) =>
    "| " + r.map((c, i) => String(c).padEnd(widths[i])).join(" | ") + " |";
  return [
    `\n${title}`,
    line(cells[0]),
    "|" + widths.map((w) => "-".repeat(w + 2)).join("|") + "|",
    ...cells.slice(1).map(line),
  ].join("\n");
}

function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n)) return n.toLocaleString("en-US");
  if (Math.abs(n) >= 1000) return Math.round(n).toLocaleString("en-US");
  if (Math.abs(n) >= 10) return n.toFixed(1);
  return n.toFixed(2);
}
