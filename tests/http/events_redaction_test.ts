/**
 * `httpEvents` details reach listeners with every known key redacted, and
 * the redacted copy is made only when a listener reads `detail` (once per
 * event), so events no one reads cost no redaction.
 */
import assert from "node:assert/strict";
import { httpEvents } from "../../lib/http/events.ts";
import { knownKeys } from "../../lib/http/_redact.ts";

/** The key: built, not written out. */
const KEY = ["sk", "test", "Qm3vR8xT", "events"].join("-");
knownKeys.register(KEY);

Deno.test("an event's detail reaches each listener with the key redacted at any depth, one copy for all listeners", () => {
  const seen: unknown[] = [];
  const a = (e: Event) => seen.push((e as CustomEvent).detail);
  const b = (e: Event) => seen.push((e as CustomEvent).detail);
  httpEvents.addEventListener("test-redaction", a);
  httpEvents.addEventListener("test-redaction", b);
  try {
    httpEvents.dispatchEvent(
      new CustomEvent("test-redaction", {
        detail: { request: `GET /x?k=${KEY}`, extra: [{ name: `x_${KEY}` }], n: 3 },
      }),
    );
  } finally {
    httpEvents.removeEventListener("test-redaction", a);
    httpEvents.removeEventListener("test-redaction", b);
  }
  assert.equal(seen.length, 2);
  assert.deepEqual(seen[0], {
    request: "GET /x?k=[redacted]",
    extra: [{ name: "x_[redacted]" }],
    n: 3,
  });
  assert.equal(seen[1], seen[0], "both listeners read the same copy");
  // a detail without the key is handed on as it was sent
  const plain = { request: "GET /y" };
  let got: unknown;
  const c = (e: Event) => got = (e as CustomEvent).detail;
  httpEvents.addEventListener("test-redaction", c);
  httpEvents.dispatchEvent(new CustomEvent("test-redaction", { detail: plain }));
  httpEvents.removeEventListener("test-redaction", c);
  assert.equal(got, plain);
});

Deno.test("an event whose detail no listener reads is not redacted (its detail is never walked)", () => {
  let walked = 0;
  const detail = {
    get request() {
      walked++;
      return `GET /x?k=${KEY}`;
    },
  };
  httpEvents.dispatchEvent(new CustomEvent("test-unread", { detail }));
  const count = () => {};
  httpEvents.addEventListener("test-unread", count);
  httpEvents.dispatchEvent(new CustomEvent("test-unread", { detail }));
  httpEvents.removeEventListener("test-unread", count);
  assert.equal(walked, 0, "no listener read the detail: nothing was redacted");
  let got: unknown;
  const read = (e: Event) => got = (e as CustomEvent).detail;
  httpEvents.addEventListener("test-unread", read);
  httpEvents.dispatchEvent(new CustomEvent("test-unread", { detail }));
  httpEvents.removeEventListener("test-unread", read);
  assert.equal(walked, 1);
  assert.deepEqual(got, { request: "GET /x?k=[redacted]" });
});
