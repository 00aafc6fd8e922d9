/**
 * The charts area: Observable Plot helpers that take DataFrames, inline
 * notebook display, and SVG/PNG export.
 *
 * @module
 */
export { Chart, type ChartText, PALETTE, SIDE_COLORS, standaloneSvg } from "./chart.ts";
export type { ChartOptions } from "./chart.ts";
export { tradeTimeline, type TradeTimelineOptions } from "./timeline.ts";
export { winRateHeatmap, type WinRateHeatmapOptions } from "./heatmap.ts";
export { forwardReturnsChart, type ForwardReturnsOptions } from "./returns.ts";
export { eventStudyChart, type EventStudyChartOptions } from "./event_study_chart.ts";
export { clusterChart, type ClusterChartOptions } from "./cluster.ts";
export {
  bucketChart,
  type BucketChartOptions,
  pitchesOverTime,
  type PitchesOverTimeOptions,
  SENTIMENT_COLORS,
} from "./pitch_charts.ts";
export { feedComparison, type FeedComparisonOptions } from "./feed_comparison.ts";
export { equityCurveChart, type EquityCurveOptions } from "./equity_curve.ts";
export { drawdownChart, type DrawdownOptions } from "./drawdown.ts";
export { authorWinRateChart, type AuthorWinRateChartOptions } from "./author_win_rate_chart.ts";
export { chartPng, saveChart } from "./save.ts";
export { plot, type PlotSpec } from "./plot.ts";
export {
  chartInlineFormat,
  INLINE_FORMATS,
  type InlineFormat,
  markCount,
  RASTER_ABOVE,
} from "./inline.ts";
