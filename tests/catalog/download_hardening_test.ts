/** Issue 11: download URL schemes, streaming to disk, names by UTF-8 bytes, bidi controls. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { CatalogClient, InvalidResponseError, sanitizeFilename } from "../../mod.ts";
import { fakeCatalog } from "./_fake_catalog.ts";

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

Deno.test("download streams to disk: bytes are on disk before the body has ended", async () => {
  const dir = await Deno.makeTempDir();
  const chunk = new Uint8Array(64 * 1024).fill(7);
  let onDiskMidway = -1;
  let pulls = 0;
  const body = () =>
    new ReadableStream<Uint8Array>({
      async pull(c) {
        pulls++;
        if (pulls <= 4) return c.enqueue(chunk.slice());
        // before the last chunk: how much of the file is already on disk?
        for (let i = 0; i < 100 && onDiskMidway < 4 * chunk.length; i++) {
          onDiskMidway = 0;
          for (const e of Deno.readDirSync(dir)) {
            onDiskMidway = Math.max(onDiskMidway, Deno.statSync(join(dir, e.name)).size);
          }
          if (onDiskMidway < 4 * chunk.length) await new Promise((r) => setTimeout(r, 20));
        }
        c.enqueue(chunk.slice());
        c.close();
      },
    });
  const { client } = fakeCatalog({ filename: "big.bin" }, () => new Response(body()));
  const path = await client.download("p1", { dir });
  assert.equal(
    onDiskMidway,
    4 * chunk.length,
    "the first four chunks were written while streaming",
  );
  assert.equal((await Deno.stat(path)).size, 5 * chunk.length);
  assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["big.bin"], "no .part left");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("names are cut to 255 bytes of UTF-8 between characters, numbered names too", async () => {
  const dir = await Deno.makeTempDir();
  const utf8 = (s: string) => new TextEncoder().encode(s).length;
  for (
    const name of [
      "株".repeat(300) + ".pdf", // 3 bytes each: failed with "File name too long"
      "😀".repeat(100) + ".md", // 4 bytes each, surrogate pairs in UTF-16
      "é".repeat(200) + ".csv",
      "x".repeat(400) + ".pdf",
    ]
  ) {
    const safe = sanitizeFilename(name);
    assert.ok(utf8(safe) <= 255, `${utf8(safe)} bytes`);
    assert.ok(utf8(safe) > 240, "cut at the limit, not far below");
    assert.ok(!safe.includes("\ufffd") && safe.isWellFormed(), "no character split");
    assert.equal(safe.slice(safe.lastIndexOf(".")), name.slice(name.lastIndexOf(".")));
    assert.ok(name.startsWith(safe.slice(0, safe.lastIndexOf("."))));
    const { client } = fakeCatalog({ filename: name }, () => new Response("data"));
    const first = await client.download("p1", { dir });
    const second = await client.download("p1", { dir });
    for (const p of [first, second]) {
      const base = p.slice(dir.length + 1);
      assert.ok(utf8(base) <= 255 && base.isWellFormed(), base);
    }
    assert.match(second, /-1\.[a-z]+$/);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("bidirectional control characters are stripped from names", () => {
  assert.equal(sanitizeFilename("invoice\u202Efdp.exe"), "invoicefdp.exe");
  const controls = [
    ...Array.from({ length: 5 }, (_, i) => 0x202a + i),
    ...Array.from({ length: 4 }, (_, i) => 0x2066 + i),
    0x200e,
    0x200f,
    0x061c,
  ].map((c) => String.fromCodePoint(c));
  for (const c of controls) {
    assert.equal(
      sanitizeFilename(`a${c}b${c}.pdf`),
      "ab.pdf",
      `U+${c.codePointAt(0)!.toString(16)}`,
    );
  }
  assert.equal(sanitizeFilename(controls.join("")), "document");
});

Deno.test("a non-string filename is a clear error naming the value", async () => {
  for (const bad of [42, null, undefined, ["a.pdf"], { name: "a.pdf" }]) {
    assert.throws(
      () => sanitizeFilename(bad as unknown as string),
      (e: Error) =>
        e instanceof TypeError && /filename .* is not allowed; allowed: a string/.test(e.message) &&
        e.message.includes(String(JSON.stringify(bad) ?? bad)),
    );
  }
  const dir = await Deno.makeTempDir();
  const { client, fetched } = fakeCatalog({ filename: 42 }, () => new Response("data"));
  const err = await client.download("p1", { dir }).then(() => assert.fail("saved"), (e) => e);
  assert.ok(err instanceof InvalidResponseError, String(err));
  assert.match(err.message, /filename is 42 \(number\), not a string/);
  assert.deepEqual(fetched.filter((u) => !u.includes("/document")), [], "nothing fetched");
  assert.deepEqual([...Deno.readDirSync(dir)], []);
  await Deno.remove(dir, { recursive: true });
});
