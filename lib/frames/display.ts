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
 * Other nodejs-polars frames keep their own display, but once signalbook is
 * imported in a Jupyter kernel it is bounded: `POLARS_FMT_MAX_ROWS` (which
 * nodejs-polars reads at display time) is set to {@link NOTEBOOK_MAX_ROWS}
 * unless you set it yourself. {@link show} gives the rich view of anything,
 * LazyFrames included (columns and plan, never collected).
 *
 * Outside a notebook nothing changes: `console.log(df)` prints the Polars
 * table as usual.
 *
 * @module
 */
import type pl from "npm:nodejs-polars@0.25.2";
import {
  type DisplayOptions,
  formatCell,
  frameBundle,
  lazyBundle,
  type MediaBundle,
  recordsBundle,
} from "./_display_html.ts";
import { inJupyter } from "../shared/jupyter.ts";

export {
  type DisplayOptions,
  formatCell,
  frameBundle,
  lazyBundle,
  type MediaBundle,
  recordsBundle,
};

const JUPYTER = Symbol.for("Jupyter.display");
const WRAPPED = Symbol.for("signalbook.display");

/** True for a nodejs-polars DataFrame (wrapped or not). */
export function isDataFrame(x: unknown): x is pl.DataFrame {
  return typeof x === "object" && x !== null &&
    (x as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === "DataFrame";
}

/** True for a nodejs-polars LazyFrame (wrapped or not). */
export function isLazyFrame(x: unknown): x is pl.LazyDataFrame {
  return typeof x === "object" && x !== null &&
    (x as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === "LazyDataFrame";
}

// methods whose result is a group-by object: its methods' frames are re-wrapped too
const GROUPERS = new Set(["groupBy", "groupByRolling", "groupByDynamic", "rolling", "pivot"]);

type AnyObject = Record<string | symbol, unknown>;

function keep(value: unknown, name: string | symbol): unknown {
  if (isDataFrame(value) || isLazyFrame(value)) return wrap(value as unknown as AnyObject);
  if (value instanceof Promise) return value.then((v) => keep(v, name));
  if (typeof name === "string" && GROUPERS.has(name) && typeof value === "object" && value) {
    return wrap(value as AnyObject);
  }
  return value;
}

function bundleOf(target: AnyObject): MediaBundle {
  if (isDataFrame(target)) return frameBundle(target);
  if (isLazyFrame(target)) return lazyBundle(target);
  return { "text/plain": String(target) };
}

const NODE_INSPECT = Symbol.for("nodejs.util.inspect.custom");

// The Proxy's own target is a small shadow object, not the frame: nodejs-polars
// frames are Proxies whose getOwnPropertyDescriptor trap throws for anything but
// a column name, and a Proxy checks its target's descriptors after every get.
// `console.log` inspects a Proxy's target, so the shadow forwards inspection.
function wrap<T extends AnyObject>(frame: T): T {
  if (frame[WRAPPED]) return frame;
  const display = () => bundleOf(frame);
  const displayable = isDataFrame(frame) || isLazyFrame(frame);
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
        return keep(Reflect.apply(value, frame, args), prop);
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
 */
export function withDisplay<T extends pl.DataFrame | pl.LazyDataFrame>(df: T): T {
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
 * array of records, or any other value (its inspected text). Return it from a
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
  let bundle: () => MediaBundle;
  if (isDataFrame(value)) bundle = () => frameBundle(value, opts);
  else if (isLazyFrame(value)) bundle = () => lazyBundle(value);
  else if (isSeries(value)) bundle = () => frameBundle(value.toFrame(), opts);
  else if (Array.isArray(value) && value.every(isRecord)) {
    bundle = () => recordsBundle(value as Record<string, unknown>[], opts);
  } else {
    bundle = () => ({ "text/plain": Deno.inspect(value, { colors: false, depth: 4 }) });
  }
  const view: Displayable & Record<symbol, unknown> = {
    toString: () => bundle()["text/plain"],
  };
  view[JUPYTER] = bundle;
  return view;
}

function isSeries(x: unknown): x is pl.Series {
  return typeof x === "object" && x !== null &&
    typeof (x as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === "function" &&
    (x as { [Symbol.toStringTag]: () => string })[Symbol.toStringTag]() === "Series";
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x) && !(x instanceof Date);
}

/**
 * The row count nodejs-polars' own notebook display uses once signalbook is
 * imported in a Jupyter kernel (through `POLARS_FMT_MAX_ROWS`, unless set):
 * a 50 × 174 frame then displays in well under 60 KB instead of about 410 KB.
 */
export const NOTEBOOK_MAX_ROWS = 5;

/**
 * Bounds nodejs-polars' own notebook display of frames signalbook did not
 * make: sets `POLARS_FMT_MAX_ROWS` to {@link NOTEBOOK_MAX_ROWS} when running in
 * a Jupyter kernel and the variable is unset. Runs once when signalbook is
 * imported; returns whether it set the variable (`force` skips the kernel
 * check, for tests).
 *
 * @example
 * ```ts
 * import { boundPolarsDisplay } from "./display.ts";
 * boundPolarsDisplay(); // false under deno run: nothing changes outside a notebook
 * ```
 */
export function boundPolarsDisplay(force = false): boolean {
  if (!force && !inJupyter()) return false;
  try {
    if (Deno.env.get("POLARS_FMT_MAX_ROWS")) return false;
    Deno.env.set("POLARS_FMT_MAX_ROWS", String(NOTEBOOK_MAX_ROWS));
    return true;
  } catch {
    return false; // no env permission: leave it alone
  }
}

boundPolarsDisplay();
