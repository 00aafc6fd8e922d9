/**
 * A cell of the notebook display shows at most `maxChars` characters
 * (default 40): a longer text is cut to 39 and marked `…`, a text of exactly
 * 40 is shown whole (issue 50: a cut one character late went unseen).
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { withDisplay } from "../../mod.ts";
import { displayBundle } from "../_util.ts";

Deno.test("display: a text cell is cut at 40 characters, the last one '…'; 40 characters show whole", () => {
  const df = withDisplay(pl.DataFrame({ s: ["x".repeat(60), "y".repeat(40), "z".repeat(41)] }));
  const h = String(displayBundle<unknown>(df)["text/html"]);
  assert.ok(h.includes(`<td>${"x".repeat(39)}…</td>`), h);
  assert.ok(h.includes(`<td>${"y".repeat(40)}</td>`), h);
  assert.ok(h.includes(`<td>${"z".repeat(39)}…</td>`), h);
  const text = String(displayBundle<unknown>(df)["text/plain"]);
  assert.ok(text.includes(`${"x".repeat(39)}…`) && !text.includes("x".repeat(40)), text);
});
