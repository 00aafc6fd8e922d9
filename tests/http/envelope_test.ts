/** The envelope mechanics every client reader uses (issue 21, Deliver 2 and 3). */
import assert from "node:assert/strict";
import { readList, readOne } from "../../lib/http/_envelope.ts";
import { describeValue, httpEvents, InvalidResponseError, type ShapeInfo } from "../../mod.ts";

const spec = {
  endpoint: "GET /x",
  what: "rows",
  containers: ["data"],
  cursors: ["next_cursor"],
  flags: ["has_more"],
};

Deno.test("readList: a has-more flag that says false wins over a cursor; no flag pages on the cursor", () => {
  assert.equal(readList({ data: [], next_cursor: "c", has_more: false }, spec).next, null);
  assert.equal(readList({ data: [], next_cursor: "c" }, spec).next, "c");
  assert.equal(readList({ data: [], nextCursor: 7 }, spec).next, "7");
  assert.equal(readList({ data: [], next_cursor: "", hasMore: "false" }, spec).next, null);
});

Deno.test("readList: the only list, or cursor and flag one object down", () => {
  // the forms found, as the shape events announce them
  const shapes: Record<string, string> = {};
  const seen = (e: Event) => {
    const { point, shape } = (e as CustomEvent<ShapeInfo>).detail;
    shapes[point] = shape;
  };
  httpEvents.addEventListener("shape", seen);
  try {
    const r = readList({ entries: [{ a: 1 }], meta: { hasMore: true, nextCursor: "n2" } }, spec);
    assert.equal(shapes["list container"], '"entries"');
    assert.equal(r.next, "n2");
    assert.equal(r.cursorKey, "meta.nextCursor");
    assert.equal(shapes["has-more flag"], '"meta.hasMore"');
    readList({ result: { data: [{ a: 1 }], next_cursor: null } }, spec);
    assert.equal(shapes["list container"], '"result.data"');
  } finally {
    httpEvents.removeEventListener("shape", seen);
  }
});

Deno.test("readList: unknown forms name the endpoint, what was expected and the keys", () => {
  assert.throws(
    () => readList({ a: [1], b: [2] }, spec),
    /GET \/x: expected rows as a list \(under "data", or the only list in the answer\); got a JSON object with keys "a", "b"/,
  );
  assert.throws(() => readList([{ a: 1 }], spec), /got a JSON array of 1/);
  assert.deepEqual(readList([{ a: 1 }], { ...spec, bare: true }).rows, [{ a: 1 }]);
  assert.throws(
    () => readList({ data: [{ a: 1 }, 5] }, spec),
    /rows 1 of 2 \(under "data"\) is a number/,
  );
  assert.throws(() => readList("x", spec), InvalidResponseError);
});

Deno.test("readOne: bare, or wrapped in exactly one object", () => {
  const is = (v: Record<string, unknown>) => "id" in v;
  assert.deepEqual(readOne({ id: 1 }, "GET /y", "an item", is), { id: 1 });
  assert.deepEqual(readOne({ item: { id: 1 }, meta: {} }, "GET /y", "an item", is), { id: 1 });
  assert.throws(
    () => readOne({ a: { id: 1 }, b: { id: 2 } }, "GET /y", "an item", is),
    /GET \/y: expected an item, bare or wrapped in one object; got a JSON object with keys "a", "b"/,
  );
});

Deno.test("paging values are read exactly or refused loudly, naming the key and describing the value", async (t) => {
  const spec = {
    endpoint: "GET /x",
    what: "rows",
    containers: ["data"],
    cursors: ["next_cursor"],
    flags: ["has_more"],
  };
  const page = (extra: Record<string, unknown>) => readList({ data: [{ a: 1 }], ...extra }, spec);
  await t.step("a cursor sent as an integer within 2^53 is its digits", () => {
    assert.equal(page({ next_cursor: 9007199254740991 }).next, "9007199254740991");
    assert.equal(page({ next_cursor: "12345678901234567890" }).next, "12345678901234567890");
    assert.equal(page({ next_cursor: null }).next, null);
  });
  for (const bad of [12345678901234567890, 1e21, 1.5, { after: "x" }, [1]]) {
    await t.step(`a cursor sent as ${JSON.stringify(bad)} is refused`, () => {
      assert.throws(() => page({ next_cursor: bad }), (e: Error) => {
        assert.equal(e.name, "InvalidResponseError");
        assert.match(e.message, /GET \/x: next_cursor expected a cursor/);
        assert.ok(e.message.includes(describeValue(bad)), e.message);
        return true;
      });
    });
  }
  await t.step("a has-more flag that does not read is refused, not skipped", () => {
    assert.equal(page({ next_cursor: "c", has_more: "false" }).next, null);
    assert.equal(page({ next_cursor: "c", has_more: 1 }).next, "c");
    for (const bad of ["maybe", 2, "yes"]) {
      assert.throws(() => page({ next_cursor: "c", has_more: bad }), (e: Error) => {
        assert.match(e.message, /GET \/x: has_more expected a has-more flag/);
        assert.ok(e.message.includes(describeValue(bad)), e.message);
        return true;
      });
    }
  });
});

Deno.test("a next pointer the client does not read is loud wherever it stands: a number under a next name, or two objects down; a page number, an offset or a has-next flag beside a last page is not", () => {
  const spec = {
    endpoint: "GET /x",
    what: "rows",
    containers: ["data"],
    cursors: ["next_cursor"],
    flags: ["has_more", "has_next"],
  };
  for (
    const [body, key] of [
      [{ data: [{ a: 1 }], next_page: 2 }, "next_page"],
      [{ data: [{ a: 1 }], meta: { paging: { next_cursor: 2 } } }, "meta.paging.next_cursor"],
      [{ data: [{ a: 1 }], meta: { paging: { after_token: "t2" } } }, "meta.paging.after_token"],
      [{ data: [{ a: 1 }], links: { more: { next_url: "/x?page=2" } } }, "links.more.next_url"],
      [{ result: { data: [{ a: 1 }], next_offset: 100 } }, "result.next_offset"],
    ] as const
  ) {
    assert.throws(
      () => readList(body, spec),
      (e: Error) => e.name === "InvalidResponseError" && e.message.includes(JSON.stringify(key)),
      key,
    );
  }
  for (
    const body of [
      { data: [{ a: 1 }], page: 1, total_pages: 1, offset: 0 },
      { data: [{ a: 1 }], has_next: 0 },
      { data: [{ a: 1 }], meta: { page: { number: 1, size: 20 }, next: null } },
    ]
  ) {
    assert.equal(readList(body, spec).next, null, JSON.stringify(body));
  }
});
