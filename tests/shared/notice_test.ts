/**
 * Notices: stderr in a script, never console.warn. The notebook side (a
 * plain stdout note, no stderr) is checked end to end through Jupyter in
 * tests/outside and tests/notebooks: `Deno.jupyter` cannot be faked here.
 */
import assert from "node:assert/strict";
import { notice } from "../../lib/shared/notice.ts";

function capture(fn: () => void): { log: string[]; error: string[]; warn: string[] } {
  const got = { log: [] as string[], error: [] as string[], warn: [] as string[] };
  const orig = { log: console.log, error: console.error, warn: console.warn };
  console.log = (m: string) => got.log.push(m);
  console.error = (m: string) => got.error.push(m);
  console.warn = (m: string) => got.warn.push(m);
  try {
    fn();
  } finally {
    Object.assign(console, orig);
  }
  return got;
}

Deno.test("notice: stderr under deno run / deno test", () => {
  assert.deepEqual(capture(() => notice("signalbook: a note")), {
    log: [],
    error: ["signalbook: a note"],
    warn: [],
  });
});
