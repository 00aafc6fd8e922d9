/**
 * The backtest area: event studies over transactions frames.
 *
 * @module
 */
export {
  eventStudy,
  type EventStudyOptions,
  type GroupBy,
  GROUPINGS,
  STUDY_HORIZONS,
  type StudyHorizon,
} from "./event_study.ts";
