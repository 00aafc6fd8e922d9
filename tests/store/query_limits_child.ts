/**
 * Child of `query_limits_test.ts`: runs one `query(sql, { dir, timeoutMs })`
 * in a process of its own (no other test shares it) and prints one JSON
 * line: how much this caller's resident memory grew (VmRSS after − before),
 * and the error's class and limit.
 *
 * @module
 */
import { query, QueryLimitError } from "../../mod.ts";

const [sql, dir, timeoutMs] = Deno.args;
const rss = () =>
  Number(/VmRSS:\s*(\d+) kB/.exec(Deno.readTextFileSync("/proc/self/status"))![1]) * 1024;
await query("select 1", { dir }); // the first query's own start-up is not the value's
const before = rss();
const error = await query(sql, { dir, timeoutMs: Number(timeoutMs) }).then(() => null, (e) => e);
console.log(JSON.stringify({
  grown: rss() - before,
  limitError: error instanceof QueryLimitError,
  limit: error?.limit ?? null,
}));
