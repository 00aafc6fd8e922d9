/**
 * How the pitch list is cut into date windows (see `http/windows.ts`): by
 * `addedOnFrom`/`addedOnTo` (inclusive), the day the catalog added a pitch,
 * which is what the `post_date` sort orders by. Only that sort (or none: the
 * emulator's default, and a different default would be caught at the first
 * seam) is pulled in windows.
 *
 * The spec says a lone bound means that one day at both ends, so a window
 * always sends both: an open end is the caller's own bound, else
 * 1900-01-01 or 9999-12-31.
 *
 * @module
 */
import { datedSource, type DayRange, type PageSender, type WindowSource } from "../http/windows.ts";
import { listId } from "../http/windows.ts";
import { PITCH_PAGE_SIZE, type PitchListParams } from "./params.ts";
import type { PitchListRow } from "./types.ts";

/** The key of a pitch-list row: its id ("" when it has none). */
export function pitchKey(row: PitchListRow): string {
  return row.pitch_id === undefined || row.pitch_id === null ? "" : String(row.pitch_id);
}
const FIRST = "1900-01-01";
const LAST = "9999-12-31";

/** Sends one pitch-list page with these parameters. */
export type PitchSender = PageSender<PitchListParams, PitchListRow>;

/** The windows of a pitch list, or undefined when its sort is not by the day added. */
export function pitchWindows(
  params: PitchListParams,
  send: PitchSender,
): WindowSource<PitchListRow> | undefined {
  if ((params.sort ?? "post_date") !== "post_date") return undefined;
  // a lone bound is that one day (spec)
  const own: DayRange = {
    from: params.addedOnFrom ?? params.addedOnTo,
    to: params.addedOnTo ?? params.addedOnFrom,
  };
  return datedSource({
    pageSize: params.limit ?? PITCH_PAGE_SIZE,
    bounds: own,
    list: listId("GET /pitches", params),
    day: (row) => (typeof row.added_on === "string" ? row.added_on.slice(0, 10) : undefined),
    key: pitchKey,
  }, (r, cursor, signal, size) => {
    const window = r ? { addedOnFrom: r.from ?? FIRST, addedOnTo: r.to ?? LAST } : {};
    return send({ ...params, ...window }, cursor, signal, size);
  });
}
