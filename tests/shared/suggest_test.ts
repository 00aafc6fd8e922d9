/** "Did you mean …" in every error that names a closed vocabulary. */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import {
  connect,
  eventStudy,
  feedComparison,
  RequestValidationError,
  transactionsFrame,
} from "../../mod.ts";
import { closeMatches, didYouMean } from "../../lib/shared/suggest.ts";
import { createStub } from "../../lib/stub/mod.ts";

const stub = createStub({ seed: 1, scale: 0.1 });
const trades = transactionsFrame(stub.insider.trades.slice(0, 400).map((t) => t.row));

Deno.test("closeMatches: typos, case, reordered words, at most 8, nothing when far", () => {
  assert.deepEqual(closeMatches("rol", ["role", "size", "feed"]), ["role"]);
  assert.deepEqual(closeMatches("ROLE", ["role", "size"]), ["role"]);
  assert.equal(closeMatches("returns_3m_excess", trades.columns)[0], "excess_returns_3m");
  assert.ok(closeMatches("transaction", trades.columns).length <= 8);
  assert.deepEqual(closeMatches("zzzz", ["role", "size"]), []);
  assert.equal(didYouMean("zzzz", ["role"]), "");
});

Deno.test("feed topic typo: one message naming the value and close topics, no feed_id line", async () => {
  const { insider } = await connect({ quiet: true });
  let err: unknown;
  try {
    insider.feed("ceo-trade" as never, "buy");
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof RequestValidationError);
  assert.match(err.message, /"ceo-trade"/);
  assert.match(err.message, /did you mean "ceo-trades"/);
  assert.doesNotMatch(err.message, /feed_id/);
  assert.equal(err.issues.length, 1);
});

Deno.test("eventStudy groupBy typo lists the groupings and suggests one", () => {
  assert.throws(
    () => eventStudy(trades, { groupBy: "rol" as never, cluster: "none" }),
    (e: Error) =>
      /groupBy "rol"/.test(e.message) && /role, size, winRate/.test(e.message) &&
      /did you mean "role"/.test(e.message),
  );
});

Deno.test("eventStudy horizon typo names it and suggests the horizon", () => {
  assert.throws(
    () => eventStudy(trades, { horizons: ["1yr" as never], cluster: "none" }),
    (e: Error) => /horizon "1yr"/.test(e.message) && /did you mean "1y"/.test(e.message),
  );
});

Deno.test("chart given the wrong frame names the missing columns and close matches, not 100+ names", () => {
  const wrong = trades.select("accession_number", "transaction_date", "excess_returns_3m");
  assert.throws(
    () => feedComparison(wrong as never),
    (e: Error) => /lacks column/.test(e.message) && e.message.length < 1000,
  );
  const renamed = trades.rename({ transaction_date: "transaction_dt" });
  assert.throws(
    () => eventStudy(renamed, { cluster: "month" }),
    (e: Error) => /transaction_date/.test(e.message),
  );
});

Deno.test("enum typo in client params: value named with a close match", async () => {
  const { insider } = await connect({ quiet: true });
  assert.throws(
    () => insider.search({ tradeType: "purchse" as never }),
    (e: Error) => /"purchse"/.test(e.message) && /did you mean "purchase"/.test(e.message),
  );
  void pl;
});

Deno.test("groupBy typos suggest groupings only; a column typo gets at most 3 columns", () => {
  const msg = (g: string) => {
    try {
      eventStudy(trades, { groupBy: g as never, cluster: "none" });
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error("no error");
  };
  assert.match(msg("roles"), /\(did you mean "role"\?\)$/);
  assert.doesNotMatch(msg("roles"), /has_200d|crossover/);
  assert.match(msg("win_rate"), /\(did you mean "winRate"\?\)$/);
  const column = /did you mean (.*)\?\)$/.exec(msg("issuer_nme"))![1].split(", ");
  assert.ok(column.length <= 3 && column[0] === '"issuer_name"', column.join());
});

Deno.test("closeMatches: swapped, dropped or added letters on short names", () => {
  assert.deepEqual(closeMatches("prot", ["port", "seed", "scale"]), ["port"]);
  assert.deepEqual(closeMatches("sel", ["buy", "sell"]), ["sell"]);
  assert.equal(closeMatches("ouut", ["out", "debug", "help"])[0], "out");
});

Deno.test("closeMatches: fuzzy matches only when no closer one exists (--feeed: feed, not risk-free)", () => {
  const flags = ["feed", "risk-free", "max-rows", "group-by", "entry", "from", "to"];
  assert.deepEqual(closeMatches("feeed", flags), ["feed"]);
  assert.equal(didYouMean("feeed", flags), ' (did you mean "feed"?)');
  // nothing within a typo's distance and no completion: the fuzzy matches are the suggestion
  assert.equal(
    closeMatches("trnsction_vlue", ["transaction_value", "transaction_date", "ticker"])[0],
    "transaction_value",
  );
});

Deno.test("closeMatches: a name cut short is completed first, beside a shorter near name", () => {
  const filters = ["filingDateFrom", "filingDateTo", "filingDatePreset", "sortBy", "sortDirection"];
  assert.equal(closeMatches("filingDateF", filters)[0], "filingDateFrom");
  assert.equal(closeMatches("sortD", filters)[0], "sortDirection");
  assert.deepEqual(closeMatches("transaction_d", trades.columns).slice(0, 2).sort(), [
    "transaction_date",
    "transaction_id",
  ]);
  // a one-letter typo still comes first, then completions, shortest first
  assert.deepEqual(closeMatches("prot", ["portfolio", "protocol", "port"]), ["port", "protocol"]);
  assert.equal(closeMatches("is_direct_ow", trades.columns)[0], "is_direct_ownership");
});
