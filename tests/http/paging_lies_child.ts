/**
 * Child of `paging_lies_test.ts`: pulls of a lying feeds service
 * (`_lies.ts`), in their own process with time and memory ceilings.
 *
 * - `case <json>`: one pull, `{ lies, parallel }`; prints one JSON line:
 *   the rows handed out (accession indexes, in order), requests, the
 *   error's name, reason and partial cursor, and the warnings printed.
 * - `property <runs>`: generated lies (fast-check); prints `ok` or the
 *   counterexample.
 */
import fc from "fast-check";
import { partialOf } from "../../mod.ts";
import { type Lies, lyingFeeds } from "./_lies.ts";

/** What one pull gave. */
export interface Outcome {
  rows: number[];
  requests: number;
  error: { name: string; reason?: string; cursor?: string | null } | null;
  warnings: string[];
}

const warnings: string[] = [];
console.warn = (...a: unknown[]) => void warnings.push(a.join(" "));

async function pull(lies: Lies, parallel: number): Promise<Outcome> {
  warnings.length = 0;
  const svc = lyingFeeds(lies);
  const rows: number[] = [];
  let error: Outcome["error"] = null;
  try {
    for await (const r of svc.insider.feeds({ feedIds: [1], limit: 25 }, { parallel })) {
      rows.push(Number(r.accession_number.slice(-6)));
      if (rows.length > 50 * svc.total) throw new Error("runaway pull");
    }
  } catch (e) {
    error = {
      name: (e as Error).name,
      reason: (e as { reason?: string }).reason,
      // iteration keeps no partial: the error's own cursor is where it stopped
      cursor: partialOf(e)?.cursor ?? (e as { cursor?: string }).cursor,
    };
  }
  return { rows, requests: svc.counts.requests, error, warnings: [...warnings] };
}

const [mode, arg] = Deno.args;
if (mode === "case") {
  const { lies, parallel } = JSON.parse(arg) as { lies: Lies; parallel: number };
  console.log(JSON.stringify(await pull(lies, parallel)));
} else {
  const lies = fc.record({
    days: fc.integer({ min: 1, max: 60 }),
    perDay: fc.integer({ min: 1, max: 12 }),
    again: fc.array(fc.integer({ min: 0, max: 700 }), { maxLength: 6 }),
    repeatPrev: fc.boolean(),
    loopAfter: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
    endAfter: fc.option(fc.integer({ min: 0, max: 700 }), { nil: undefined }),
    pageCursor: fc.boolean(),
  });
  try {
    await fc.assert(
      fc.asyncProperty(lies, fc.constantFrom(1, 4, 8), async (l, parallel) => {
        const total = l.days * l.perDay;
        const out = await pull(l, parallel);
        // never a row twice, never a row out of order or invented: a prefix of the list
        out.rows.forEach((r, i) => {
          if (r !== i) throw new Error(`row ${i} is ${r}: ${JSON.stringify(out)}`);
        });
        const pages = Math.ceil(total / 25) + 1;
        // a loop ends: a bounded number of requests (windows: a few per window)
        if (out.requests > 12 * pages + 40 * parallel) {
          throw new Error(`${out.requests} requests for ${total} rows`);
        }
        const lied = l.loopAfter !== undefined || (l.endAfter !== undefined && l.endAfter < total);
        if (!lied && (out.error !== null || out.rows.length !== total)) {
          throw new Error(`an honest end, but ${JSON.stringify(out)}`);
        }
        if (out.error && out.error.name !== "PaginationError") {
          throw new Error(`not a PaginationError: ${JSON.stringify(out.error)}`);
        }
        const sentTwice = l.again.some((i) => i < out.rows.length);
        if (!out.error && sentTwice && !out.warnings.some((w) => /again under a key/.test(w))) {
          throw new Error(`rows sent twice, no warning: ${JSON.stringify(out.warnings)}`);
        }
      }),
      { numRuns: Number(arg), seed: 42 },
    );
    console.log("ok");
  } catch (e) {
    console.log(String((e as Error).message).slice(0, 2000));
  }
}
