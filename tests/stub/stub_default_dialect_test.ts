import assert from "node:assert/strict";
import { auth, startStubTask } from "./_helpers.ts";
import { DEMO_KEYS } from "../../lib/stub/mod.ts";

Deno.test({
  name:
    "deno task stub without --dialect (or --dialect default) says nothing of a dialect on stderr",
  sanitizeResources: false,
  fn: async () => {
    for (const extra of [[], ["--dialect", "default"]]) {
      const { base, stop } = await startStubTask(
        ["--port", "0", "--scale", "0.05", ...extra],
        true,
      );
      let err = "";
      try {
        const res = await fetch(`${base}/insider/api/v1/feeds?feed_id=17&limit=2`, {
          headers: auth(DEMO_KEYS.insider),
        });
        assert.equal(res.status, 200);
        await res.body?.cancel();
      } finally {
        err = await stop();
      }
      assert.doesNotMatch(err, /dialect/, `${extra.join(" ") || "no flag"}: ${err}`);
    }
  },
});
