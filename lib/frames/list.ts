/**
 * A lazy list that can also collect itself into a typed DataFrame:
 * `.frame({ maxRows })`. Rows of pages, `take()`, `firstPage()` and
 * iteration are typed by the value grammars (`typed_rows.ts`) unless the
 * list was made with `raw: true`; the frame reads the rows as sent, by the
 * same grammars, in its own row loop. Each page's rows are copied into column buffers as
 * it arrives and then dropped; every 8,192 rows the buffers become one
 * native chunk ({@link FrameBuilder}), so memory grows linearly with the rows
 * and a 100k-row pull holds the frame, not 1,000 page frames. After a
 * chunk, once V8's heap has grown 64 MiB since the last collection, one V8
 * collection frees the pages read while it filled (`_release.ts`), instead
 * of whenever V8 next grows its heap. A frame cut
 * short by `maxRows` says so: `frame.truncated === true`, and its notebook display
 * notes it (no printed notice: the caller got exactly the rows asked for).
 *
 * @module
 */
import type pl from "npm:nodejs-polars@0.25.2";
import {
  type ListOptions,
  type Page,
  type PageFetcher,
  type PagesOptions,
  Paginated,
  type Taken,
  withPartial,
} from "../http/paginate.ts";
import { type RowTyping, typeRows } from "./typed_rows.ts";
import { isDemo, markDemo } from "../shared/demo.ts";
import { withDisplay } from "./display.ts";
import type { RowSink } from "./build.ts";
import { releaseNativeIfGrown } from "./_release.ts";
import { Progress } from "../http/progress_hook.ts";

/**
 * How a list becomes a frame: a `sink()` factory that takes the rows page
 * by page (bounded memory).
 */
export type FrameMaker<Row> = {
  sink(): RowSink<Row>;
  /** A key unique to a row in the list: turns on the duplicate and loop checks (see `http/paginate.ts`). */
  key?(row: Row): string;
  /** True once the list's client has read the offline emulator's answers (see `shared/demo.ts`). */
  demo?(): boolean;
  /** How the rows are typed (`typed_rows.ts`); rows are given as sent without it. */
  rows?: RowTyping;
};

/** List options with `raw`. */
export interface RawListOptions extends ListOptions {
  /**
   * Rows as the server sent their values (`take()`, `firstPage()`, pages,
   * iteration), not read by the value grammars (default false). Frames are
   * typed either way.
   */
  raw?: boolean;
}

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

/**
 * The frame of `rows` built by `sink` (a whole list at once), marked as the
 * offline emulator's data when the rows are.
 */
export function sinkFrame<Row>(sink: RowSink<Row>, rows: readonly Row[]): Frame {
  sink.append(rows);
  return asFrame(sink.finish(), false, isDemo(rows));
}

/**
 * Marks a frame with its `truncated` flag and the notebook display; `demo`
 * marks it (and what is derived from it) as the offline emulator's data.
 */
export function asFrame(df: pl.DataFrame, truncated: boolean, demo = false): Frame {
  Object.defineProperty(df, "truncated", {
    value: truncated,
    enumerable: false,
    configurable: true,
  });
  return withDisplay(df, { demo }) as Frame;
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
  #sink: () => RowSink<Row>;
  #demo: () => boolean;
  #typing: RowTyping | undefined;
  /** Fields this list warned about (one warning per field and list). */
  #warned = new Set<string>();
  /** Creates the list with a page fetcher and a way to build its frame. */
  constructor(
    fetchPage: PageFetcher<Row>,
    toFrame: FrameMaker<Row>,
    opts: RawListOptions = {},
  ) {
    super(fetchPage, opts, toFrame.key?.bind(toFrame));
    this.#sink = () => toFrame.sink();
    this.#demo = toFrame.demo?.bind(toFrame) ?? (() => false);
    this.#typing = opts.raw ? undefined : toFrame.rows;
  }

  /** Pages with their values as the server sent them (what `.frame()` reads). */
  protected sentPages(opts: PagesOptions = {}): AsyncGenerator<Page<Row>, void, undefined> {
    return super.pages(opts);
  }

  /** Pages in order, their rows typed (unless `raw`). */
  override async *pages(opts: PagesOptions = {}): AsyncGenerator<Page<Row>, void, undefined> {
    for await (const page of this.sentPages(opts)) yield this.#typed(page);
  }

  /** A page with its rows typed (unless `raw`). */
  #typed(page: Page<Row>): Page<Row> {
    const t = this.#typing;
    return t ? { ...page, rows: typeRows(t, page.rows, this.#warned) } : page;
  }

  /** The first page only (or the page at the `cursor` option), its rows typed (unless `raw`). */
  override async firstPage(): Promise<Page<Row>> {
    return this.#typed(await super.firstPage());
  }

  /** The first `n` rows; marked as demo data when they are the offline emulator's. */
  override async take(n: number): Promise<Taken<Row>> {
    try {
      const out = await super.take(n);
      return this.#demo() ? markDemo(out) : out;
    } catch (e) {
      const partial = (e as { partial?: { rows?: unknown } }).partial?.rows;
      if (this.#demo() && typeof partial === "object" && partial !== null) markDemo(partial);
      throw e;
    }
  }

  /** Collects the rows into one typed frame (all of them, or the first `maxRows`). */
  async frame(opts: FrameOptions = {}): Promise<Frame> {
    const max = opts.maxRows ?? Infinity;
    if (max !== Infinity && (!Number.isInteger(max) || max < 0)) {
      throw new TypeError(
        `maxRows ${JSON.stringify(max)} is not allowed; allowed: an integer >= 0`,
      );
    }
    const sink = this.#sink();
    let total = 0;
    let pages = 0;
    let truncated = false;
    const progress = opts.progress === false
      ? null
      : new Progress(opts.label ?? "pulling rows", { total: max === Infinity ? undefined : max });
    try {
      if (max > 0) {
        for await (const page of this.sentPages({ limit: max })) {
          pages++;
          const room = max - total;
          const rows = page.rows.length > room ? page.rows.slice(0, room) : page.rows;
          await appendReleasing(sink, rows);
          total += rows.length;
          opts.onPage?.(total);
          progress?.update({ rows: total, pages });
          if (total >= max) {
            truncated = page.rows.length > rows.length || page.next !== null;
            break;
          }
        }
      } else truncated = (await this.firstPage()).rows.length > 0;
    } catch (e) {
      // keep what was read: error.partial = { rows: <frame so far>, cursor }
      throw withPartial(e, asFrame(sink.finish(), true, this.#demo()));
    } finally {
      progress?.done();
    }
    // No notice when maxRows cut the pull: the caller got exactly the rows
    // asked for. `frame.truncated` is true and the frame's display says so.
    return asFrame(sink.finish(), truncated, this.#demo());
  }
}

/**
 * Appends rows to a sink; when that completed a native chunk and V8's heap
 * has grown by 64 MiB since the last collection, runs one collection so the
 * pages read while it filled are freed now rather than whenever V8 next
 * grows its heap (see `_release.ts`).
 * The event loop turns before the collection (answers that arrived while
 * the chunk was built are taken in, and the next requests go out: the
 * build and the collection are two pauses, not one) and after it (the collected objects' finalizers free their
 * native memory then); a page that completes no chunk costs no turn (a
 * timer per page would cost a clamped 1–4 ms each). Resolves to whether a
 * chunk was completed.
 */
export async function appendReleasing<Row>(
  sink: RowSink<Row>,
  rows: readonly Row[],
): Promise<boolean> {
  const before = sink.chunks;
  sink.append(rows);
  if (before === undefined || sink.chunks === before) return false;
  // one turn of the event loop, then the collection (when due) and one more turn
  await new Promise((r) => setTimeout(r, 0));
  await releaseNativeIfGrown("heapTotal");
  return true;
}
