/**
 * Where a dataset's rows came from. Every write records its source in the
 * dataset's `_signalbook.json` (and `sync` in `manifest.json` too):
 *
 * ```json
 * "sources": [{ "kind": "emulator", "host": "signalbook.offline",
 *               "first": "2026-11-27T06:01:02.000Z", "last": "2026-11-27T06:01:02.000Z" }]
 * ```
 *
 * - `kind` is `"emulator"` for the offline emulator's demo data and
 *   `"live"` otherwise; `host` is the service's host (with its port), or
 *   null for a frame given to `writeDataset` (a frame does not know its
 *   host); `first`/`last` are when rows from it were first and last written.
 * - Who is the emulator: a client reading the in-process emulator (its
 *   `fetch` is marked) or a `deno task stub` on a loopback host (its
 *   answers carry the emulator's header); see `shared/demo.ts`. A frame is
 *   emulator data when it carries the demo mark (`isDemo(df)`); any other
 *   frame is taken for live data.
 * - The rule: a dataset never holds both kinds. Writing live rows into a
 *   dataset holding emulator rows, or the reverse, is a
 *   {@link MixedSourcesError} naming both sources, raised before anything
 *   is written.
 * - Reading back: `scan*` and `query()` of a dataset holding emulator rows
 *   return frames with the demo mark, so everything built from them
 *   (derived frames, `toRecords()`, results, charts, reports) says "demo
 *   data".
 * - A dataset written before sources were recorded has none: it reads as
 *   live, and its next write records that write's source.
 *
 * @module
 */
import { isDemo, isLoopbackUrl } from "../shared/demo.ts";

/** One source a dataset was written from. */
export interface DatasetSource {
  /** `"emulator"`: the offline emulator's demo data; `"live"`: a service, or a frame without the demo mark. */
  kind: "emulator" | "live";
  /** The service's host (`api.example.com`, `127.0.0.1:8787`); null for a frame given to `writeDataset`. */
  host: string | null;
  /** When rows from this source were first written (ISO 8601). */
  first: string;
  /** When rows from this source were last written (ISO 8601). */
  last: string;
}

/** A source without its times: what is about to be written. */
export type SourceOf = Pick<DatasetSource, "kind" | "host">;

/** The source kinds. */
export const SOURCE_KINDS = ["emulator", "live"] as const;

/** Words for a source in messages. */
export function describeSource(s: SourceOf): string {
  if (s.kind === "emulator") {
    return s.host === null
      ? "a frame of demo data (the offline emulator's)"
      : `the offline emulator (${s.host})`;
  }
  return s.host === null
    ? "a frame without the demo mark (live data)"
    : `the live service at ${s.host}`;
}

/**
 * The source of a client's rows, or null while it cannot be told: a
 * client of the in-process emulator is `emulator` at once; one of a
 * non-loopback host is `live` at once (only this machine's stub can mark
 * data as demo); one of a loopback host is known once it has read an
 * answer (set `answered`).
 */
export function clientSource(
  client: { readonly demo: boolean; readonly baseUrl: string },
  answered = false,
): SourceOf | null {
  const host = new URL(client.baseUrl).host;
  if (client.demo) return { kind: "emulator", host };
  if (answered || !isLoopbackUrl(client.baseUrl)) return { kind: "live", host };
  return null;
}

/** The source of a frame given to `writeDataset`: emulator when it carries the demo mark. */
export function frameSource(df: unknown): SourceOf {
  return { kind: isDemo(df) ? "emulator" : "live", host: null };
}

/** Whether the sources include the offline emulator (everything read back is then demo data). */
export function holdsEmulatorRows(sources: readonly DatasetSource[] | undefined): boolean {
  return (sources ?? []).some((s) => s.kind === "emulator");
}

/**
 * The sources after writing rows from `incoming` at `now`, or a
 * {@link MixedSourcesError} (naming `dir` and both sources) when the
 * dataset holds the other kind.
 */
export function addSource(
  caller: string,
  dir: string,
  held: readonly DatasetSource[] | undefined,
  incoming: SourceOf,
  now = new Date().toISOString(),
): DatasetSource[] {
  const list = [...(held ?? [])];
  if (list.some((s) => s.kind !== incoming.kind)) {
    throw new MixedSourcesError(caller, dir, list, incoming);
  }
  const i = list.findIndex((s) => s.kind === incoming.kind && s.host === incoming.host);
  if (i < 0) list.push({ ...incoming, first: now, last: now });
  else list[i] = { ...list[i], last: now };
  return list;
}

/**
 * Rows from the offline emulator written into a dataset holding live rows,
 * or the reverse: refused before anything is written. The message names the
 * dataset and both sources.
 */
export class MixedSourcesError extends Error {
  /** The dataset folder. */
  readonly dir: string;
  /** The sources the dataset already holds. */
  readonly held: readonly DatasetSource[];
  /** The source of the refused rows. */
  readonly incoming: Pick<DatasetSource, "kind" | "host">;
  /** Creates the error; `caller` starts the message. */
  constructor(
    caller: string,
    dir: string,
    held: readonly DatasetSource[],
    incoming: Pick<DatasetSource, "kind" | "host">,
  ) {
    const other = held.filter((s) => s.kind !== incoming.kind);
    super(
      `${caller}: ${dir} holds rows from ${
        other.map((s) =>
          `${describeSource(s)} (written ${s.first.slice(0, 10)} to ${s.last.slice(0, 10)})`
        )
          .join(" and ")
      }; these rows are from ${
        describeSource(incoming)
      }. Demo and live rows never share a dataset: ` +
        `nothing was written. Write into another folder, or remove ${dir} to start over`,
    );
    this.name = "MixedSourcesError";
    this.dir = dir;
    this.held = held;
    this.incoming = incoming;
  }
}
