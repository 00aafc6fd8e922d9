/**
 * The backtest area: event studies over transactions frames.
 *
 * @module
 */
export {
  eventStudy,
  type EventStudyOptions,
  type GroupBy,
  groupColumns,
  GROUPINGS,
  groupKey,
  STUDY_HORIZONS,
  type StudyHorizon,
} from "./event_study.ts";
export { headlineStudy } from "./headline.ts";
export { type ReportFiles, statsTable, writeReport } from "./report.ts";
