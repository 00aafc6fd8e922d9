/**
 * A lazy list that can also collect itself into a typed DataFrame:
 * `.frame({ maxRows })`. Pages are turned into frames as they arrive (the
 * event loop turns between pages, so native memory is released), then
 * concatenated. A frame cut short by `maxRows` says so: a warning on stderr
 * and `frame.truncated === true`.
 *
 * @module
 */
import pl from "npm:nodejs-polars@0.25.2";
import { type ListOptions, type PageFetcher, Paginated } from "../http/paginate.ts";
import { withDisplay } from "./display.ts";
import { Progress } from "../notebook/progress.ts";

/** A DataFrame that records whether it was cut short. */
export type Frame = pl.DataFrame & { readonly truncated: boolean };

/** Options of {@link FramedList.frame}. */
export interface FrameOptions {
  /** Stop after this many rows (default: all). */
  maxRows?: number;
  /** Called after each page with the rows so far. */
  onPage?: (rows: number) => void;
  /** Show live progress (default true: in a notebook or on a terminal; silent otherwise). */
  progress?: boolean;
  /** Label of the progress display (default "pulling rows"). */
  label?: string;
}

/** Marks a frame with its `truncated` flag and the notebook display. */
export function asFrame(df: pl.DataFrame, truncated: boolean): Frame {
  Object.defineProperty(df, "truncated", {
    value: truncated,
    enumerable: false,
    configurable: true,
  });
  return withDisplay(df) as Frame;
}

/**
 * A {@link Paginated} list with `.frame()`.
 *
 * @example
 * ```ts
 * import { connect } from "../../mod.ts";
 * const { insider } = await connect();
 * const df = await insider.search({ tradeType: "purchase" }).frame({ maxRows: 1000 });
 * console.log(df.shape, df.truncated);
 * ```
 */
export class FramedList<Row> extends Paginated<Row> {
  #toFrame: (rows: Row[]) => pl.DataFrame;
  /** Creates the list with a page fetcher and a rows → frame builder. */
  constructor(
    fetchPage: PageFetcher<Row>,
    toFrame: (rows: Row[]) => pl.DataFrame,
    opts: ListOptions = {},
  ) {
    super(fetchPage, opts);
    this.#toFrame = toFrame;
  }

  /** Collects the rows into one typed frame (all of them, or the first `maxRows`). */
  async frame(opts: FrameOptions = {}): Promise<Frame> {
    const max = opts.maxRows ?? Infinity;
    if (max !== Infinity && (!Number.isInteger(max) || max < 0)) {
      throw new TypeError(
        `maxRows ${JSON.stringify(max)} is not allowed; allowed: an integer >= 0`,
      );
    }
    const parts: pl.DataFrame[] = [];
    let total = 0;
    let pages = 0;
    let truncated = false;
    const progress = opts.progress === false
      ? null
      : new Progress(opts.label ?? "pulling rows", { total: max === Infinity ? undefined : max });
    try {
      if (max > 0) {
        for await (const page of this.pages()) {
          pages++;
          const room = max - total;
          const rows = page.rows.length > room ? page.rows.slice(0, room) : page.rows;
          if (rows.length) parts.push(this.#toFrame(rows));
          total += rows.length;
          opts.onPage?.(total);
          progress?.update({ rows: total, pages });
          await new Promise((r) => setTimeout(r, 0));
          if (total >= max) {
            truncated = page.rows.length > rows.length || page.next !== null;
            break;
          }
        }
      } else truncated = (await this.firstPage()).rows.length > 0;
    } finally {
      progress?.done();
    }
    if (truncated) {
      console.warn(
        `signalbook: frame stopped at maxRows=${max}; more rows exist (frame.truncated is true)`,
      );
    }
    const df = parts.length === 0
      ? this.#toFrame([])
      : parts.length === 1
      ? parts[0]
      : pl.concat(parts, { how: "vertical", rechunk: true });
    return asFrame(df, truncated);
  }
}
