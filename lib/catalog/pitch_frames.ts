/**
 * Pitches as a typed DataFrame. List rows are flattened: the nested `pitch`
 * object's fields become the columns, each once (no duplicated `pitch_id`,
 * `pitch_date`, `added_on`). Detail rows add `company_id`, `author_badge`
 * and the archive flags (`archive_available`, `archive_formats`,
 * `archive_has_attachment`). Dates are `Date`, `slugs` is `List(Utf8)`.
 * A row that cannot be read (not an object, or a list row without its
 * `pitch` object) is an `InvalidResponseError` naming the row's number and
 * `pitch_id`, never a `TypeError` from deep inside the builder.
 *
 * @module
 */
import { type FrameReport, type RowSink, rowSink } from "../frames/build.ts";
import type { ColumnSpec } from "../frames/dtypes.ts";
import { type Frame, sinkFrame } from "../frames/list.ts";
import { type RowTyping, rowTyping } from "../frames/typed_rows.ts";
import type { PitchDetail, PitchListRow } from "./types.ts";
import { InvalidResponseError } from "../http/errors.ts";
import { redactKnownKeys } from "../http/_redact.ts";
import { isObject } from "../http/_envelope.ts";

/** Columns of a pitch frame, in order. */
export const PITCH_COLUMNS: readonly ColumnSpec[] = [
  { name: "pitch_id", type: "code" },
  { name: "pitch_date", type: "date" },
  { name: "added_on", type: "date" },
  { name: "pitch_title", type: "code" },
  { name: "pitch_summary", type: "code" },
  { name: "author_user_id", type: "code" },
  { name: "author_username", type: "code" },
  { name: "author_display_name", type: "code" },
  { name: "author_tier", type: "code" },
  { name: "ticker_symbol", type: "code" },
  { name: "company_name", type: "code" },
  { name: "is_premium_pitch", type: "boolean" },
  { name: "is_locked", type: "boolean" },
  { name: "sentiment", type: "code" },
  { name: "position_decision_type", type: "code" },
  { name: "slugs", type: "text_list" },
];

/** How pitch list rows are typed: the row's dates and its `pitch` object's fields. */
export const PITCH_ROW_TYPING: RowTyping = rowTyping(
  "GET /pitches",
  [["pitch_id", "code"], ["pitch_date", "date"], ["added_on", "date"]],
  { key: "pitch", fields: PITCH_COLUMNS.map((c) => [c.name, c.type]) },
);

/** Extra columns of a pitch-detail frame. */
export const PITCH_DETAIL_COLUMNS: readonly ColumnSpec[] = [
  ...PITCH_COLUMNS,
  { name: "company_id", type: "integer" },
  { name: "author_badge", type: "code" },
  { name: "archive_available", type: "boolean" },
  { name: "archive_formats", type: "text_list" },
  { name: "archive_has_attachment", type: "boolean" },
];

/** How a pitch detail is typed (its archive is read by structure, `_nested.ts`). */
export const PITCH_DETAIL_TYPING: RowTyping = rowTyping(
  "GET /pitches/{id}",
  PITCH_DETAIL_COLUMNS.filter((c) => !c.name.startsWith("archive_")).map((c) => [c.name, c.type]),
);

/** Options of {@link pitchesFrame} and {@link pitchesSink}. */
export interface PitchesFrameOptions {
  /** Take the pull's report (missing fields, coercions, extras) instead of printing it. */
  onReport?: (report: FrameReport) => void;
}

function isDetail(r: PitchListRow | PitchDetail): r is PitchDetail {
  return isObject(r) && !("pitch" in r) && "archive" in r;
}

/** A value as shown in an error: JSON, cut to 60 characters. */
function shown(v: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  s = redactKnownKeys(s); // before cutting: no part of a key slips through
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/**
 * Throws an {@link InvalidResponseError} naming the row (`where`, e.g.
 * `pitch list row 27`, and its `pitch_id`) when a row cannot be read: not a
 * JSON object, or (for list rows) without a `pitch` object. Values of the
 * wrong type inside a readable row are the frame builder's to handle.
 */
export function checkRow(r: unknown, where: string, detail: boolean): void {
  const id = isObject(r) && typeof r.pitch_id === "string"
    ? ` (pitch_id ${shown(r.pitch_id)})`
    : "";
  if (!isObject(r)) {
    throw new InvalidResponseError(
      `${where} is not a JSON object but ${shown(r)}; the service sent a malformed row`,
    );
  }
  if (!detail && !isObject(r.pitch)) {
    throw new InvalidResponseError(
      `${where}${id} has no "pitch" object (${
        "pitch" in r
          ? `"pitch" is ${shown(r.pitch)}`
          : `its keys: ${Object.keys(r).slice(0, 8).join(", ") || "none"}`
      }); the service sent a malformed row`,
    );
  }
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
  return sinkFrame(pitchesSink(opts), rows);
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
  // every row of an append is checked (by `map`) before any is copied: a malformed one names itself
  return rowSink<PitchListRow | PitchDetail>((first) =>
    first !== undefined && isDetail(first)
      ? {
        specs: PITCH_DETAIL_COLUMNS,
        // the spec does not show the detail's fields: absent ones are not drift
        opts: { reportMissing: false, onReport: opts.onReport },
        map: (r, i) => {
          checkRow(r, `pitch detail ${i + 1}`, true);
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
        map: (r, i) => {
          checkRow(r, `pitch list row ${i + 1}`, false);
          return (r as PitchListRow).pitch as unknown as Record<string, unknown>;
        },
      }
  );
}
