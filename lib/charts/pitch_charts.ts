/**
 * Pitch charts: `pitchesOverTime` (monthly count by sentiment) and
 * `bucketChart` (pitches per return or win-rate bucket).
 *
 * @module
 */
import defer * as Plot from "npm:@observablehq/plot@0.6.17";
import type pl from "npm:nodejs-polars@0.25.2";
import { type Chart, type ChartOptions, render } from "./chart.ts";
import { inOrder, rowsOf } from "./_chart_data.ts";
import { expectFrame, wrongInput } from "../shared/wrong_input.ts";

/** Sentiment colours (Okabe–Ito). */
export const SENTIMENT_COLORS = {
  domain: ["bullish", "bearish", "neutral"],
  range: ["#009E73", "#D55E00", "#999999"],
};

/** Options of {@link pitchesOverTime}; any other Plot option passes through. */
export type PitchesOverTimeOptions = ChartOptions;

/**
 * Stacked monthly bars of pitches by sentiment (by `added_on`). Needs
 * `sentiment` and `added_on`.
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
  const rows = rowsOf("pitchesOverTime", pitches, {
    pass: "a pitches frame (catalog.pitches(...).frame())",
    columns: ["added_on", "sentiment"],
    field: "frame",
  }).filter((r) => r.added_on instanceof Date);
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
            { x: "added_on", fill: "sentiment", interval: "month", tip: true } as Parameters<
              typeof Plot.binX
            >[1],
          ),
        ),
        Plot.ruleY([0]),
      ],
    },
    { title: "Pitches per month by sentiment", subtitle: "Count of write-ups added" },
    options,
  );
}

/** Options of {@link bucketChart}; any other Plot option passes through. */
export type BucketChartOptions = ChartOptions;

/**
 * Bars of pitches per bucket (the frame's `*_bucket` column), buckets in
 * floor order (`below 0` or `below 50` first), split by sentiment when the
 * frame has it, from the frame of `pitchReturnBuckets`,
 * `authorReturnBuckets` or `winRateBuckets`.
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
  const bucket = buckets.columns.find((c) => c.endsWith("_bucket"));
  if (!bucket) throw wrongInput("bucketChart", wanted, buckets, ["*_bucket"]);
  const fill = buckets.columns.includes("sentiment") ? "sentiment" : null;
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
      color: fill ? { ...SENTIMENT_COLORS, label: "Sentiment", legend: true } : undefined,
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
    options,
  );
}
