import { offline } from "../_util.ts";
import assert from "node:assert/strict";
import { insiderProfile } from "../../mod.ts";

const { insider } = await offline({ seed: 1, scale: 0.3 });

Deno.test("insiderProfile: name → trades → study by side → verdict computed from the study", async () => {
  const hits = await insider.insiders("a", { limit: 10 });
  const best = [...hits].sort((a, b) => (b.trade_count ?? 0) - (a.trade_count ?? 0))[0];
  const p = await insiderProfile(insider, best.name, { minN: 3 });
  assert.equal(p.insider.cik, best.cik);
  assert.ok(p.trades.height > 0);
  assert.deepEqual(
    [...new Set(p.trades.getColumn("reporting_owner_cik").toArray())],
    [best.cik],
  );
  const sides = new Set(p.study.getColumn("group").toArray());
  assert.ok([...sides].every((s) => s === "buy" || s === "sell"), [...sides].join());
  // every number in the verdict comes from the study's rows
  const rows = p.study.toRecords() as { n: number }[];
  for (const m of p.verdict.matchAll(/(\d+) (buys|sales)/g)) {
    assert.ok(rows.some((r) => r.n === Number(m[1])), `${m[0]} not in the study`);
  }
  // buys are open-market purchases (P) only, sales are S: exercises, awards and gifts are not
  const all = p.trades.toRecords() as Record<string, unknown>[];
  for (const r of p.study.toRecords() as Record<string, unknown>[]) {
    const codes = r.group === "buy" ? ["P"] : ["S"];
    const want = all.filter((t) =>
      codes.includes(t.code as string) && typeof t[`excess_returns_${r.horizon}`] === "number"
    ).length;
    assert.equal(r.n, want, `${r.group} ${r.horizon}`);
  }
  assert.ok(p.caveats.length >= 3);
  assert.match(p.caveats[0], new RegExp(`^${p.trades.height} trades`));
  // the filing delay is this insider's own, not a blanket "two business days"
  assert.match(
    p.caveats[1],
    new RegExp(
      `^Returns run from the trade date; an investor could act only after the filing: their filings came a median \\d+ days? after the trade, \\d+ of ${p.trades.height} more than 2 days after\\.$`,
    ),
  );
});

Deno.test("insiderProfile: few trades are 'too few to judge'", async () => {
  const hits = await insider.insiders("a", { limit: 10 });
  const p = await insiderProfile(insider, hits[0].name, { minN: 1000 });
  assert.match(p.verdict, /too few to judge|no trades|No buys or sales/);
});

Deno.test("insiderProfile: an unknown name is an error naming it", async () => {
  await assert.rejects(
    () => insiderProfile(insider, "Zzyzx Qwerty Nobody"),
    (e: Error) => e.message.includes(`"Zzyzx Qwerty Nobody"`),
  );
});
