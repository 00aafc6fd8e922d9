/**
 * `deno task demo`: with no keys set, pulls a page from each service of the
 * in-process emulator and prints a short summary.
 *
 * @module
 */
import { createStub, DEMO_KEYS } from "../stub/mod.ts";

if (import.meta.main) {
  const stub = createStub();
  const h = (key: string) => ({ authorization: `Bearer ${key}` });
  const pitches =
    await (await stub.fetch("http://stub/catalog/api/v1/pitches?limit=5&sentiment=bullish", {
      headers: h(DEMO_KEYS.catalog),
    })).json();
  const trades = await (await stub.fetch("http://stub/insider/api/v1/search", {
    method: "POST",
    headers: h(DEMO_KEYS.insider),
    body: JSON.stringify({
      filter: { tradeType: "purchase", position: { ceo: true } },
      pagination: { pageSize: 5 },
    }),
  })).json();
  console.log("signalbook demo (offline emulator)\n\nLatest bullish pitches:");
  for (const r of pitches.data) {
    console.log(
      `  ${r.added_on}  ${(r.pitch.ticker_symbol ?? "(locked)").padEnd(6)} ${
        r.pitch.pitch_title ?? ""
      }`,
    );
  }
  console.log("\nLatest CEO purchases:");
  for (const t of trades.data) {
    console.log(
      `  ${t.filedAt.slice(0, 10)}  ${t.tickerSymbol.padEnd(6)} ${
        t.reportingOwnerName.padEnd(24)
      } $${Math.round(t.transactionValue).toLocaleString("en-US")}`,
    );
  }
}
