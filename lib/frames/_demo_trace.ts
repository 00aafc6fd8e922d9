/**
 * The demo mark on Polars' own data, whoever calls the method.
 *
 * A nodejs-polars frame, lazy frame or series is a JS object around a
 * native one (`_df`, `_ldf`, `_s`), and every operation of nodejs-polars,
 * on whatever JS object it is called, ends in a call of a native method or
 * function (`vstack`, `join`, `withColumn`, `concatLf`, `fromRows`,
 * `readIpc`, …). Each of them is traced once, by {@link traceDemo} at
 * nodejs-polars' first use through signalbook (`./_polars.ts`): a
 * call any of whose inputs — its receiver, an argument, an item of a short
 * list argument (the frames of a `pl.concat`) — holds demo data gives demo
 * data (its result: a native object, the rows of `toRecords()`, the series
 * of `getColumns()`), and a call that changes its receiver in place
 * (`extend`, `hstackMut`, `append`, …) makes the receiver demo data too.
 * {@link isDemo} looks at a frame's native object, so `plain.vstack(demo)`,
 * `plain.extend(demo)`, `plain.withColumns(demoSeries)`,
 * `pl.concat([plain, demo])` (lazy or not) and `pl.DataFrame(demo.toRecords())`
 * are demo data, whoever made `plain`, and `writeDataset` refuses them into
 * a live dataset.
 *
 * The trace is installed by signalbook's first use of nodejs-polars (a
 * frame, a dataset, `polarsDisplay`, a notebook kernel's import), and when a
 * client is made if nodejs-polars 0.25.2 was already evaluated by your own
 * import ({@link traceDemoIfLoaded}: free then), so `pl.DataFrame(rows)` of
 * demo rows from `take()` is demo data before signalbook's first frame.
 *
 * Where it cannot follow: values copied out one by one (numbers, strings,
 * a row rebuilt by hand), bytes and text (`writeIPC()`, which joins its
 * chunks in JS, `writeJSON()`, `writeCSV()` to a string: a string cannot
 * carry a mark) and files Polars writes itself, read back later. See
 * docs/datasets.md, "Where the demo mark cannot follow".
 *
 * @module
 */
import defer * as internalNs from "npm:nodejs-polars@0.25.2/bin/internals/polars_internal.js";
import { createRequire } from "node:module";
import { carriesDemoMark, markDemo } from "../shared/demo.ts";

type Fn = (this: unknown, ...args: unknown[]) => unknown;

/** Native methods that change their receiver in place. */
const IN_PLACE = /^(extend|append|insertAtIdx|setAtIdx|replaceAtIdx|\w+Mut)$/;
/** Longest list argument whose items are looked at (frames to concatenate, not rows). */
const MAX_ITEMS = 64;

const holdsDemo = (v: unknown) =>
  carriesDemoMark(v) || (Array.isArray(v) && v.length <= MAX_ITEMS && v.some(carriesDemoMark));

/** `out` marked as demo data (a promise's value when it comes, the items of a short list). */
function marked(out: unknown): unknown {
  if (out instanceof Promise) return out.then(marked);
  if (typeof out === "object" && out !== null) markDemo(out);
  if (Array.isArray(out) && out.length <= MAX_ITEMS) out.forEach(marked); // the series of getColumns()
  return out;
}

/** `fn` traced: its result is demo data when an input is (see the module doc). */
function traced(name: string, fn: Fn): Fn {
  return function (this: unknown, ...args: unknown[]) {
    const out = Reflect.apply(fn, this, args);
    if (!holdsDemo(this) && !args.some(holdsDemo)) return out;
    if (IN_PLACE.test(name) && typeof this === "object" && this !== null) markDemo(this);
    return marked(out);
  };
}

/** Traces the own function properties of `holder` (a prototype, a class's statics). */
function traceMethods(holder: Record<string, unknown>): void {
  for (const k of Object.getOwnPropertyNames(holder)) {
    const d = Object.getOwnPropertyDescriptor(holder, k);
    if (k === "constructor" || typeof d?.value !== "function" || !d.writable) continue;
    holder[k] = traced(k, d.value as Fn);
  }
}

let installed = false;

/**
 * Traces nodejs-polars' native methods and functions (see the module doc);
 * once per process, whatever the number of calls.
 */
export function traceDemo(): void {
  if (installed) return;
  installed = true;
  // the module's exports (as its default import), holding the native addon as `default`
  const exports = internalNs.default as { default?: unknown };
  const internal = (exports.default ?? exports) as Record<string, unknown>;
  for (const [name, v] of Object.entries(internal)) {
    if (typeof v !== "function") continue;
    const proto = v.prototype as Record<string, unknown> | undefined;
    if (!proto || Object.getOwnPropertyNames(proto).length <= 1) {
      internal[name] = traced(name, v as Fn); // a function of the module
      continue;
    }
    traceMethods(proto);
    traceMethods(v as unknown as Record<string, unknown>);
    internal[name] = new Proxy(v, {
      construct(target, args) {
        const made = Reflect.construct(target, args);
        return args.some(holdsDemo) ? marked(made) as object : made;
      },
    });
  }
}

/** The CommonJS file name of nodejs-polars 0.25.2's addon module: Deno's global cache or a node_modules folder. */
const POLARS_INTERNAL =
  /nodejs-polars[@/\\]0\.25\.2[/\\](?:node_modules[/\\]nodejs-polars[/\\])?bin[/\\]internals[/\\]polars_internal\.js$/;

/**
 * Installs the trace ({@link traceDemo}) if nodejs-polars 0.25.2 was already
 * evaluated in this process (your own `import pl from "npm:nodejs-polars@0.25.2"`,
 * which loads it into `require.cache`), where it costs nothing; otherwise
 * nodejs-polars stays unevaluated until signalbook's first frame. Called when
 * a client is made, so that a frame you build with your own `pl` from demo
 * rows (`pl.DataFrame(await search().take(10))`) is demo data before any
 * signalbook frame exists.
 */
export function traceDemoIfLoaded(): void {
  if (installed) return;
  const cache = createRequire("file:///").cache;
  if (Object.keys(cache).some((k) => POLARS_INTERNAL.test(k))) traceDemo();
}
