/**
 * nodejs-polars, evaluated at its first use rather than when signalbook is
 * imported (issue 53 point 1).
 *
 * Evaluating nodejs-polars loads its native addon and adds about 34 MiB to a
 * process (a fresh `deno run`: 31 MiB before `import("npm:nodejs-polars")`,
 * 64–66 after). A script whose first cell takes rows (`search().take(10)`)
 * never needs it; a frame, a dataset or a backtest does, and pays it then.
 * Library code imports this `pl` in place of the package's default export:
 * the same object, the same types (`pl.DataFrame` as a type too), reached
 * through a Proxy whose first property read evaluates the package (an
 * `import defer` namespace) and installs signalbook's demo-data tracing
 * (`./_demo_trace.ts`) before any frame is built (a client made after your
 * own import of nodejs-polars installs it too: `traceDemoIfLoaded`, so
 * `pl.DataFrame(demoRows)` is demo data). In a Jupyter kernel the
 * notebook display (`./display.ts`) is installed at import, as before, so
 * frames you build yourself display the signalbook way from the first cell.
 *
 * A test (`tests/frames/lazy_polars_test.ts`) imports mod.ts in a fresh
 * process, takes 10 rows, and checks that nodejs-polars was not evaluated.
 *
 * @example
 * ```ts
 * import pl from "./_polars.ts";
 * const df: pl.DataFrame = pl.DataFrame({ a: [1, 2, 3] });
 * console.log(df.height); // 3
 * ```
 *
 * @module
 */
import defer * as polars from "npm:nodejs-polars@0.25.2";
import type plTypes from "npm:nodejs-polars@0.25.2";
import { traceDemo } from "./_demo_trace.ts";

/**
 * nodejs-polars' default export, evaluated at the first read, with the demo
 * trace installed first (`traceDemo` is once per process: a flag check after).
 */
function real(): typeof plTypes {
  traceDemo();
  return polars.default;
}

const pl: typeof plTypes = new Proxy({} as typeof plTypes, {
  get: (_target, key) => Reflect.get(real(), key),
  has: (_target, key) => Reflect.has(real(), key),
  ownKeys: () => Reflect.ownKeys(real()),
  getOwnPropertyDescriptor: (_target, key) => {
    const d = Reflect.getOwnPropertyDescriptor(real(), key);
    return d && { ...d, configurable: true };
  },
});

/** The types of nodejs-polars' namespace that library code names as `pl.X`. */
declare namespace pl {
  // deno-lint-ignore no-explicit-any
  type DataFrame<S extends plTypes.Schema = any> = plTypes.DataFrame<S>;
  // deno-lint-ignore no-explicit-any
  type LazyDataFrame<S extends plTypes.Schema = any> = plTypes.LazyDataFrame<S>;
  // deno-lint-ignore no-explicit-any
  type Series<T extends plTypes.DataType = any, Name extends string = string> = plTypes.Series<
    T,
    Name
  >;
  type Expr = plTypes.Expr;
  type DataType = plTypes.DataType;
}

export default pl;
