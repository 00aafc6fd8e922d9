/**
 * `authorWinRateChart`: authors ranked by their shrunk win rate (the
 * empirical-Bayes estimate of `authorWinRates`), each with its raw rate and
 * the raw rate's Wilson 95 % interval.
 *
 * @module
 */
import defer * as Plot from "npm:@observablehq/plot@0.6.17";
import { type Chart, type ChartOptions, PALETTE, render } from "./chart.ts";
import { rowsOf } from "./_chart_data.ts";
import { choice, wholeNumber } from "../shared/options.ts";
import { isFrame, wrongInput } from "../shared/wrong_input.ts";
import { AUTHOR_WIN_RATE_COLUMNS, type AuthorWinRates } from "../families/author_win_rates.ts";

/** Options of {@link authorWinRateChart}; any other Plot option passes through. */
export interface AuthorWinRateChartOptions extends ChartOptions {
  /** Authors drawn, best first (default 20). */
  top?: number;
  /**
   * What ranks the authors: `"shrunk"` (default: `win_rate_shrunk`, the
   * frame's order) or `"raw"` (`win_rate`, which favours the luckiest of
   * the authors with few pitches: the winner's curse).
   */
  rankBy?: "shrunk" | "raw";
}

const PERIOD_WORDS = { "6m": "6-month", "1y": "1-year", "2y": "2-year" } as const;

/**
 * Takes the result of `authorWinRates` (or its frame). One row per author,
 * ranked by the shrunk win rate (the frame's order; `rankBy: "raw"` ranks
 * by the raw rate instead), the `top` first: the shrunk rate (percent) as a
 * orange dot, the raw rate as a hollow blue dot with its Wilson 95 % interval as
 * a bar, and `wins/pitches` beside it. The gap between the two dots is how
 * far the author's record is pulled toward the crowd for having few
 * pitches. A dashed line marks the pooled rate of every author in the
 * frame (their wins over their pitches), so an author is read against the
 * crowd, and an interval that crosses it says the author's lead may be
 * luck.
 *
 * @example
 * ```ts
 * import { authorWinRateChart, authorWinRates, connect } from "../../mod.ts";
 * const { catalog } = await connect();
 * const result = await authorWinRates(catalog, {}, { period: "1y", kind: "abs", minPitches: 5 });
 * authorWinRateChart(result, { top: 10 });
 * ```
 */
export function authorWinRateChart(
  result: AuthorWinRates | AuthorWinRates["frame"],
  options: AuthorWinRateChartOptions = {},
): Chart {
  const { top: given, rankBy = "shrunk", ...plot } = options;
  const top = wholeNumber("authorWinRateChart", "top", given, 1, 20);
  choice("authorWinRateChart", "rankBy", rankBy, ["shrunk", "raw"], "shrunk");
  const wanted = {
    pass: "the result of authorWinRates(...)",
    columns: AUTHOR_WIN_RATE_COLUMNS,
  };
  // the result, or its frame
  const frame = isFrame(result) ? result : (result as { frame?: unknown } | null)?.frame;
  if (!isFrame(frame)) throw wrongInput("authorWinRateChart", wanted, result);
  if (frame.height === 0 && !isFrame(result)) {
    throw new Error(
      `authorWinRateChart: no author has ${result.minPitches} counted pitches (${result.fewPitches} ${
        result.fewPitches === 1 ? "has" : "have"
      } fewer, ${result.tooRecent} pitches too recent); lower minPitches or widen the params`,
    );
  }
  const all = rowsOf("authorWinRateChart", frame, wanted);
  const raw = (r: Record<string, unknown>) => [r.win_rate, r.pitches] as number[];
  if (rankBy === "raw") all.sort((a, b) => raw(b)[0] - raw(a)[0] || raw(b)[1] - raw(a)[1]);
  const rows = all.slice(0, top).map((r) => ({
    author: String(r.author_username),
    pitches: r.pitches as number,
    wins: r.wins as number,
    rate: 100 * (r.win_rate as number),
    low: 100 * (r.win_rate_low as number),
    high: 100 * (r.win_rate_high as number),
    shrunk: 100 * (r.win_rate_shrunk as number),
  }));
  const wins = all.reduce((s, r) => s + (r.wins as number), 0);
  const pitches = all.reduce((s, r) => s + (r.pitches as number), 0);
  const pooled = (100 * wins) / pitches;
  const { period, kind, minPitches }: Partial<AuthorWinRates> = isFrame(result) ? {} : result;
  const floor = period && kind
    ? `a ${PERIOD_WORDS[period]} ${kind === "abs" ? "absolute" : "excess"} return ≥ 0 %`
    : "a return ≥ 0 %";
  const sub = [
    `Share of each author's pitches with ${floor} (the catalog's 0 % floor). Orange dot: shrunk toward the pooled rate by the author's evidence (empirical Bayes); hollow blue dot: raw rate, bar: its Wilson 95% interval.`,
    `${rows.length < all.length ? `Top ${rows.length}` : `All ${rows.length}`} of ${all.length} ${
      all.length === 1 ? "author" : "authors"
    }${minPitches ? ` with ≥ ${minPitches} pitches` : ""}, ranked by the ${
      rankBy === "raw" ? "raw rate (favours lucky authors with few pitches)" : "shrunk rate"
    }; dashed line: all their pitches, ${pooled.toFixed(1)}%`,
  ].join("\n");
  const longest = Math.max(...rows.map((r) => r.author.length));
  return render(
    {
      width: 720,
      height: Math.max(160, 60 + 24 * rows.length),
      marginLeft: Math.min(220, Math.max(80, 12 + longest * 7)),
      marginRight: 60,
      y: { domain: rows.map((r) => r.author), label: null },
      x: { domain: [0, 100], label: "Win rate (%)", grid: true },
      marks: [
        Plot.ruleX([pooled], {
          stroke: "currentColor",
          strokeDasharray: "4,3",
          strokeOpacity: 0.6,
        }),
        Plot.ruleY(rows, {
          y: "author",
          x1: "low",
          x2: "high",
          stroke: PALETTE[0],
          strokeWidth: 2.5,
          className: "interval",
        }),
        Plot.dot(rows, { y: "author", x: "rate", stroke: PALETTE[0], fill: "white", r: 3.5 }),
        Plot.dot(rows, {
          y: "author",
          x: "shrunk",
          fill: PALETTE[1],
          r: 4,
          tip: true,
          channels: { raw: "rate", wins: "wins", pitches: "pitches" },
        }),
        Plot.text(rows, {
          y: "author",
          x: 100,
          text: (d: { wins: number; pitches: number }) => `${d.wins}/${d.pitches}`,
          dx: 8,
          textAnchor: "start",
          fill: "currentColor",
          fontSize: 10,
        }),
      ],
    },
    {
      title: `Authors ranked by ${rankBy === "raw" ? "raw" : "shrunk"} win rate`,
      subtitle: sub,
    },
    plot,
  );
}
