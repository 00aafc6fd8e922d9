/**
 * What every grammar shares: the unreadable mark, the note callback and the
 * grammar interface (see `mod.ts` for the table of grammars).
 *
 * @module
 */

/** What a grammar gives for a value outside it. */
export const UNREADABLE: unique symbol = Symbol("unreadable");

/** Called with the form a value was read from, when it is not the canonical one. */
export type Note = (form: string) => void;

/**
 * The value types, with what each reads as: the one list of column kinds.
 * Every other view of a type is a total map from this list that the
 * compiler checks (`Record<ValueType, …>` or a `switch` with no
 * `default`): its grammar (`GRAMMARS`), a frame's Polars dtype
 * (`frames/dtypes.ts`), its Arrow type and buffer (`frames/_arrow.ts`) and
 * the builder's inline reader (`frames/build.ts`); the doctor has no view of
 * its own (it reads the frame's report of the grammars' notes). A type added
 * here and not mapped there fails `deno task check`.
 */
export interface ValueOf {
  /** A calendar day: days since 1970-01-01. */
  date: number;
  /** An instant: milliseconds since 1970-01-01T00:00:00Z. */
  timestamp: number;
  /** A finite number. */
  decimal: number;
  /** An integer within ±(2^53 − 1). */
  integer: number;
  /** True or false. */
  boolean: boolean;
  /** Text (codes, identifiers, names), as sent. */
  code: string;
  /** A list of integers. */
  list: number[];
  /** A list of text. */
  text_list: string[];
}

/** A value type the clients read (see {@link ValueOf}). */
export type ValueType = keyof ValueOf;

/**
 * One value type's grammar: the encodings it reads and what it refuses.
 * `read` never throws: it gives the value, or {@link UNREADABLE}.
 */
export interface Grammar<T> {
  /** The type. */
  readonly type: ValueType;
  /** The accepted forms, in words, canonical first. */
  readonly forms: readonly string[];
  /** What is refused, in words. */
  readonly refused: readonly string[];
  /** The value of `v` (never null or undefined), or {@link UNREADABLE}. */
  read(v: unknown, note: Note): T | typeof UNREADABLE;
  /** The item grammar of a list grammar. */
  readonly item?: Grammar<unknown>;
  /** The value as a typed row holds it (a date as `YYYY-MM-DD`, a timestamp as ISO text). */
  row(t: T): unknown;
}

/** A note that records nothing. */
export const IGNORE: Note = (): void => {};
