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

/** A value type the clients read. */
export type ValueType =
  | "date"
  | "timestamp"
  | "decimal"
  | "integer"
  | "boolean"
  | "list"
  | "code";

/**
 * One value type's grammar: the encodings it reads and what it refuses.
 * `read` never throws: it gives the value, or {@link UNREADABLE}.
 */
export interface Grammar<T> {
  /** The type. */
  readonly type: ValueType;
  /** What a value reads as (`"days since 1970-01-01"`), for the docs. */
  readonly means: string;
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
