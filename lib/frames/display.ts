/**
 * Notebook display of DataFrames: shape, dtypes, head and tail rows, ISO
 * dates, compact lists, visible nulls, and the middle columns of wide frames
 * elided (nodejs-polars' own display shows none of that and is about 410 KB
 * for 50 × 174).
 *
 * nodejs-polars builds every frame as a fresh object literal behind a Proxy,
 * so there is no prototype to patch. Instead {@link withDisplay} wraps a
 * frame in one more Proxy that adds the display and re-wraps what its
 * methods return: a `filter`, `select`, `withColumns`, `sort`, `join`,
 * `head`, `lazy()…collect()` or `groupBy(…).agg(…)` of a signalbook frame
 * displays the same way. Every frame signalbook returns is wrapped.
 *
 * No hidden rows: every display states the frame's shape and marks where rows
 * (`…` row) and columns (`…` column) are left out, and says how many.
 *
 * Plain nodejs-polars frames (`pl.DataFrame(...)` in your own cell): their
 * own notebook display shows the first 50 rows with no shape and no sign of
 * the rest (or `POLARS_FMT_MAX_ROWS` rows). Once signalbook is imported in a
 * Jupyter kernel, frames of the nodejs-polars 0.25.2 that signalbook uses
 * get this display instead ({@link polarsDisplay}; `polarsDisplay("polars")`
 * gives them back their own). Nothing else changes: no environment variable
 * or Polars setting is touched, and `console.log(df)` / `df.toString()` print
 * the Polars table as before. (Before issue 23 signalbook set
 * `POLARS_FMT_MAX_ROWS=5` for the whole process: a global setting that hid
 * rows in every frame's display and in `toString()`.)
 *
 * {@link show} gives the rich view of anything, LazyFrames included (columns
 * and plan, never collected); `show(df, { all: true })` shows a result frame
 * with every column, unrounded.
 *
 * Outside a notebook nothing changes: `console.log(df)` prints the Polars
 * table as usual.
 *
 * @module
 */
import type pl from "npm:nodejs-polars@0.25.2";
import {
  type DisplayOptions,
  frameBundle,
  lazyBundle,
  type MediaBundle,
  recordsBundle,
} from "./_display_html.ts";
import defer * as dataframeNs from "npm:nodejs-polars@0.25.2/bin/dataframe.js";
import { inJupyter } from "../shared/jupyter.ts";
import { isFrame } from "../shared/wrong_input.ts";
import { carriesDemoMark, isDemo, markDemo } from "../shared/demo.ts";
import { type FrameReport, summaryLines } from "./_report.ts";
import { traceDemo } from "./_demo_trace.ts";

export * from "./_display_html.ts";

const JUPYTER = Symbol.for("Jupyter.display");
const WRAPPED = Symbol.for("signalbook.display");

export { isFrame as isDataFrame };

/** True for a nodejs-polars LazyFrame (wrapped or not). */
export function isLazyFrame(x: unknown): x is pl.LazyDataFrame {
  return typeof x === "object" && x !== null &&
    (x as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === "LazyDataFrame";
}

// methods whose result is a group-by object: its methods' frames are re-wrapped too
const GROUPERS = new Set(["groupBy", "groupByRolling", "groupByDynamic", "rolling", "pivot"]);

type AnyObject = Record<string | symbol, unknown>;

function keep(value: unknown, name: string | symbol, from: AnyObject): unknown {
  const grouper = typeof name === "string" && GROUPERS.has(name) && typeof value === "object";
  // a demo frame's derived frames carry the mark on their own (frames/_demo_trace.ts)
  if (isFrame(value) || isLazyFrame(value) || (grouper && value)) return wrap(value as AnyObject);
  if (value instanceof Promise) return value.then((v) => keep(v, name, from));
  // what JS builds of its columns keeps it too: toObject() of a wide frame
  const built = Array.isArray(value) || Object.getPrototypeOf(value ?? 0) === Object.prototype;
  if (built && carriesDemoMark(from)) markDemo(value as object);
  return value;
}

/**
 * The one rich view of anything ({@link show}): a frame (with its pull's
 * notes), a Series (as a frame), a LazyFrame, records, a result object's own
 * display, or any other value's inspected text.
 */
function bundleOf(target: unknown, opts: DisplayOptions = {}): MediaBundle {
  if (isSeries(target)) return bundleOf(target.toFrame(), opts);
  if (isFrame(target)) {
    const truncated = (target as { truncated?: unknown }).truncated === true;
    const report = (target as { readReport?: FrameReport }).readReport;
    return frameBundle(
      target,
      { ...opts, demo: opts.demo ?? isDemo(target) },
      [
        ...(truncated ? ["stopped at maxRows: the service has more"] : []),
        ...(report ? summaryLines(report) : []),
      ],
    );
  }
  // demo data says so wherever it is shown: a lazy frame, rows, records
  const demo = opts.demo ?? isDemo(target);
  if (isLazyFrame(target)) return lazyBundle(target, { demo });
  if (Array.isArray(target) && target.every(isRecord)) {
    return recordsBundle(target, { ...opts, demo });
  }
  // a result object with its own notebook display (a table, a portfolio result, a chart)
  if (hasDisplay(target)) return target[JUPYTER]();
  return { "text/plain": Deno.inspect(target, { colors: false, depth: 4 }) };
}

const NODE_INSPECT = Symbol.for("nodejs.util.inspect.custom");

// The Proxy's own target is a small shadow object, not the frame: nodejs-polars
// frames are Proxies whose getOwnPropertyDescriptor trap throws for anything but
// a column name, and a Proxy checks its target's descriptors after every get.
// `console.log` inspects a Proxy's target, so the shadow forwards inspection.
function wrap<T extends AnyObject>(frame: T): T {
  if (frame[WRAPPED]) return frame;
  const display = () => bundleOf(frame);
  const displayable = isFrame(frame) || isLazyFrame(frame);
  const shadow: AnyObject = {
    [NODE_INSPECT]: (...args: unknown[]) => {
      const own = frame[NODE_INSPECT];
      return typeof own === "function" ? Reflect.apply(own, frame, args) : String(frame);
    },
  };
  const methods = new Map<string | symbol, { raw: unknown; fn: unknown }>();
  return new Proxy(shadow, {
    get(_, prop) {
      if (prop === WRAPPED) return true;
      if (prop === JUPYTER && displayable) return display;
      const value = Reflect.get(frame, prop);
      if (typeof value !== "function") return value;
      const cached = methods.get(prop);
      if (cached?.raw === value) return cached.fn;
      const fn = function (...args: unknown[]) {
        return keep(Reflect.apply(value, frame, args), prop, frame);
      };
      methods.set(prop, { raw: value, fn });
      return fn;
    },
    set(_, prop, value) {
      return Reflect.set(frame, prop, value);
    },
    has(_, prop) {
      return (prop === JUPYTER && displayable) || prop === WRAPPED || Reflect.has(frame, prop);
    },
    ownKeys() {
      return Reflect.ownKeys(frame);
    },
    getOwnPropertyDescriptor(_, prop) {
      if (!Reflect.ownKeys(frame).includes(prop)) return undefined;
      const desc = Reflect.getOwnPropertyDescriptor(frame, prop);
      return desc && { ...desc, configurable: true };
    },
    defineProperty(_, prop, desc) {
      if (desc.configurable === false) return false;
      return Reflect.defineProperty(frame, prop, desc);
    },
    deleteProperty(_, prop) {
      return Reflect.deleteProperty(frame, prop);
    },
    getPrototypeOf() {
      return Reflect.getPrototypeOf(frame);
    },
  }) as T;
}

/**
 * Gives a frame (or LazyFrame) the signalbook notebook display and returns
 * it: a Proxy that adds the display and keeps it on every frame its methods
 * return (`filter`, `select`, `join`, `groupBy(…).agg(…)`, …). Everything
 * else behaves as the frame itself.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { withDisplay } from "./display.ts";
 * const df = withDisplay(pl.DataFrame({ a: [1, 2, 3], b: ["x", null, "z"] }));
 * const derived = df.filter(pl.col("a").gt(1)).select("b");
 * derived; // in a notebook: shape (2, 1), dtype String, the rows, null shown as null
 * ```
 *
 * `{ demo: true }` marks the frame, and every frame derived from it, as the
 * offline emulator's demo data: its display starts with a "DEMO DATA" badge
 * (see `shared/demo.ts`). A mark is never taken away.
 */
export function withDisplay<T extends pl.DataFrame | pl.LazyDataFrame>(
  df: T,
  opts: { demo?: boolean } = {},
): T {
  // a mark is never taken away; what Polars derives from the frame keeps it
  // (the trace is installed here too, for a frame built without signalbook's `pl`)
  if (opts.demo) {
    markDemo(df);
    traceDemo();
  }
  return wrap(df as unknown as AnyObject) as unknown as T;
}

/** Something a notebook cell renders through `Symbol.for("Jupyter.display")`. */
export interface Displayable {
  /** Plain-text form. */
  toString(): string;
}

/**
 * The rich notebook view of anything: a DataFrame (shape, dtypes, head and
 * tail rows), a LazyFrame (columns and plan, never collected), a Series, an
 * array of records, a result object with its own display (`statsTable`,
 * `portfolioTable`, `entryComparison`, a `portfolioBacktest` result, a
 * chart), or any other value (its inspected text). Return it from a
 * notebook cell; `String(show(x))` is the plain-text form.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { show } from "./display.ts";
 * show(pl.DataFrame({ a: [1, 2, 3] }), { head: 2, tail: 1 });
 * const lazy = pl.DataFrame({ a: [1, 2, 3] }).lazy().filter(pl.col("a").gt(1));
 * console.log(String(show(lazy))); // columns and plan; nothing is collected
 * ```
 */
export function show(value: unknown, opts: DisplayOptions = {}): Displayable {
  const bundle = () => bundleOf(value, opts);
  return { toString: () => bundle()["text/plain"], [JUPYTER]: bundle } as Displayable;
}

function isSeries(x: unknown): x is pl.Series {
  return typeof x === "object" && x !== null &&
    typeof (x as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === "function" &&
    (x as { [Symbol.toStringTag]: () => string })[Symbol.toStringTag]() === "Series";
}

function hasDisplay(x: unknown): x is { [JUPYTER]: () => MediaBundle } {
  return typeof x === "object" && x !== null &&
    typeof (x as Record<symbol, unknown>)[JUPYTER] === "function";
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x) && !(x instanceof Date);
}

type FrameFactory = (inner: unknown) => AnyObject;
type PolarsModule = { _DataFrame: FrameFactory };
let native: { module: PolarsModule; factory: FrameFactory } | undefined;
/**
 * nodejs-polars' dataframe module and its own frame factory, read at the first
 * display choice (in a kernel: at import). That evaluates nodejs-polars, so
 * the demo trace is installed with it: `pl.DataFrame(rows)` of demo rows in
 * your own cell is demo data, as it was before nodejs-polars was deferred.
 */
function nativeDataFrame(): { module: PolarsModule; factory: FrameFactory } {
  if (native) return native;
  traceDemo();
  const module = ((dataframeNs as { default?: unknown }).default ?? dataframeNs) as PolarsModule;
  return native = { module, factory: module._DataFrame };
}

/**
 * Chooses how plain nodejs-polars frames display in a notebook: `"signalbook"`
 * (shape, dtypes, head and tail rows, elisions marked; the default once
 * signalbook is imported in a Jupyter kernel) or `"polars"` (nodejs-polars'
 * own: the first 50 rows, or `POLARS_FMT_MAX_ROWS`). Only frames made after
 * the call change. It works by giving each frame nodejs-polars builds a
 * display method; no setting or environment variable is touched. Returns the
 * previous choice.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { polarsDisplay } from "./display.ts";
 * const before = polarsDisplay("signalbook");
 * pl.DataFrame({ a: [1, 2, 3] }); // in a notebook: shape (3, 1), dtypes, rows
 * polarsDisplay(before);
 * ```
 */
export function polarsDisplay(which: "signalbook" | "polars"): "signalbook" | "polars" {
  if (which !== "signalbook" && which !== "polars") {
    throw new RangeError(
      `polarsDisplay: ${JSON.stringify(which)} is not allowed; allowed: "signalbook", "polars"`,
    );
  }
  const { module, factory } = nativeDataFrame();
  const before = module._DataFrame === factory ? "polars" : "signalbook";
  module._DataFrame = which === "polars" ? factory : (inner: unknown) => {
    const df = factory(inner);
    // demo data whoever built the frame (plain.vstack(demo)): marked where it is seen
    df[JUPYTER] = () => bundleOf(df);
    return df;
  };
  return before;
}

if (inJupyter()) polarsDisplay("signalbook");
