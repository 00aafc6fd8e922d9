/**
 * `deno task demo`: with no keys set, pulls a page from each service (the
 * in-process emulator) through the public clients and prints a short summary.
 * With `PITCH_API_KEY`/`PITCH_BASE_URL` and `INSIDER_API_KEY`/
 * `INSIDER_BASE_URL` set, the same command reads the real services.
 *
 * @module
 */
import { connect } from "../../mod.ts";

if (import.meta.main) {
  const { catalog, insider, offline } = await connect();
  const where = offline.catalog && offline.insider ? "offline emulator" : "live services";
  const pitches = await catalog.pitches({ limit: 5, sentiment: ["bullish"] }).firstPage();
  const buys = await insider.search({ tradeType: "purchase", position: { ceo: true } }, {
    pageSize: 5,
  })
    .firstPage();
  console.log(`signalbook demo (${where})\n\nLatest bullish pitches:`);
  for (const r of pitches.rows) {
    const p = r.pitch;
    console.log(
      `  ${r.added_on}  ${(p.ticker_symbol ?? "(locked)").padEnd(8)} ${p.pitch_title ?? ""}`,
    );
  }
  console.log("\nLatest CEO purchases:");
  for (const t of buys.rows) {
    const value = Math.round(t.transactionValue ?? 0).toLocaleString("en-US");
    console.log(
      `  ${t.filedAt?.slice(0, 10)}  ${(t.tickerSymbol ?? "").padEnd(8)} ${
        (t.reportingOwnerName ?? "").padEnd(24)
      } $${value}`,
    );
  }
}
