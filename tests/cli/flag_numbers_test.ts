/**
 * A whole-number flag is plain decimal digits (cli/args.ts Flags.int:
 * `0x10`, `1e3`, `1.0`, ` 5` are refused, each problem naming the value);
 * a decimal flag takes `2.5` but no exponent.
 */
import assert from "node:assert/strict";
import { Flags } from "../../lib/cli/args.ts";

Deno.test("Flags.int: only decimal digits; each refused value is named", () => {
  for (const raw of ["1.0", "0x10", "1e3", " 5", "5 ", "+5", "-1", ""]) {
    const f = new Flags("sync", {}, []);
    assert.equal(f.int("concurrency", raw, 4, 0, 64), 4, raw);
    assert.equal(f.issues.length, 1, raw);
    assert.ok(f.issues[0].includes(`"${raw}"`) || f.issues[0].includes(raw), f.issues[0]);
    assert.match(f.issues[0], /^--concurrency/);
  }
  const ok = new Flags("sync", {}, []);
  assert.equal(ok.int("concurrency", "16", 4, 0, 64), 16);
  assert.equal(ok.int("concurrency", undefined, 4, 0, 64), 4);
  assert.equal(ok.num("rate", "2.5", 1, 0, 10), 2.5);
  assert.equal(ok.issues.length, 0);
  ok.num("rate", "1e0", 1, 0, 10);
  assert.equal(ok.issues.length, 1);
});
