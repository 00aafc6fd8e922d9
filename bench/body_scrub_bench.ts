/**
 * What the transport's key scan of every answer body costs (see
 * `lib/http/_key_match.ts`, `keyMatcher(key).scrub`): on a 100-row insider search
 * page of the emulator (174 fields a row), the decode the scan needs, the
 * scan of a clean page (three keys), the replacement on a page echoing the key in every
 * row, beside `JSON.parse` of the same page. Medians of 60 runs;
 * `deno run -A bench/body_scrub_bench.ts`.
 *
 * @module
 */
import { DEMO_KEYS } from "../mod.ts";
import { emulatorPage } from "./_emulator_page.ts";
import { keyMatcher } from "../lib/http/_key_match.ts";

function median(f: () => unknown, n = 60): number {
  const t: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = performance.now();
    f();
    t.push(performance.now() - a);
  }
  return t.sort((a, b) => a - b)[n >> 1];
}

/** The table of figures (ms a page). */
export async function bodyScrubBench(): Promise<string> {
  const page = await emulatorPage();
  const bytes = new TextEncoder().encode(page);
  const rows = (JSON.parse(page) as { data: Record<string, unknown>[] }).data;
  const key = ["sk", "live", "Q7fG2pX9zR", "4mT8/wK+v"].join("-");
  const scrub = keyMatcher(key).scrub;
  const demo = keyMatcher(DEMO_KEYS.insider).scrub;
  const digits = keyMatcher("2046193847561038").scrub;
  const dirty = page.replace(/"issuerName":"/g, `"issuerName":"ECHO ${key.toUpperCase()} `);
  const figures: [string, number][] = [
    ["decode the bytes", median(() => new TextDecoder().decode(bytes))],
    ["scan a clean page", median(() => scrub(page))],
    [`  the same, key ${DEMO_KEYS.insider}`, median(() => demo(page))],
    ["  the same, a key of 16 digits", median(() => digits(page))],
    [`replace on a page holding the key ${scrub(dirty).count} times`, median(() => scrub(dirty))],
    ["JSON.parse of the page", median(() => JSON.parse(page))],
  ];
  return [
    `Key scan of an answer body: ${rows.length} rows × ${
      Object.keys(rows[0]).length
    } fields, ${bytes.length} bytes (ms, medians)`,
    ...figures.map(([name, ms]) => `  ${name.padEnd(48)} ${ms.toFixed(2)} ms`),
  ].join("\n");
}

if (import.meta.main) console.log(await bodyScrubBench());
