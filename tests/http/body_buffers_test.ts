/**
 * Reading a network answer leaves no 64 KiB buffers behind: a byte stream is
 * read into a buffer of our own, sized to the announced length (one byte
 * more, to see a longer body), and the bytes are returned without a copy;
 * a stream that is not a byte stream is still read chunk by chunk.
 */
import assert from "node:assert/strict";
import { readBody, ResponseTooLargeError } from "../../lib/http/_body.ts";
import { loopback } from "../_loopback.ts";

const BODY = JSON.stringify({ data: Array.from({ length: 200 }, (_, i) => ({ id: i })) });

Deno.test("a network answer with a Content-Length is read into one buffer of that length", async () => {
  const srv = loopback(() =>
    new Response(BODY, { headers: { "content-type": "application/json" } })
  );
  try {
    const res = await fetch(`${srv.base}/x`);
    const announced = Number(res.headers.get("content-length"));
    assert.equal(announced, BODY.length);
    const bytes = await readBody(res, 1 << 20, "test");
    assert.equal(new TextDecoder().decode(bytes), BODY);
    // the reader's own buffer (announced + 1 bytes), not a view of Deno's 64 KiB ones nor a copy
    assert.equal(bytes.buffer.byteLength, announced + 1);
  } finally {
    await srv.close();
  }
});

Deno.test("a network answer without a length is read into buffers of our own, whole", async () => {
  const big = BODY.repeat(40); // past the first 64 KiB buffer
  const srv = loopback(() =>
    new Response(
      ReadableStream.from([big.slice(0, 1000), big.slice(1000)]).pipeThrough(
        new TextEncoderStream(),
      ),
    )
  );
  try {
    const bytes = await readBody(await fetch(`${srv.base}/x`), 1 << 20, "test");
    assert.equal(new TextDecoder().decode(bytes), big);
  } finally {
    await srv.close();
  }
});

Deno.test("a byte stream without a length that runs past the limit is refused, naming it", async () => {
  const srv = loopback(() =>
    new Response(ReadableStream.from([BODY]).pipeThrough(new TextEncoderStream()))
  );
  try {
    await assert.rejects(
      readBody(await fetch(`${srv.base}/x`), 100, "test"),
      (e: unknown) => e instanceof ResponseTooLargeError && e.limit === 100,
    );
  } finally {
    await srv.close();
  }
});

Deno.test("a body that is not a byte stream is read chunk by chunk", async () => {
  const stream = ReadableStream.from([BODY.slice(0, 10), BODY.slice(10)]).pipeThrough(
    new TextEncoderStream(),
  );
  const bytes = await readBody(new Response(stream), 1 << 20, "test");
  assert.equal(new TextDecoder().decode(bytes), BODY);
});
