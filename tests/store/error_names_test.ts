/**
 * The store's query errors name themselves: `name` (and so `String(e)` and
 * a stack's first line) is each class's own, and each is a `QueryError`.
 */
import assert from "node:assert/strict";
import { DatasetFileError, QueryError, QueryLimitError, StateFileError } from "../../mod.ts";

Deno.test("QueryError and its subclasses carry their own names", () => {
  const errors = [
    new QueryError("query: bad", "select 1"),
    new QueryLimitError("maxRows", 5, "too many rows", "select 1"),
    new StateFileError("manifest.json", "format", "is 1; expected a format"),
    new DatasetFileError("data (1).parquet", "is not a part"),
  ];
  assert.deepEqual(
    errors.map((e) => e.name),
    ["QueryError", "QueryLimitError", "StateFileError", "DatasetFileError"],
  );
  for (const e of errors) {
    assert.ok(e instanceof QueryError);
    assert.ok(String(e).startsWith(`${e.name}: `), String(e));
  }
});
