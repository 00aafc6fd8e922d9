/**
 * Pitches as a typed DataFrame. List rows are flattened: the nested `pitch`
 * object's fields become the columns, each once (no duplicated `pitch_id`,
 * `pitch_date`, `added_on`). Detail rows add `company_id`, `author_badge`
 * and the archive flags (`archive_available`, `archive_formats`,
 * `archive_has_attachment`). Dates are `Date`, `slugs` is `List(Utf8)`.
 *
 * @module
 */
import { type FrameReport, type RowSink, rowSink } from "../frames/build.ts";
import type { ColumnSpec } from "../frames/dtypes.ts";
import { asFrame, type Frame } from "../frames/list.ts";
import type { PitchDetail, PitchListRow } from "./types.ts";

/** Columns of a pitch frame, in order. */
export const PITCH_COLUMNS: readonly ColumnSpec[] = [
  { name: "pitch_id", dtype: "utf8" },
  { name: "pitch_date", dtype: "date" },
  { name: "added_on", dtype: "date" },
  { name: "pitch_title", dtype: "utf8" },
  { name: "pitch_summary", dtype: "utf8" },
  { name: "author_user_id", dtype: "utf8" },
  { name: "author_username", dtype: "utf8" },
  { name: "author_display_name", dtype: "utf8" },
  { name: "author_tier", dtype: "utf8" },
  { name: "ticker_symbol", dtype: "utf8" },
  { name: "company_name", dtype: "utf8" },
  { name: "is_premium_pitch", dtype: "bool" },
  { name: "is_locked", dtype: "bool" },
  { name: "sentiment", dtype: "utf8" },
  { name: "position_decision_type", dtype: "utf8" },
  { name: "slugs", dtype: "list_utf8" },
];

/** Extra columns of a pitch-detail frame. */
export const PITCH_DETAIL_COLUMNS: readonly ColumnSpec[] = [
  ...PITCH_COLUMNS,
  { name: "company_id", dtype: "i64" },
  { name: "author_badge", dtype: "utf8" },
  { name: "archive_available", dtype: "bool" },
  { name: "archive_formats", dtype: "list_utf8" },
  { name: "archive_has_attachment", dtype: "bool" },
];

/** Options of {@link pitchesFrame} and {@link pitchesSink}. */
export interface PitchesFrameOptions {
  /** Take the pull's report (missing fields, coercions, extras) instead of printing it. */
  onReport?: (report: FrameReport) => void;
}

function isDetail(r: PitchListRow | PitchDetail): r is PitchDetail {
  return !("pitch" in r) && "archive" in r;
}

/**
 * A typed frame of pitch list rows (or pitch details). Empty input gives an
 * empty frame with the full schema.
 *
 * @example
 * ```ts
 * import { connect, pitchesFrame } from "../../mod.ts";
 * const { catalog } = await connect();
 * const page = await catalog.pitches({ limit: 20 }).firstPage();
 * const df = pitchesFrame(page.rows);
 * console.log(df.columns.includes("slugs")); // true
 * ```
 */
export function pitchesFrame(
  rows: readonly (PitchListRow | PitchDetail)[],
  opts: PitchesFrameOptions = {},
): Frame {
  const sink = pitchesSink(opts);
  sink.append(rows);
  return asFrame(sink.finish(), false);
}

/**
 * The page-by-page form of {@link pitchesFrame} (what `.frame()` on
 * `pitches()` uses): list rows or details, decided by the first row.
 *
 * @example
 * ```ts
 * import { connect, pitchesSink } from "../../mod.ts";
 * const { catalog } = await connect();
 * const sink = pitchesSink();
 * for await (const page of catalog.pitches({ limit: 10 }).pages()) sink.append(page.rows);
 * console.log(sink.finish().height > 0); // true
 * ```
 */
export function pitchesSink(opts: PitchesFrameOptions = {}): RowSink<PitchListRow | PitchDetail> {
  return rowSink<PitchListRow | PitchDetail>((first) =>
    first !== undefined && isDetail(first)
      ? {
        specs: PITCH_DETAIL_COLUMNS,
        // the spec does not show the detail's fields: absent ones are not drift
        opts: { reportMissing: false, onReport: opts.onReport },
        map: (r) => {
          const { archive, ...rest } = r as PitchDetail;
          return {
            ...rest,
            archive_available: archive?.available ?? null,
            archive_formats: archive?.formats ?? null,
            archive_has_attachment: archive?.has_attachment ?? null,
          };
        },
      }
      : {
        specs: PITCH_COLUMNS,
        opts: { onReport: opts.onReport },
        map: (r) => (r as PitchListRow).pitch as unknown as Record<string, unknown>,
      }
  );
}
