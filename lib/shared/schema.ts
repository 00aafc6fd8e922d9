/**
 * zod building blocks shared by the clients' pre-network validation and the
 * emulator's request validation, so both reject the same values with the same
 * words. Every message names the bad value and what is allowed.
 *
 * @module
 */
import { z } from "npm:@hono/zod-openapi@1.6.3";
import { didYouMean } from "./suggest.ts";
import { isoDay } from "./values/mod.ts";

/** A value as it appears in an error message (quoted string, or JSON). */
export function showValue(value: unknown): string {
  if (typeof value === "string") {
    const s = value.length > 60 ? value.slice(0, 57) + "..." : value;
    return JSON.stringify(s);
  }
  if (value === undefined) return "nothing";
  // JSON would print NaN and ±Infinity as null
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  try {
    const s = JSON.stringify(value);
    return s === undefined ? String(value) : s.length > 60 ? s.slice(0, 57) + "..." : s;
  } catch {
    return String(value);
  }
}

/** A closed list of values; `allowed` overrides the list shown for long ones. */
export function oneOf<const T extends readonly [string, ...string[]]>(
  values: T,
  allowed = values.join(", "),
): z.ZodEnum<{ [K in T[number]]: K }> {
  return z.enum(values, {
    error: (i) =>
      `${showValue(i.input)} is not allowed; allowed: ${allowed}${didYouMean(i.input, values)}`,
  });
}

/**
 * An integer in [min, max], given as a number or a string of digits (other
 * strings are rejected as they are, so the message shows what was sent).
 */
export function intIn(min: number, max: number): z.ZodType<number, unknown> {
  const allowed = `an integer from ${min} to ${max}`;
  const err = (i: { input?: unknown }) =>
    `${showValue(i.input)} is not allowed; allowed: ${allowed}`;
  return z.preprocess(
    (v) => typeof v === "string" && /^\s*[-+]?\d+\s*$/.test(v) ? Number(v) : v,
    z.number({ error: err }).int({ error: err }).min(min, { error: err }).max(max, { error: err }),
  ) as unknown as z.ZodType<number, unknown>;
}

/**
 * Whether `s` is a calendar-valid `YYYY-MM-DD` date.
 *
 * @example
 * ```ts
 * import { isIsoDate } from "./schema.ts";
 * isIsoDate("2024-02-29"); // true
 * isIsoDate("2023-02-29"); // false
 * ```
 */
export function isIsoDate(s: string): boolean {
  // the date grammar's canonical reader: one calendar check for requests and answers
  return typeof s === "string" && !Number.isNaN(isoDay(s));
}

/** A calendar-valid `YYYY-MM-DD` date string. */
export function isoDate(): z.ZodString {
  return z.string({ error: (i) => `${showValue(i.input)} is not a date; allowed: YYYY-MM-DD` })
    .refine(isIsoDate, {
      error: (i) => `${showValue(i.input)} is not a calendar date; allowed: YYYY-MM-DD`,
    });
}

/**
 * `true` or `false`, given as a boolean or the strings "true"/"false": the
 * request side, what a caller may pass and the emulator accepts (the specs'
 * `true`/`false`). Answers are read by the wider boolean grammar of
 * `values/boolean.ts`.
 */
export function boolParam(): z.ZodType<boolean, unknown> {
  return z.preprocess(
    (v) => v === "true" ? true : v === "false" ? false : v,
    z.boolean({ error: (i) => `${showValue(i.input)} is not allowed; allowed: true, false` }),
  ) as unknown as z.ZodType<boolean, unknown>;
}

/**
 * A refinement that `from` is not after `to` (both optional `YYYY-MM-DD`
 * strings); the issue names both parameters and their values.
 */
export function ordered<K extends string>(
  from: K,
  to: K,
): (value: Partial<Record<K, string | null>>, ctx: z.RefinementCtx) => void {
  return (value, ctx) => {
    const a = value[from];
    const b = value[to];
    if (a && b && a > b) {
      ctx.addIssue({
        code: "custom",
        path: [from],
        message: `${showValue(a)} is after ${to} ${showValue(b)}; allowed: ${from} <= ${to}`,
      });
    }
  };
}

/** Splits repeated and comma-separated query values into one list. */
export function splitList(v: unknown): unknown {
  if (v === undefined) return undefined;
  const items = Array.isArray(v) ? v : [v];
  return items.flatMap((s) => typeof s === "string" ? s.split(",") : [s]);
}

/** A list parameter: repeat it or comma-separate it. */
export function listParam<T extends z.ZodType>(item: T): z.ZodOptional<z.ZodType<z.output<T>[]>> {
  return (z.preprocess(splitList, z.array(item)) as unknown as z.ZodType<z.output<T>[]>)
    .optional();
}

/** One problem found by validation: the parameter, its bad value, and what is allowed. */
export interface ValidationIssue {
  /** Dotted parameter path, e.g. `limit` or `filter.position.ceo`. */
  param: string;
  /** The offending value as given. */
  value: unknown;
  /** Human message naming the value and the allowed values. */
  message: string;
}

/**
 * Converts zod issues into {@link ValidationIssue}s, reading values from
 * `input`. With the `schema` that failed, an unknown parameter also names
 * its close matches among the parameters allowed there (`tradeTyp` → did
 * you mean "tradeType"?).
 */
export function toIssues(
  error: z.ZodError,
  input: unknown,
  prefix = "",
  schema?: z.ZodType,
): ValidationIssue[] {
  return error.issues.flatMap((i): ValidationIssue[] => {
    if (i.code === "unrecognized_keys") {
      const allowed = keysAt(schema as SchemaNode | undefined, i.path);
      return i.keys.map((k) => {
        const param = prefix + [...i.path, k].join(".");
        return {
          param,
          value: valueAt(input, [...i.path, k]),
          message: `unknown parameter${didYouMean(k, allowed)}`,
        };
      });
    }
    const param = prefix + i.path.filter((p) => typeof p !== "number").join(".");
    return [{ param: param || "(body)", value: valueAt(input, i.path), message: i.message }];
  });
}

/** The parts of a zod 4 schema's definition that lead to an object's keys. */
interface SchemaNode {
  _zod?: {
    def?: {
      type?: string;
      innerType?: SchemaNode;
      in?: SchemaNode;
      element?: SchemaNode;
      shape?: Record<string, SchemaNode>;
    };
  };
}

/** The keys an object schema allows at `path` (through optional, default, pipe, array); [] when unknown. */
function keysAt(schema: SchemaNode | undefined, path: readonly PropertyKey[]): string[] {
  const unwrap = (n: SchemaNode | undefined): SchemaNode | undefined => {
    for (let depth = 0; n && depth < 16; depth++) {
      const d = n._zod?.def;
      const inner = d?.type === "pipe" ? d.in : d?.innerType;
      if (!inner) return n;
      n = inner;
    }
    return n;
  };
  let node = unwrap(schema);
  for (const key of path) {
    const d = node?._zod?.def;
    node = unwrap(typeof key === "number" ? d?.element : d?.shape?.[String(key)]);
  }
  const shape = node?._zod?.def?.shape;
  return shape ? Object.keys(shape) : [];
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let v: unknown = input;
  for (const key of path) {
    if (v === null || v === undefined) return undefined;
    if (typeof key === "number" && typeof v === "string") v = v.split(",")[key];
    else v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** One line per issue: `param: message`. */
export function describeIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => `${i.param}: ${i.message}`).join("; ");
}

/**
 * `true` when two object types name exactly the same keys: a compile-time
 * check that a hand-written TypeScript shape (with its narrow literal and
 * template types) and the zod schema that validates it list the same fields.
 *
 * @example
 * ```ts
 * import type { SameKeys } from "./schema.ts";
 * const ok: SameKeys<{ a?: string }, { a?: unknown }> = true;
 * ```
 */
export type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends
  [never, never] ? true : false;
