/**
 * Every chart, family and result helper given the wrong object: at most two
 * lines, the first opening with the helper's name and saying what to pass
 * (and what it got), the second naming the columns the frame lacks; a
 * result object holding the right frame gets "pass its <field>".
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import {
  authorWinRateChart,
  authorWinRates,
  bucketChart,
  clusterChart,
  conclusion,
  connect,
  drawdownChart,
  entryComparison,
  equityCurveChart,
  eventStudy,
  eventStudyChart,
  feedComparison,
  forwardReturns,
  forwardReturnsChart,
  headlinePortfolios,
  headlineStudy,
  insiderReturns,
  pitchesOverTime,
  pitchReturnBuckets,
  portfolioBacktest,
  portfolioConclusion,
  portfolioTable,
  priorReturns,
  statsTable,
  tradeClass,
  tradeTimeline,
  truthSection,
  winRateHeatmap,
  winRates,
} from "../../mod.ts";
import { describeInput } from "../../lib/shared/wrong_input.ts";

const { insider, catalog } = await connect({ quiet: true });
const trades = await insider.search({}).frame({ maxRows: 800, progress: false });
const result = portfolioBacktest(trades, { horizon: "1m" });
const study = eventStudy(trades, { groupBy: "role" });
const buckets = await pitchReturnBuckets(catalog, {}, { period: "1y", kind: "abs" });
const wins = await authorWinRates(catalog, {}, { period: "1y", kind: "abs" });

const TRADES = "a trades frame (insider.search(...).frame())";
const STUDY = "the result of eventStudy(...)";
const MONTHLY = "the monthly frame of portfolioBacktest(...), or several by name";
const PORTFOLIOS = (fn: string) =>
  `portfolioBacktest(...) results by name: ${fn}({ "CEO buys": result })`;

/** Helper name, the call, what its error says to pass, and the object it takes. */
const HELPERS: [string, (x: never) => unknown, string, unknown][] = [
  ["tradeTimeline", tradeTimeline, TRADES, trades],
  ["clusterChart", clusterChart, TRADES, trades],
  ["winRateHeatmap", winRateHeatmap, "a trades frame or winRates(trades)", trades],
  ["forwardReturnsChart", forwardReturnsChart, "a trades frame or forwardReturns(trades)", trades],
  ["feedComparison", feedComparison, 'a trades frame with a "feed" column', null],
  ["eventStudyChart", eventStudyChart, STUDY, study],
  [
    "pitchesOverTime",
    pitchesOverTime,
    "a pitches frame (catalog.pitches(...).frame())",
    buckets.frame,
  ],
  [
    "bucketChart",
    bucketChart,
    "the frame of pitchReturnBuckets(...), authorReturnBuckets(...) or winRateBuckets(...)",
    buckets.frame,
  ],
  ["equityCurveChart", equityCurveChart, MONTHLY, result.monthly],
  ["drawdownChart", drawdownChart, MONTHLY, result.monthly],
  ["authorWinRateChart", authorWinRateChart, "the result of authorWinRates(...)", wins],
  ["winRates", winRates, TRADES, trades],
  ["forwardReturns", forwardReturns, TRADES, trades],
  ["insiderReturns", insiderReturns, TRADES, trades],
  ["priorReturns", priorReturns, TRADES, trades],
  ["tradeClass", tradeClass, TRADES, trades],
  ["eventStudy", (x) => eventStudy(x, { groupBy: "role" }), TRADES, trades],
  ["portfolioBacktest", (x) => portfolioBacktest(x, { horizon: "1m" }), TRADES, trades],
  ["headlineStudy", (x) => headlineStudy(x), TRADES, trades],
  ["headlinePortfolios", (x) => headlinePortfolios(x, { horizon: "1m" }), TRADES, null],
  ["statsTable", statsTable, STUDY, study],
  ["conclusion", conclusion, STUDY, study],
  ["truthSection", (x) => truthSection(x, { source: "t", rows: [] }), STUDY, study],
  ["entryComparison", (x) => entryComparison(x), STUDY, study],
  ["portfolioTable", portfolioTable, PORTFOLIOS("portfolioTable"), { a: result }],
  ["portfolioConclusion", portfolioConclusion, PORTFOLIOS("portfolioConclusion"), { a: result }],
];

const WRONG: [string, unknown][] = [
  ["a trades frame", trades],
  ["a portfolioBacktest result", result],
  ["its monthly frame", result.monthly],
  ["an eventStudy result", study],
  ["a buckets result", buckets],
  ["a buckets frame", buckets.frame],
  ["an authorWinRates result", wins],
  ["undefined", undefined],
  ["an array", []],
  ["a number", 3],
];

function errorOf(call: () => unknown): Error | undefined {
  try {
    call();
  } catch (e) {
    return e as Error;
  }
  return undefined;
}

for (const [name, fn, pass, right] of HELPERS) {
  Deno.test(`wrong input: ${name} says what to pass, in at most two lines`, () => {
    let wrongs = 0;
    for (const [what, value] of WRONG) {
      if (value === right) continue;
      const e = errorOf(() => fn(value as never));
      if (!e) continue; // this object is a right one for the helper (e.g. a trades frame with the columns)
      wrongs++;
      const lines = e.message.split("\n");
      assert.ok(lines.length <= 2, `${name}(${what}): ${lines.length} lines`);
      assert.ok(
        lines[0].startsWith(`${name}: pass ${pass}; got `) ||
          lines[0].startsWith(`${name}: the frame lacks column`),
        `${name}(${what}): ${lines[0]}`,
      );
      if (lines[1]) assert.match(lines[1], /^the frame lacks columns? "/, `${name}(${what})`);
      assert.ok(e.message.length < 400, `${name}(${what}): ${e.message.length} characters`);
    }
    assert.ok(wrongs >= 7, `${name}: ${wrongs} wrong objects refused`);
  });
}

Deno.test("wrong input: the two cases of the issue, word for word", () => {
  assert.equal(
    errorOf(() => eventStudyChart(trades as never))?.message,
    'eventStudyChart: pass the result of eventStudy(...); got a trades frame (800 rows × 174 columns)\nthe frame lacks columns "group", "horizon", "horizon_days", "mean_excess", "ci_low", "ci_high"',
  );
  const heat = errorOf(() => winRateHeatmap(result.monthly as never))!.message;
  assert.match(
    heat,
    /^winRateHeatmap: pass a trades frame or winRates\(trades\); got the monthly frame of a portfolioBacktest result \(\d+ rows? × \d+ columns\)\nthe frame lacks columns "win_rate_1w_pct", .* and 46 more$/,
  );
});

Deno.test("wrong input: a result object holding the right frame says which field to pass", () => {
  for (
    const [name, fn] of [["equityCurveChart", equityCurveChart], [
      "drawdownChart",
      drawdownChart,
    ]] as const
  ) {
    assert.match(
      errorOf(() => fn(result as never))!.message,
      new RegExp(`; pass its monthly: ${name}\\(result\\.monthly\\)$`),
    );
    assert.match(
      errorOf(() => fn({ "CEO buys": result } as never))!.message,
      new RegExp(
        `^${name}: pass ${
          MONTHLY.replace(/[().]/g, "\\$&")
        }; got a portfolioBacktest result \\(\\{ monthly, stats \\}\\) at "CEO buys"; pass its monthly frame: ${name}\\(\\{ "CEO buys": result\\.monthly, … \\}\\)$`,
      ),
    );
    assert.match(fn({ "CEO buys": result.monthly }).svg, /<svg/);
  }
  assert.match(
    errorOf(() => bucketChart(buckets as never))!.message,
    /; got a result object \{ frame, requests \}; pass its frame: bucketChart\(result\.frame\)$/,
  );
  assert.match(
    errorOf(() => tradeTimeline({ frame: trades, failed: [] } as never))!.message,
    /^tradeTimeline: pass a trades frame .*; pass its frame: tradeTimeline\(result\.frame\)$/,
  );
  assert.match(
    errorOf(() => portfolioTable(result as never))!.message,
    /^portfolioTable: pass portfolioBacktest\(\.\.\.\) results by name: .*; pass it by name$/,
  );
});

Deno.test("wrong input: a frame with one column missing is a slip: one line, close matches", () => {
  const e = errorOf(() => eventStudyChart(study.rename({ ci_low: "ci_lo" }) as never))!;
  assert.equal(
    e.message,
    'eventStudyChart: the frame lacks column "ci_low" (did you mean "ci_lo"?); it has 27 columns',
  );
  assert.match(
    errorOf(() => feedComparison(trades as never))!.message,
    /^feedComparison: the frame lacks column "feed" \(did you mean "feed_ids"\?\)/,
  );
});

Deno.test("describeInput names signalbook's frames and results by their columns and fields", () => {
  assert.equal(describeInput(trades), "a trades frame (800 rows × 174 columns)");
  assert.match(describeInput(study), /^an eventStudy result \(\d+ rows × \d+ columns\)$/);
  assert.equal(describeInput(result), "a portfolioBacktest result ({ monthly, stats })");
  assert.equal(describeInput({ a: result }), "portfolioBacktest results by name { a }");
  assert.equal(describeInput(pl.DataFrame({ x: [1] })), "a frame (1 row × 1 column)");
  assert.equal(describeInput(null), "null");
});
