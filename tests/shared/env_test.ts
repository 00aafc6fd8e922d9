/**
 * One table of every environment variable signalbook reads (`ENV_VARS`,
 * `lib/shared/env.ts`): each variable named in `lib/` is in it, and the
 * services' variables are the ones `connect()` reads.
 */
import assert from "node:assert/strict";
import { ENV_VARS, envVar, readEnvironment } from "../../lib/shared/env.ts";
import { SERVICE_VARS } from "../../lib/connect/env.ts";

const LIB = new URL("../../lib/", import.meta.url);

function* files(dir: URL): Generator<URL> {
  for (const e of Deno.readDirSync(dir)) {
    const u = new URL(e.name + (e.isDirectory ? "/" : ""), dir);
    if (e.isDirectory) yield* files(u);
    else if (e.name.endsWith(".ts")) yield u;
  }
}

Deno.test("every environment variable read in lib/ is in ENV_VARS", () => {
  const read = new Map<string, string>();
  const pattern = /(?:\benv\.get|envVar|\benv)\(\s*"([A-Za-z_][A-Za-z0-9_]*)"/g;
  for (const f of files(LIB)) {
    const text = Deno.readTextFileSync(f);
    for (const m of text.matchAll(pattern)) read.set(m[1], f.pathname.split("/lib/")[1]);
  }
  assert.ok(read.size >= 5, `found ${[...read.keys()].join(", ")}`);
  const missing = [...read].filter(([name]) => !(name in ENV_VARS));
  assert.deepEqual(missing, [], "read but not in the table");
  for (const v of Object.values(SERVICE_VARS)) {
    assert.ok(v.key in ENV_VARS && v.url in ENV_VARS, `${v.key}, ${v.url}`);
  }
});

Deno.test("readEnvironment: empty counts as unset; a record lists its names; envVar gives the default", () => {
  const env = readEnvironment({ A: "1", B: "", C: undefined });
  assert.deepEqual(env.names, ["A"]);
  assert.equal(env.get("B"), undefined);
  assert.equal(readEnvironment(() => "").get("X"), undefined);
  assert.equal(readEnvironment((n) => n === "X" ? "v" : undefined).names, undefined);
  assert.equal(envVar("SIGNALBOOK_PYTHON", readEnvironment({})), "/usr/bin/python3");
  assert.equal(envVar("SIGNALBOOK_PYTHON", readEnvironment({ SIGNALBOOK_PYTHON: "/x" })), "/x");
  assert.equal(envVar("INIT_CWD", readEnvironment({})), undefined);
});
