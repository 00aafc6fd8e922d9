/**
 * The doctor names the cause first (a wrong key, a lapsed membership, a base
 * URL without its service path, a host that does not answer), with the
 * failed calls folded under it, against the emulator over loopback.
 */
import assert from "node:assert/strict";
import { checkServices, formatReport } from "../../lib/doctor/mod.ts";
import { DEMO_KEYS } from "../../lib/stub/mod.ts";
import { serveStub } from "../../lib/stub/serve.ts";
import { loopback } from "../_loopback.ts";

const WRONG = "sk-live-DIAGNOSE-WRONG-KEY-4c1d";

async function withStub(fn: (url: string) => Promise<void>): Promise<void> {
  const ac = new AbortController();
  const { url, server } = await serveStub({
    port: 0,
    hostname: "127.0.0.1",
    signal: ac.signal,
    seed: 1,
    scale: 0.1,
  });
  try {
    await fn(url);
  } finally {
    ac.abort();
    await server.finished;
  }
}

const live = (url: string, insider: { key: string; base: string }) => ({
  PITCH_API_KEY: DEMO_KEYS.catalog,
  PITCH_BASE_URL: `${url}/catalog`,
  INSIDER_API_KEY: insider.key,
  INSIDER_BASE_URL: insider.base,
});

Deno.test("doctor: every insider call 401 is one diagnosis naming INSIDER_API_KEY, symptoms folded", async () => {
  await withStub(async (url) => {
    const r = await checkServices({ env: live(url, { key: WRONG, base: `${url}/insider` }) });
    assert.equal(r.ok, false);
    assert.equal(r.diagnoses.length, 1);
    const d = r.diagnoses[0];
    assert.equal(d.service, "insider");
    assert.equal(d.cause, "key");
    assert.match(d.message, /every call answered 401.*check INSIDER_API_KEY/);
    assert.ok(d.symptoms.length >= 3, d.symptoms.join("\n"));
    // the 404 on purpose under a refused key is the key's symptom, not a route problem
    assert.ok(
      d.symptoms.some((x) =>
        /key was refused \(401 AuthenticationError\): the 404 form was not checked/.test(x)
      ),
      d.symptoms.join("\n"),
    );
    assert.deepEqual(r.problems, [d.message]);
    const lines = formatReport(r);
    assert.ok(!lines.join("\n").includes("should be a NotFoundError"), lines.join("\n"));
    assert.match(lines[0], /^diagnosis: insider: every call answered 401/);
    assert.match(lines[1], /^ {2}symptom: insider /);
    const all = lines.join("\n") + JSON.stringify(r);
    assert.ok(!all.includes(WRONG), "the key is never printed");
    assert.ok(!all.includes(WRONG.slice(0, 12)), "no part of the key either");
  });
});

Deno.test("doctor: every insider call 403 is 'Premium lapsed'", async () => {
  await withStub(async (url) => {
    const r = await checkServices({
      env: live(url, { key: DEMO_KEYS.insiderLapsed, base: `${url}/insider` }),
    });
    assert.equal(r.diagnoses.length, 1);
    assert.equal(r.diagnoses[0].cause, "premium");
    assert.match(r.diagnoses[0].message, /^insider: every call answered 403: Premium lapsed/);
    assert.match(formatReport(r)[0], /^diagnosis: insider: .*Premium lapsed/);
  });
});

Deno.test("doctor: a base URL without /insider names INSIDER_BASE_URL and the URL it tried", async () => {
  await withStub(async (url) => {
    const r = await checkServices({ env: live(url, { key: DEMO_KEYS.insider, base: url }) });
    assert.equal(r.diagnoses.length, 1);
    const d = r.diagnoses[0];
    assert.equal(d.cause, "base-url");
    assert.ok(d.message.includes(`tried ${url}/api/v1/`), d.message);
    assert.match(d.message, /check INSIDER_BASE_URL; it should end in \/insider/);
    assert.ok(d.message.includes(`e.g. ${url}/insider`), d.message);
    // the 404 on purpose "passed" before; now it is a symptom under the cause
    assert.deepEqual(r.problems, [d.message]);
  });
});

Deno.test("doctor: a host that refuses connections is named with the error", async () => {
  // a port that was free a moment ago: nothing listens there now
  const l = Deno.listen({ port: 0, hostname: "127.0.0.1" });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  await withStub(async (url) => {
    const r = await checkServices({
      env: live(url, { key: WRONG, base: `http://127.0.0.1:${port}/insider` }),
      timeoutMs: 2000,
    });
    assert.equal(r.diagnoses.length, 1);
    const d = r.diagnoses[0];
    assert.equal(d.cause, "unreachable");
    assert.ok(d.message.includes(`127.0.0.1:${port}`), d.message);
    assert.match(d.message, /check INSIDER_BASE_URL and the network/);
    assert.ok(!JSON.stringify(r).includes(WRONG));
  });
});

Deno.test("doctor: a healthy live service gets no diagnosis", async () => {
  await withStub(async (url) => {
    const r = await checkServices({
      env: live(url, { key: DEMO_KEYS.insider, base: `${url}/insider` }),
    });
    assert.deepEqual(r.diagnoses, []);
    assert.deepEqual(r.problems, []);
    assert.equal(r.ok, true);
  });
});

/** A live service that checks the route before the key: unknown ids get 404, everything else 401. */
function routeFirst() {
  return loopback((req) => {
    const path = new URL(req.url).pathname;
    if (/no-such-pitch|0000000000-00-000000/.test(path)) {
      return Response.json({ type: "about:blank", title: "Not Found", status: 404 }, {
        status: 404,
      });
    }
    return Response.json({ type: "about:blank", title: "Unauthorized", status: 401 }, {
      status: 401,
    });
  });
}

Deno.test("doctor: a wrong key on a service that finds the route first (the 404 on purpose answers 404) is still one key diagnosis", async () => {
  const srv = routeFirst();
  try {
    const r = await checkServices({
      env: {
        PITCH_API_KEY: WRONG,
        PITCH_BASE_URL: `${srv.base}/catalog`,
        INSIDER_API_KEY: WRONG,
        INSIDER_BASE_URL: `${srv.base}/insider`,
      },
    });
    assert.deepEqual(r.diagnoses.map((d) => [d.service, d.cause]), [
      ["catalog", "key"],
      ["insider", "key"],
    ]);
    assert.deepEqual(r.problems, r.diagnoses.map((d) => d.message));
    assert.match(
      r.diagnoses[1].message,
      /^insider: every call but the 404 on purpose answered 401 \(missing or invalid API key\): check INSIDER_API_KEY$/,
    );
    const all = formatReport(r).join("\n");
    assert.ok(!all.includes("should be a NotFoundError"), all);
    assert.ok(!all.includes(WRONG.slice(0, 12)), "the key is never printed");
  } finally {
    await srv.close();
  }
});

Deno.test("doctor: a key refused on some calls only is no diagnosis, and its 404 on purpose says the key was refused, not the route", async () => {
  // the lists answer, everything else is refused: a mixed picture, each call its own problem
  await withStub(async (url) => {
    const srv = loopback(async (req) => {
      const u = new URL(req.url);
      if (/\/(search|feeds)$/.test(u.pathname)) {
        const res = await fetch(`${url}${u.pathname}${u.search}`, {
          method: req.method,
          headers: {
            authorization: `Bearer ${DEMO_KEYS.insider}`,
            "content-type": "application/json",
          },
          body: req.method === "POST" ? await req.text() : undefined,
        });
        return new Response(res.body, { status: res.status, headers: res.headers });
      }
      return Response.json({ title: "Unauthorized", status: 401 }, { status: 401 });
    });
    try {
      const r = await checkServices({
        env: live(url, { key: WRONG, base: `${srv.base}/insider` }),
      });
      assert.deepEqual(r.diagnoses, []);
      const probe = r.problems.find((p) =>
        p.includes("GET /transactions/{accessionNumber}/{transactionId}") && /404 form/.test(p)
      );
      assert.ok(probe, r.problems.join("\n"));
      assert.match(probe, /the key was refused \(401 AuthenticationError\)/);
      assert.ok(!r.problems.join("\n").includes("should be a NotFoundError"));
    } finally {
      await srv.close();
    }
  });
});
