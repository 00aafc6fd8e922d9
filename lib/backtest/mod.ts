/**
 * The backtest area: event studies and calendar-time portfolio backtests over
 * transactions frames.
 *
 * @module
 */
export {
  ADJUSTMENTS,
  type ClusterBy,
  CLUSTERS,
  DEFAULT_CLUSTER,
  DEFAULT_MIN_CLUSTERS,
  eventStudy,
  type EventStudyOptions,
  type GroupBy,
  groupColumns,
  GROUPINGS,
  groupKey,
  groupOrder,
  sideColumn,
  sideOf,
  SIDES,
  type Sides,
  STUDY_HORIZONS,
  type StudyHorizon,
} from "./event_study.ts";
export { type BootResult, clusterBootstrap, type Observation } from "./bootstrap.ts";
export { ENTRIES, type Entry } from "./entry.ts";
export {
  type PortfolioSummary,
  type PortfolioSummaryStats,
  sparkline,
  withPortfolioDisplay,
} from "./result_display.ts";
export { headlinePortfolios, headlineStudy } from "./headline.ts";
export {
  type InsiderProfile,
  insiderProfile,
  type InsiderProfileOptions,
} from "./insider_profile.ts";
export {
  conclusion,
  type EntryComparison,
  entryComparison,
  PORTFOLIO_NOTE,
  portfolioConclusion,
  portfolioTable,
  type ReportFiles,
  type ReportMeta,
  statsTable,
  type TruthRows,
  truthSection,
  writeReport,
} from "./report.ts";
export {
  type Alpha,
  alphaOf,
  type CalendarOptions,
  DIRECTIONS,
  EDGES,
  type FactorAlpha,
  MIN_ANNUAL_MONTHS,
  MIN_INTERVAL_MONTHS,
  type MonthRow,
  PORTFOLIO_HORIZONS,
  portfolioBacktest,
  type PortfolioFigures,
  portfolioFromPositions,
  type PortfolioHorizon,
  type PortfolioOptions,
  type PortfolioPosition,
  type PortfolioResult,
  type PortfolioStats,
  type RiskFree,
  SPREADS,
  WEIGHTINGS,
} from "./portfolio.ts";
