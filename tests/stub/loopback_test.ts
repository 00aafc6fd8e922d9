import assert from "node:assert/strict";
import { DEMO_KEYS } from "../../lib/stub/mod.ts";
import { startStubTask } from "./_helpers.ts";

Deno.test({
  name: "deno task stub serves both services over loopback after printing its ready line",
  sanitizeResources: false,
  fn: async () => {
    const { base, stop } = await startStubTask(["--port", "0", "--seed", "3", "--scale", "0.1"]);
    try {
      const a = await fetch(`${base}/catalog/api/v1/pitches?limit=2`, {
        headers: { authorization: `Bearer ${DEMO_KEYS.catalog}` },
      });
      assert.equal((await a.json()).data.length, 2);
      const b = await fetch(`${base}/insider/api/v1/search`, {
        method: "POST",
        headers: { authorization: `Bearer ${DEMO_KEYS.insider}` },
        body: JSON.stringify({ pagination: { pageSize: 3 } }),
      });
      assert.equal((await b.json()).data.length, 3);
      const c = await fetch(`${base}/insider/api/v1/openapi.json`);
      assert.equal((await c.json()).info.version, "1.0.0");
    } finally {
      await stop();
    }
  },
});

Deno.test("deno task stub rejects a bad flag value with exit code 2 naming it", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "stub", "--fail-rate", "2"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 2);
  assert.match(new TextDecoder().decode(out.stderr), /--fail-rate "2" is not allowed/);
});
