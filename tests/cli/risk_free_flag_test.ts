import assert from "node:assert/strict";
import { join } from "node:path";
import { task } from "./_task.ts";

/** `deno task backtest --portfolio` of one feed with `--risk-free riskFree`, written to `out`. */
function backtest(riskFree: string, out: string) {
  return task([
    "backtest",
    "--portfolio",
    "--risk-free",
    riskFree,
    "--feed",
    "ceo-trades:buy",
    "--max-rows",
    "300",
    "--out",
    out,
  ]);
}

Deno.test("deno task backtest --risk-free: the rate given (percent a year, with or without %) is the rate the portfolios use", async () => {
  const dir = await Deno.makeTempDir();
  for (
    const [flag, shown] of [["4", /risk-free rate of 4(\.0+)?% a year/], [
      "0.5%",
      /risk-free rate of 0\.50?% a year/,
    ]] as const
  ) {
    const out = join(dir, flag);
    const r = await backtest(flag, out);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, shown, `--risk-free ${flag}`);
    assert.match(
      await Deno.readTextFile(join(out, "report.md")),
      shown,
      `report.md, --risk-free ${flag}`,
    );
  }
  await Deno.remove(dir, { recursive: true });
});
