/** Issue 11: download URL schemes, streaming to disk, names by UTF-8 bytes, bidi controls. */
import assert from "node:assert/strict";
import { CatalogClient } from "../../mod.ts";

/** A fake catalog whose document answer is `doc`; records every URL fetched. */
function fakeCatalog(doc: Record<string, unknown>, file: (url: string) => Response) {
  const fetched: string[] = [];
  const fetch = (input: Request | URL | string) => {
    const url = input instanceof Request ? input.url : String(input);
    fetched.push(url);
    if (new URL(url).pathname.endsWith("/document")) {
      return Promise.resolve(
        Response.json({
          url: "http://files.test/blob",
          format: "pdf",
          artifact: null,
          snapshot: "s",
          filename: "doc.pdf",
          expires_in_seconds: 60,
          ...doc,
        }),
      );
    }
    return Promise.resolve(file(url));
  };
  return {
    client: new CatalogClient({ apiKey: "k", baseUrl: "http://fake/catalog", fetch }),
    fetched,
  };
}

Deno.test("download refuses document URLs other than http/https before reading anything", async () => {
  const dir = await Deno.makeTempDir();
  for (
    const [url, scheme] of [
      ["file:///etc/hostname", "file:"],
      ["data:text/plain,hello", "data:"],
      ["blob:http://x/1", "blob:"],
      ["ftp://files.test/x", "ftp:"],
      ["javascript:alert(1)", "javascript:"],
    ]
  ) {
    const { client, fetched } = fakeCatalog({ url }, () => new Response("stolen"));
    const err = await client.download("p1", { dir }).then(
      () => assert.fail(`${url} was downloaded`),
      (e) => e,
    );
    assert.equal(err.name, "UnsupportedUrlError", `${url}: ${err}`);
    assert.equal(err.scheme, scheme);
    assert.ok(err.message.includes(JSON.stringify(scheme)), err.message);
    assert.match(err.message, /allowed schemes: http:, https:/);
    assert.deepEqual(fetched.filter((u) => !u.includes("/document")), [], "nothing else fetched");
  }
  // a redirect from an http URL to a file: URL is refused too
  const { client, fetched } = fakeCatalog(
    {},
    (u) =>
      u.startsWith("http://files.test/")
        ? new Response(null, { status: 302, headers: { location: "file:///etc/hostname" } })
        : new Response("stolen"),
  );
  const err = await client.download("p1", { dir }).then(() => assert.fail("followed"), (e) => e);
  assert.equal(err.name, "UnsupportedUrlError");
  assert.equal(err.scheme, "file:");
  assert.deepEqual(fetched.filter((u) => !u.includes("/document")), ["http://files.test/blob"]);
  assert.deepEqual([...Deno.readDirSync(dir)], [], "nothing saved");
  // the real fetch on a file: URL is never reached either
  const real = new CatalogClient({
    apiKey: "k",
    baseUrl: "http://fake/catalog",
    fetch: (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.includes("/document")) {
        return Promise.resolve(Response.json({ url: "file:///etc/hostname", filename: "h" }));
      }
      return fetch(input, init);
    },
  });
  await assert.rejects(real.download("p1", { dir }), /refusing to read "file:" URL/);
  assert.deepEqual([...Deno.readDirSync(dir)], [], "nothing saved");
  await Deno.remove(dir, { recursive: true });
});
