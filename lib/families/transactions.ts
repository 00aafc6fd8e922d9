/**
 * The transaction field families as long frames, one row per trade and
 * window, with the window's order and length in days so sorting and charts
 * follow time rather than the alphabet.
 *
 * Every output keeps the trade keys `accession_number`, `transaction_id`,
 * `filed_at`, `ticker_symbol`, `reporting_owner_cik`, `code` (the trade
 * class: `P` a buy, `S` a sell) and `acquired_disposed_code` when the input
 * has them.
 *
 * @module
 */
import { isDemo } from "../shared/demo.ts";
import pl from "../frames/_polars.ts";
import {
  FORWARD_WINDOWS,
  INSIDER_RETURN_DIRECTIONS,
  INSIDER_RETURN_FIELDS,
  INSIDER_RETURN_WINDOWS,
  PRIOR_RETURN_FIELDS,
  PRIOR_WINDOWS,
  WIN_RATE_FIELDS,
  WIN_RATE_SCOPES,
  WIN_RATE_WINDOWS,
  WINDOW_DAYS,
} from "../insider/fields.ts";
import { asFrame, type Frame } from "../frames/list.ts";
import { expectFrame } from "../shared/wrong_input.ts";

const KEYS = [
  "accession_number",
  "transaction_id",
  "filed_at",
  "ticker_symbol",
  "reporting_owner_cik",
  "code",
  "acquired_disposed_code",
];

/** What the families take, in their wrong-object errors. */
export const TRADES_FRAME = "a trades frame (insider.search(...).frame())";

/** Checks that `df` is a trades frame with `cols`; the families' wrong-object error otherwise. */
export function needTrades(df: unknown, cols: readonly string[], fn: string): void {
  expectFrame(fn, df, { pass: TRADES_FRAME, columns: cols, field: "frame" });
}

/** Columns `winRates` reads: the win-rate family of the field catalog. */
export const WIN_RATE_COLUMNS: readonly string[] = WIN_RATE_FIELDS;

/** Columns `forwardReturns` reads. */
export const FORWARD_COLUMNS: readonly string[] = [
  ...FORWARD_WINDOWS.flatMap((w) => [`returns_${w}`, `excess_returns_${w}`]),
  "returns_latest",
];

/**
 * One block of a long frame: the key columns the frame has, `labels` as
 * constant columns (text as String, numbers and null as Int32), then `values`.
 */
function block(
  df: pl.DataFrame,
  labels: Record<string, string | number | null>,
  values: pl.Expr[],
): pl.DataFrame {
  return df.select(
    ...KEYS.filter((k) => df.columns.includes(k)).map((k) => pl.col(k)),
    ...Object.entries(labels).map(([name, v]) =>
      pl.lit(v).cast(typeof v === "string" ? pl.Utf8 : pl.Int32).alias(name)
    ),
    ...values,
  );
}

/** The labels of a window: its name, its order and its length in days. */
const windowLabels = (w: string, i: number) => ({
  window: w,
  window_order: i,
  window_days: WINDOW_DAYS[w],
});

function stack(parts: pl.DataFrame[]): Frame {
  return asFrame(pl.concat(parts, { how: "vertical", rechunk: true }), false, parts.some(isDemo));
}

const f64 = (e: pl.Expr, name: string) => e.cast(pl.Float64).alias(name);

/**
 * Win rates in long form: one row per trade × scope (`all`, `bullish`,
 * `bearish`) × window (1w…2y) with `pct`, `wins`, `total`, and
 * `pct_mismatch` true where pct ≠ 100·wins/total (both null when total is 0
 * counts as consistent).
 *
 * @example
 * ```ts
 * import { connect, winRates } from "../../mod.ts";
 * const { insider } = await connect();
 * const long = winRates(await insider.search({}).frame({ maxRows: 200 }));
 * console.log(long.columns); // [...keys, "scope", "window", "window_order", "window_days", "pct", "wins", "total", "pct_mismatch"]
 * ```
 */
export function winRates(df: pl.DataFrame): Frame {
  needTrades(df, WIN_RATE_COLUMNS, "winRates");
  const parts = WIN_RATE_SCOPES.flatMap((s) =>
    WIN_RATE_WINDOWS.map((w, i) => {
      const p = `win_rate_${s}${w}_`;
      return block(df, { scope: s === "" ? "all" : s.slice(0, -1), ...windowLabels(w, i) }, [
        f64(pl.col(p + "pct"), "pct"),
        pl.col(p + "wins").cast(pl.Int64).alias("wins"),
        pl.col(p + "total").cast(pl.Int64).alias("total"),
      ]);
    })
  );
  const long = pl.concat(parts, { how: "vertical", rechunk: true }).withColumns(
    pl.when(pl.col("total").eq(0).or(pl.col("total").isNull()))
      .then(pl.col("pct").isNotNull())
      .otherwise(
        pl.col("pct").isNull().or(
          pl.col("pct").minus(
            pl.col("wins").cast(pl.Float64).mul(100).div(pl.col("total").cast(pl.Float64)),
          ).abs().gt(1e-6),
        ),
      )
      .alias("pct_mismatch"),
  );
  return asFrame(long, false, parts.some(isDemo));
}

/**
 * Forward returns in long form: one row per trade × horizon (1w, 1m, 3m,
 * 6m, 1y, latest) with `return` and `excess_return` (percent; the service
 * has no excess for `latest`, so it is null there). `horizon_days` is null
 * for `latest`.
 *
 * @example
 * ```ts
 * import { connect, forwardReturns } from "../../mod.ts";
 * const { insider } = await connect();
 * const long = forwardReturns(await insider.search({ tradeType: "purchase" }).frame({ maxRows: 200 }));
 * ```
 */
export function forwardReturns(df: pl.DataFrame): Frame {
  needTrades(df, FORWARD_COLUMNS, "forwardReturns");
  const horizons = [...FORWARD_WINDOWS, "latest"] as const;
  return stack(horizons.map((h, i) =>
    block(df, {
      horizon: h,
      horizon_order: i,
      horizon_days: h === "latest" ? null : WINDOW_DAYS[h],
    }, [
      f64(pl.col(`returns_${h}`), "return"),
      f64(h === "latest" ? pl.lit(null) : pl.col(`excess_returns_${h}`), "excess_return"),
    ])
  ));
}

/**
 * The insider's own track record in long form: one row per trade × window
 * (1m…2y) × direction (`all`, `bullish`, `bearish`) with `return` and,
 * where the service has it (3m all/bullish/bearish and 1y all),
 * `excess_return`; otherwise null.
 *
 * @example
 * ```ts
 * import { connect, insiderReturns } from "../../mod.ts";
 * const { insider } = await connect();
 * const long = insiderReturns(await insider.search({}).frame({ maxRows: 100 }));
 * ```
 */
export function insiderReturns(df: pl.DataFrame): Frame {
  needTrades(df, INSIDER_RETURN_FIELDS, "insiderReturns");
  return stack(INSIDER_RETURN_WINDOWS.flatMap((w, i) =>
    INSIDER_RETURN_DIRECTIONS.map((d) => {
      const ex = `insider_excess_returns_${w}${d}`;
      return block(df, { ...windowLabels(w, i), direction: d === "" ? "all" : d.slice(1) }, [
        f64(pl.col(`insider_returns_${w}${d}`), "return"),
        f64(df.columns.includes(ex) ? pl.col(ex) : pl.lit(null), "excess_return"),
      ]);
    })
  ));
}

/**
 * Returns before the trade in long form: one row per trade × window (1d,
 * 1w, 1m, 3m, 6m) with `return` (percent).
 *
 * @example
 * ```ts
 * import { connect, priorReturns } from "../../mod.ts";
 * const { insider } = await connect();
 * const long = priorReturns(await insider.search({}).frame({ maxRows: 100 }));
 * ```
 */
export function priorReturns(df: pl.DataFrame): Frame {
  needTrades(df, PRIOR_RETURN_FIELDS, "priorReturns");
  return stack(
    PRIOR_WINDOWS.map((w, i) =>
      block(df, windowLabels(w, i), [f64(pl.col(`returns_${w}_ago`), "return")])
    ),
  );
}
