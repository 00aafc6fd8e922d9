import assert from "node:assert/strict";
import { DEMO_KEYS } from "../../lib/stub/mod.ts";
import type { Pitch } from "../../lib/stub/catalog/catalog_data.ts";
import { auth, cat, expectProblem, ok, stub, stubWith } from "./_helpers.ts";

type Doc = {
  url: string;
  format: string | null;
  artifact: string | null;
  snapshot: string;
  filename: string;
  expires_in_seconds: number;
};

function find(pred: (p: Pitch) => boolean): Pitch {
  const s = stub();
  const p = s.catalog.pitches.find((x) => !s.catalog.locked(x) && pred(x));
  assert.ok(p, "no such demo pitch");
  return p;
}

const docOf = async (id: string, q = "") => await ok<Doc>(await cat(`/pitches/${id}/document${q}`));

Deno.test("document rule 1: JSON form with every field; default best format pdf > mhtml > md", async () => {
  const withPdf = find((p) => p.archive.available && p.archive.formats.includes("pdf"));
  const d = await docOf(withPdf.pitch_id);
  assert.deepEqual(Object.keys(d).sort(), [
    "artifact",
    "expires_in_seconds",
    "filename",
    "format",
    "snapshot",
    "url",
  ]);
  assert.equal(d.format, "pdf");
  assert.equal(d.artifact, null);
  assert.equal(d.expires_in_seconds, 300);
  assert.equal(d.snapshot, withPdf.archive.snapshots.at(-1)!.id);
  const mdOnly = find((p) =>
    p.archive.available && !p.archive.formats.includes("pdf") &&
    !p.archive.formats.includes("mhtml")
  );
  assert.equal((await docOf(mdOnly.pitch_id)).format, "md");
  const mhtml = find((p) =>
    p.archive.available && !p.archive.formats.includes("pdf") && p.archive.formats.includes("mhtml")
  );
  assert.equal((await docOf(mhtml.pitch_id)).format, "mhtml");
});

Deno.test("document rule 2: format and artifact together are 400", async () => {
  const p = find((p) => p.archive.available);
  const detail = await expectProblem(
    await cat(`/pitches/${p.pitch_id}/document?format=pdf&artifact=attachment`),
    400,
  );
  assert.match(detail, /artifact.*format/);
  for (
    const [k, v] of [["format", "docx"], ["artifact", "image"], ["redirect", "maybe"], [
      "disposition",
      "open",
    ]]
  ) {
    const d = await expectProblem(await cat(`/pitches/${p.pitch_id}/document?${k}=${v}`), 400);
    assert.ok(d.includes(`${k}: "${v}"`), d);
  }
});

Deno.test("document rule 3: a lapsed membership is 403 premium-required", async () => {
  const p = find((p) => p.archive.available);
  const res = await stub().app.request(`/catalog/api/v1/pitches/${p.pitch_id}/document`, {
    headers: auth(DEMO_KEYS.catalogLapsed),
  });
  await expectProblem(res, 403, "premium-required");
});

Deno.test("document rule 4: a paywalled author's pitch without access is 403; with access 200", async () => {
  const s = stub();
  const locked = s.catalog.pitches.find((p) => s.catalog.locked(p))!;
  await expectProblem(
    await cat(`/pitches/${locked.pitch_id}/document`),
    403,
    "author-access-required",
  );
  const readable = s.catalog.pitches.find((p) =>
    p.premium && !s.catalog.locked(p) && p.archive.available
  );
  assert.ok(readable);
  assert.equal((await cat(`/pitches/${readable.pitch_id}/document`)).status, 200);
});

Deno.test("document rule 5: missing pitch, unfinished archive, absent format/snapshot/attachment are 404", async () => {
  await expectProblem(await cat(`/pitches/p_nope/document`), 404, "not-found");
  const unfinished = find((p) => !p.archive.available);
  await expectProblem(
    await cat(`/pitches/${unfinished.pitch_id}/document`),
    404,
    "archive-not-found",
  );
  const noPdf = find((p) => p.archive.available && !p.archive.formats.includes("pdf"));
  await expectProblem(
    await cat(`/pitches/${noPdf.pitch_id}/document?format=pdf`),
    404,
    "archive-not-found",
  );
  const noAtt = find((p) => p.archive.available && !p.archive.has_attachment);
  await expectProblem(await cat(`/pitches/${noAtt.pitch_id}/document?artifact=attachment`), 404);
  await expectProblem(await cat(`/pitches/${noAtt.pitch_id}/document?snapshot=snap_nope`), 404);
});

Deno.test("document rule 6: signing failure is 503", async () => {
  const s = stubWith({ signingFails: true });
  const p = s.catalog.pitches.find((x) => !s.catalog.locked(x) && x.archive.available)!;
  await expectProblem(await cat(`/pitches/${p.pitch_id}/document`, s), 503, "signing-failed");
});

Deno.test("attachment: artifact set, format null; snapshot selects an older capture", async () => {
  const p = find((p) => p.archive.available && p.archive.has_attachment);
  const d = await docOf(p.pitch_id, "?artifact=attachment");
  assert.equal(d.artifact, "attachment");
  assert.equal(d.format, null);
  assert.match(d.filename, /attachment\.csv$/);
  const two = find((p) => p.archive.available && p.archive.snapshots.length === 2);
  const old = two.archive.snapshots[0].id;
  assert.equal((await docOf(two.pitch_id, `?snapshot=${old}`)).snapshot, old);
});

Deno.test("redirect 1/true/yes answer 302 to the signed URL; 0/false/no answer JSON", async () => {
  const p = find((p) => p.archive.available);
  for (const v of ["1", "true", "yes"]) {
    const res = await cat(`/pitches/${p.pitch_id}/document?redirect=${v}`);
    assert.equal(res.status, 302);
    assert.match(res.headers.get("location")!, /\/catalog\/files\//);
  }
  for (const v of ["0", "false", "no"]) {
    assert.equal((await docOf(p.pitch_id, `?redirect=${v}`)).snapshot.length > 0, true);
  }
});

Deno.test("signed URLs serve real artifacts with content-disposition and reject tampering and expiry", async () => {
  let clock = Date.parse("2026-11-20T12:00:00Z");
  const s = stubWith({ now: () => clock });
  const get = (u: string) => s.app.request(u.replace(/^https?:\/\/[^/]+/, ""));
  const p = s.catalog.pitches.find((x) =>
    !s.catalog.locked(x) && x.archive.formats.includes("pdf") && x.archive.available
  )!;
  const d = await ok<Doc>(await cat(`/pitches/${p.pitch_id}/document?format=pdf`, s));
  const res = await get(d.url);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "application/pdf");
  assert.equal(res.headers.get("content-disposition"), `attachment; filename="${d.filename}"`);
  const bytes = new TextDecoder().decode(await res.arrayBuffer());
  assert.ok(bytes.startsWith("%PDF-1.4"));
  assert.ok(bytes.trimEnd().endsWith("%%EOF"));
  const xref = Number(/startxref\n(\d+)/.exec(bytes)![1]);
  assert.equal(bytes.slice(xref, xref + 4), "xref");
  const inline = await ok<Doc>(await cat(`/pitches/${p.pitch_id}/document?disposition=inline`, s));
  assert.match((await get(inline.url)).headers.get("content-disposition")!, /^inline;/);
  const tampered = d.url.replace("disposition=attachment", "disposition=inline");
  await expectProblem(await get(tampered), 403, "invalid-signature");
  await expectProblem(await get(d.url.replace(p.pitch_id, "p_other")), 403, "invalid-signature");
  clock += 301_000;
  await expectProblem(await get(d.url), 403, "url-expired");
});

Deno.test("each format is a real file: MHTML multipart, Markdown, CSV attachment", async () => {
  const s = stub();
  const get = (u: string) => s.app.request(u.replace(/^https?:\/\/[^/]+/, ""));
  const mh = find((p) => p.archive.available && p.archive.formats.includes("mhtml"));
  const r1 = await get((await docOf(mh.pitch_id, "?format=mhtml")).url);
  const t1 = await r1.text();
  assert.match(t1, /^From: .*\r\nSubject: /);
  assert.match(t1, /Content-Type: multipart\/related; type="text\/html"; boundary="([^"]+)"/);
  const md = find((p) => p.archive.available && p.archive.formats.includes("md"));
  const t2 = await (await get((await docOf(md.pitch_id, "?format=md")).url)).text();
  assert.match(t2, /^# /);
  const att = find((p) => p.archive.available && p.archive.has_attachment);
  const r3 = await get((await docOf(att.pitch_id, "?artifact=attachment")).url);
  assert.match(r3.headers.get("content-type")!, /text\/csv/);
  assert.match(await r3.text(), /^metric,value\n/);
});
