/**
 * Demo data says so wherever `show()` puts it (lib/shared/demo.ts: "says so
 * where the user looks"): the rows of `take()`, a demo frame's records and
 * its lazy frame carry the DEMO DATA badge (HTML) and label (text), as the
 * frame itself does; the same values from a plain frame carry neither.
 */
import assert from "node:assert/strict";
import pl from "npm:nodejs-polars@0.25.2";
import { connect, DEMO_LABEL, isDemo, show } from "../../mod.ts";

const bundle = (x: unknown) =>
  (show(x) as unknown as Record<symbol, () => Record<string, string>>)[
    Symbol.for("Jupyter.display")
  ]();

Deno.test("show() of demo rows, records and a lazy frame says DEMO DATA; of plain ones, not", async () => {
  const { insider } = await connect({ quiet: true });
  const rows = await insider.search({}).take(5);
  const df = await insider.search({}).frame({ maxRows: 20 });
  const lazy = df.lazy().select("accession_number");
  const records = df.head(3).toRecords();
  for (const [what, x] of Object.entries({ rows, records, lazy, frame: df })) {
    assert.ok(isDemo(x), `${what} is demo data`);
    const b = bundle(x);
    assert.match(
      b["text/plain"],
      new RegExp(DEMO_LABEL.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")),
      what,
    );
    assert.match(b["text/html"], /DEMO DATA/, what);
  }
  const plain = pl.DataFrame({ a: [1, 2] });
  for (const [what, x] of Object.entries({ records: plain.toRecords(), lazy: plain.lazy() })) {
    assert.doesNotMatch(bundle(x)["text/plain"], /DEMO DATA/, what);
    assert.doesNotMatch(bundle(x)["text/html"], /DEMO DATA/, what);
  }
});
