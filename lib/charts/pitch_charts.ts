/**
 * Pitch charts: `pitchesOverTime` (monthly count by sentiment) and
 * `bucketChart` (pitches per return or win-rate bucket).
 *
 * @module
 */
import defer * as Plot from "npm:@observablehq/plot@0.6.17";
import type pl from "npm:nodejs-polars@0.25.2";
import { type Chart, type ChartText, render } from "./chart.ts";
import { inOrder, rowsOf } from "./_chart_data.ts";
import { expectFrame, wrongInput } from "../shared/wrong_input.ts";

/** Sentiment colours (Okabe–Ito). */
export const SENTIMENT_COLORS = {
  domain: ["bullish", "bearish", "neutral"],
  range: ["#009E73", "#D55E00", "#999999"],
};

/** Options of {@link pitchesOverTime}; any other Plot option passes through. */
export interface PitchesOverTimeOptions extends ChartText {
  /** Date column (default `added_on`). */
  date?: string;
  /** Extra Plot options. */
  [plotOption: string]: unknown;
}

/**
 * Stacked monthly bars of pitches by sentiment. Needs `sentiment` and the
 * date column.
 *
 * @example
 * ```ts
 * import { connect, pitchesOverTime } from "../../mod.ts";
 * const { catalog } = await connect();
 * pitchesOverTime(await catalog.pitches().frame());
 * ```
 */
export function pitchesOverTime(
  pitches: pl.DataFrame,
  options: PitchesOverTimeOptions = {},
): Chart {
  const { date = "added_on", ...plot } = options;
  const rows = rowsOf("pitchesOverTime", pitches, {
    pass: "a pitches frame (catalog.pitches(...).frame())",
    columns: [date, "sentiment"],
    field: "frame",
  }).filter((r) => r[date] instanceof Date);
  return render(
    {
      width: 720,
      height: 320,
      marginLeft: 45,
      x: { type: "utc", label: null },
      y: { label: "Pitches", grid: true },
      color: { ...SENTIMENT_COLORS, label: "Sentiment", legend: true },
      marks: [
        Plot.rectY(
          rows,
          Plot.binX(
            { y: "count" },
            { x: date, fill: "sentiment", interval: "month", tip: true } as Parameters<
              typeof Plot.binX
            >[1],
          ),
        ),
        Plot.ruleY([0]),
      ],
    },
    { title: "Pitches per month by sentiment", subtitle: "Count of write-ups added" },
    plot,
  );
}

/** Options of {@link bucketChart}; any other Plot option passes through. */
export interface BucketChartOptions extends ChartText {
  /** Bucket column (default: the frame's one `*_bucket` column). */
  bucket?: string;
  /** Split the bars by this column (default `sentiment` when present). */
  fill?: string | null;
  /** Extra Plot options. */
  [plotOption: string]: unknown;
}

/**
 * Bars of pitches per bucket, buckets in floor order (`below 0` or `below 50`
 * first), from
 * the frame of `pitchReturnBuckets`, `authorReturnBuckets` or
 * `winRateBuckets`.
 *
 * @example
 * ```ts
 * import { bucketChart, connect, pitchReturnBuckets } from "../../mod.ts";
 * const { catalog } = await connect();
 * const { frame } = await pitchReturnBuckets(catalog, {}, { period: "1y", kind: "abs" });
 * bucketChart(frame);
 * ```
 */
export function bucketChart(buckets: pl.DataFrame, options: BucketChartOptions = {}): Chart {
  const wanted = {
    pass: "the frame of pitchReturnBuckets(...), authorReturnBuckets(...) or winRateBuckets(...)",
    field: "frame",
  };
  expectFrame("bucketChart", buckets, wanted);
  const bucket = options.bucket ?? buckets.columns.find((c) => c.endsWith("_bucket"));
  if (!bucket) throw wrongInput("bucketChart", wanted, buckets, ["*_bucket"]);
  const fill = options.fill === undefined
    ? (buckets.columns.includes("sentiment") ? "sentiment" : null)
    : options.fill;
  const { bucket: _b, fill: _f, ...plot } = options;
  const rows = rowsOf("bucketChart", buckets, {
    ...wanted,
    columns: [bucket, `${bucket}_order`, ...(fill ? [fill] : [])],
  });
  const order = inOrder(rows.map((r) => [r[`${bucket}_order`] as number, r[bucket] as string]));
  const none = rows.find((r) => (r[`${bucket}_order`] as number) < 0)?.[bucket] as
    | string
    | undefined;
  return render(
    {
      width: 640,
      height: 320,
      marginLeft: 50,
      x: { domain: order, label: "Bucket" },
      y: { label: "Pitches", grid: true },
      color: fill === "sentiment"
        ? { ...SENTIMENT_COLORS, label: "Sentiment", legend: true }
        : fill
        ? { legend: true, label: fill, scheme: "observable10" }
        : undefined,
      marks: [
        Plot.barY(
          rows,
          Plot.groupX({ y: "count" }, { x: bucket, fill: fill ?? "#0072B2", tip: true }),
        ),
        Plot.ruleY([0]),
      ],
    },
    {
      title: `Pitches by ${bucket.replace(/_bucket$/, "").replaceAll("_", " ")} bucket`,
      subtitle: `Highest floor met; '${none ?? "below 0"}': no floor met`,
    },
    plot,
  );
}
