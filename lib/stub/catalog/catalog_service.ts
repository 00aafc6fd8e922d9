/**
 * The emulated pitch catalog service (mounted at `/catalog`): every endpoint
 * of `spec/pitch-catalog-api.md`, validated with the shared zod schemas that
 * also generate its OpenAPI 3.1 description at `/api/v1/openapi.json`.
 *
 * Response shapes where the spec says "not shown" (the default dialect;
 * `dialect.ts` lists the alternatives `createStub({ dialect })` serves
 * instead, for the entity search, the pitch detail, the tag list and the
 * filter-set list):
 * - `/search`: `{ authors: [{ userId, username, displayName, tier, badge }],
 *   companies: [{ companyId, ticker, name, alternateNames, sector }] }`, at
 *   most 10 of each, best match first; `q` is required.
 * - `/tags`: `{ data: [{ tagTypeKey, label, closed, tags: [{ slug,
 *   tagTypeKey, label, children? }] }] }`; sectors nest their industries.
 * - `/filter-sets`: `{ data: [{ id, displayName, criteria }] }` where
 *   `criteria` is `{ tags: { any: [...] } }` or `{ tagsByType: { <type>:
 *   [...] } }`, plus `noneOf: [<type key>...]`.
 * - `head_cursor` is a cursor for the first page of the same query (same
 *   sort and filters): keep it to re-read the list from the top later.
 *   `next_cursor` is null on the last page.
 * - The OpenAPI description is public (no key needed).
 *
 * @module
 */
import { OpenAPIHono, z } from "npm:@hono/zod-openapi@1.6.3";
import { DocumentQuery, PitchListQuery } from "../../catalog/params.ts";
import { AUTHOR_BADGES, DOCUMENT_FORMATS } from "../../catalog/vocab.ts";
import { showValue } from "../../shared/schema.ts";
import { toCamel } from "../../insider/fields.ts";
import pick from "npm:lodash-es@4.17.21/pick.js";
import mapKeys from "npm:lodash-es@4.17.21/mapKeys.js";
import snakeCase from "npm:lodash-es@4.17.21/snakeCase.js";
import { Pages } from "../cursor.ts";
import { DEFAULT_DIALECT, type Dialect } from "../dialect.ts";
import { allowOnly } from "../methods.ts";
import { badRequest, fail, unknownValues } from "../problem.ts";
import { check, rawQuery } from "../query_check.ts";
import type { World } from "../world.ts";
import type { CatalogData, Pitch } from "./catalog_data.ts";
import { artifact, filenameOf, type Signed, Signer, URL_LIFETIME_SECONDS } from "./documents.ts";
import { pitchDetail, pitchRow, selectPitches, Summary, tagRule } from "./pitch_rows.ts";
import { registerDocs } from "../openapi.ts";
import { fuzzy } from "../fuzzy.ts";

/** What the catalog service needs. */
export interface CatalogContext {
  /** The world. */
  world: World;
  /** Builds the catalog data (called once, at the first request that needs it). */
  data: () => CatalogData;
  /** Secret for cursors and signed URLs. */
  secret: string;
  /** Clock, epoch ms. */
  now: () => number;
  /** When true, document signing fails with `503`. */
  signingFails?: boolean;
  /**
   * Origin of the signed document URLs (e.g. `http://127.0.0.1:8787`); never
   * taken from the request's `Host` header. Default `http://signalbook.offline`.
   */
  origin?: string;
  /** The dialect to answer in (default: the default dialect). */
  dialect?: Dialect;
}

/** Endpoints without parameters still reject unknown ones (only the staging bypass is allowed). */
const NoQuery = z.object({ "x-hosting-protection-bypass": z.string().optional() }).strict();

const SearchQuery = z.object({
  q: z.string({ error: () => "is required; allowed: a name, username or ticker" })
    .trim().min(1, { error: () => "must not be empty; allowed: a name, username or ticker" })
    .max(200, {
      error: (i) => `${showValue(i.input)} is too long; allowed: at most 200 characters`,
    }),
}).passthrough();

const Envelope = z.object({
  data: z.array(z.object({
    ...Summary.pick({ pitch_id: true, pitch_date: true, added_on: true }).shape,
    pitch: Summary,
  })),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
  head_cursor: z.string(),
}).openapi("PitchListEnvelope");
const Archive = z.object({
  available: z.boolean(),
  formats: z.array(z.enum(DOCUMENT_FORMATS)),
  has_attachment: z.boolean(),
  requested: z.boolean(),
  snapshots: z.array(z.object({ id: z.string(), captured_at: z.string() })),
}).openapi("Archive");
const DetailFields = {
  company_id: z.number().int().nullable(),
  author_badge: z.enum(AUTHOR_BADGES).nullable(),
};

/** An object's keys in the dialect's spelling (one level; `camel`: as the insider's `toCamel`). */
function spelled<T>(obj: Record<string, T>, d: Dialect): Record<string, T> {
  return d.detailKeys === "camel" ? mapKeys(obj, (_: T, k: string) => toCamel(k)) : obj;
}

function detailSchema(d: Dialect) {
  const archive = z.object(spelled(Archive.shape as Record<string, z.ZodType>, d))
    .openapi("Archive");
  const detail = z.object(
    spelled({ ...Summary.shape, ...DetailFields, archive: archive.nullable() }, d),
  );
  return (d.pitchDetail === "wrapped" ? z.object({ data: detail }) : detail).openapi(
    "PitchDetail",
  );
}

/** A pitch detail as the dialect sends it. */
function detailBody(detail: Record<string, unknown>, d: Dialect): unknown {
  const archive = detail.archive as Record<string, unknown> | null;
  const out = spelled({ ...detail, archive: archive && spelled(archive, d) }, d);
  return d.pitchDetail === "wrapped" ? { data: out } : out;
}
const DocumentResponse = z.object({
  url: z.string(),
  format: z.enum(DOCUMENT_FORMATS).nullable(),
  artifact: z.enum(["attachment"]).nullable(),
  snapshot: z.string(),
  filename: z.string(),
  expires_in_seconds: z.number().int(),
}).openapi("DocumentResponse");
/** The search items' keys and their schemas, camelCase. */
const AUTHOR_HIT = {
  userId: z.string(),
  username: z.string(),
  displayName: z.string(),
  tier: z.string(),
  badge: z.string().nullable(),
};
const COMPANY_HIT = {
  companyId: z.number().int(),
  ticker: z.string(),
  name: z.string(),
  alternateNames: z.array(z.string()),
  sector: z.string(),
};

/** A search item's keys as `entityFields` spells them (`username` and `companyId` stay, as the spec names them). */
function entityKeys<T>(obj: Record<string, T>, d: Dialect): Record<string, T> {
  const snake = (_: T, k: string) => k === "companyId" ? k : snakeCase(k);
  return d.entityFields === "snake" ? mapKeys(obj, snake) : obj;
}

function searchResult(d: Dialect) {
  const lists = z.object({
    authors: z.array(z.object(entityKeys(AUTHOR_HIT, d))),
    companies: z.array(z.object(entityKeys(COMPANY_HIT, d))),
  });
  return (d.entitySearch === "data" ? z.object({ data: lists }) : lists).openapi("SearchResult");
}
/** A tag's fields; a top-level tag may have children, tags of the same fields. */
const TagFields = z.object({ slug: z.string(), tagTypeKey: z.string(), label: z.string() });
const TagSchema = TagFields.extend({ children: z.array(TagFields).optional() });
const TagGroup = z.object({
  tagTypeKey: z.string(),
  label: z.string(),
  closed: z.boolean(),
  tags: z.array(TagSchema),
});

/** Per `tags` choice: the `/tags` body from the tag types, and its (named) schema. */
const TAG_LISTS: Record<Dialect["tags"], [(types: TagTypes) => unknown, () => z.ZodType]> = {
  grouped: [
    (types) => ({ data: types }),
    () => z.object({ data: z.array(TagGroup) }).openapi("TagList"),
  ],
  groups: [(types) => types, () => z.array(TagGroup).openapi("TagList")],
  flat: [(types) => types.flatMap((t) => t.tags), () => z.array(TagSchema).openapi("TagList")],
  "by-type": [
    (types) => Object.fromEntries(types.map((t) => [t.tagTypeKey, t.tags])),
    () =>
      z.record(z.string(), z.array(TagSchema)).openapi("TagList", {
        description: "Tags grouped by tagTypeKey",
      }),
  ],
};
type TagTypes = CatalogData["tagTypes"];

function filterSetList(d: Dialect) {
  const sets = z.array(z.object({
    id: z.string(),
    displayName: z.string(),
    criteria: z.object({
      tags: z.object({ any: z.array(z.string()) }).optional(),
      tagsByType: z.record(z.string(), z.array(z.string())).optional(),
      noneOf: z.array(z.string()),
    }),
  }));
  return (d.filterSets === "bare" ? sets : z.object({ [d.filterSets]: sets }))
    .openapi("FilterSetList");
}

const IdParam = z.object({ id: z.string().min(1) });

/** The pitch with that id, else a `404` problem (thrown). */
function pitchOf(data: CatalogData, id: string): Pitch {
  return data.byId.get(id) ?? fail(404, "not-found", `pitch ${showValue(id)} does not exist`);
}

/** Builds the catalog service app. */
export function catalogService(ctx: CatalogContext): OpenAPIHono {
  const { world } = ctx;
  const d = ctx.dialect ?? DEFAULT_DIALECT;
  const app = new OpenAPIHono();
  // the data and what is derived from it (the search's two indexes too) are built at the first
  // request that needs them
  const build = () => {
    const data = ctx.data();
    return {
      data,
      tags: TAG_LISTS[d.tags][0](data.tagTypes),
      filterSets: d.filterSets === "bare" ? data.filterSets : { [d.filterSets]: data.filterSets },
      fuseAuthors: fuzzy(data.authors, ["username", "displayName"], 0.34),
      fuseCompanies: fuzzy(world.companies, ["ticker", "name", "alternateNames"], 0.34),
    };
  };
  let built: ReturnType<typeof build> | undefined;
  const ready = () => built ??= build();
  const pages = new Pages<Pitch>("catalog:" + ctx.secret, 32);
  const signer = new Signer("files:" + ctx.secret);
  const origin = new URL(ctx.origin ?? "http://signalbook.offline").origin;

  registerDocs(app, "Pitch Catalog API", [
    {
      path: "/search",
      summary: "Fuzzy search of authors and companies",
      query: SearchQuery,
      body: searchResult(d),
    },
    { path: "/tags", summary: "Tag vocabulary grouped by type", body: TAG_LISTS[d.tags][1]() },
    { path: "/filter-sets", summary: "Saved filter sets of the key owner", body: filterSetList(d) },
    { path: "/pitches", summary: "Page of pitches", query: PitchListQuery, body: Envelope },
    { path: "/pitches/{id}", summary: "One pitch", params: IdParam, body: detailSchema(d) },
    {
      path: "/pitches/{id}/document",
      summary: "Signed URL of an archived artifact",
      params: IdParam,
      query: DocumentQuery,
      body: DocumentResponse,
      redirect: true,
    },
  ], d);

  app.get("/api/v1/search", (c) => {
    const text = check(SearchQuery, rawQuery(c)).q;
    const lists = {
      authors: ready().fuseAuthors.search(text, { limit: 10 }).map(({ item: a }) =>
        entityKeys(pick(a, Object.keys(AUTHOR_HIT)), d)
      ),
      companies: ready().fuseCompanies.search(text, { limit: 10 }).map(({ item: co }) =>
        entityKeys({ ...pick(co, Object.keys(COMPANY_HIT)), sector: `sector_${co.sector}` }, d)
      ),
    };
    return c.json(d.entitySearch === "data" ? { data: lists } : lists);
  });

  // the two lists without parameters, built once in the dialect's form
  for (const [path, list] of [["/tags", "tags"], ["/filter-sets", "filterSets"]] as const) {
    app.get("/api/v1" + path, (c) => {
      check(NoQuery, rawQuery(c));
      return c.json(ready()[list]);
    });
  }

  app.get("/api/v1/pitches", (c) => {
    const { data } = ready();
    const q = check(PitchListQuery, rawQuery(c));
    const rule = tagRule(q, data);
    if ("unknown" in rule) {
      unknownValues("extraTags", "tag slug", rule.unknown, "slugs from GET /api/v1/tags");
    }
    const badSets = (q.filterSetIds ?? []).filter((id) =>
      !data.filterSets.some((f) => f.id === id)
    );
    if (badSets.length) {
      unknownValues("filterSetIds", "filter set", badSets, "ids from GET /api/v1/filter-sets");
    }
    const { cursor, limit, sort, "x-hosting-protection-bypass": _x, ...filters } = q;
    const page = pages.page({
      cursor,
      sort: sort ?? "post_date",
      query: filters,
      limit: limit ?? 20,
      make: () => selectPitches(q, rule, data, world),
    });
    if ("error" in page) badRequest(`cursor: ${page.error}`);
    return c.json({
      data: page.rows.map((p) => pitchRow(p, data, world)),
      has_more: page.hasMore,
      next_cursor: page.next,
      head_cursor: page.head,
    });
  });

  app.get("/api/v1/pitches/:id", (c) => {
    const { data } = ready();
    check(NoQuery, rawQuery(c));
    return c.json(detailBody(pitchDetail(pitchOf(data, c.req.param("id")), data, world), d));
  });

  app.get("/api/v1/pitches/:id/document", (c) => {
    const { data } = ready();
    const q = check(DocumentQuery, rawQuery(c));
    const id = c.req.param("id");
    const p = pitchOf(data, id);
    if (data.locked(p)) {
      fail(
        403,
        "author-access-required",
        `pitch ${showValue(id)} is by a paywalled author this account has no access to`,
      );
    }
    const a = p.archive;
    const missing = (what: string) => fail(404, "archive-not-found", what);
    if (!a.available || a.snapshots.length === 0) {
      missing(`pitch ${showValue(id)} has no finished archive`);
    }
    const snap = q.snapshot ?? a.snapshots[a.snapshots.length - 1].id;
    if (!a.snapshots.some((s) => s.id === snap)) {
      missing(`snapshot ${showValue(snap)} does not exist for pitch ${showValue(id)}`);
    }
    if (q.artifact === "attachment" && !a.has_attachment) {
      missing(`pitch ${showValue(id)} has no captured attachment`);
    }
    if (q.artifact !== "attachment" && q.format !== undefined && !a.formats.includes(q.format)) {
      missing(
        `format ${showValue(q.format)} is not archived for pitch ${showValue(id)}; available: ${
          a.formats.join(", ")
        }`,
      );
    }
    const kind: Signed["kind"] = q.artifact === "attachment"
      ? "attachment"
      : q.format ?? DOCUMENT_FORMATS.find((f) => a.formats.includes(f))!;
    if (ctx.signingFails) {
      fail(
        503,
        "signing-failed",
        "URL signing failed; archive delivery is misconfigured",
      );
    }
    const filename = filenameOf(world.companies[p.company].ticker, p, snap, kind);
    const signed: Signed = {
      pitchId: id,
      snapshot: snap,
      kind,
      disposition: q.disposition ?? "attachment",
      expires: Math.floor(ctx.now() / 1000) + URL_LIFETIME_SECONDS,
      filename,
    };
    // the configured origin, never the request's Host header; the mount point from the path
    const mount = new URL(c.req.url).pathname.replace(/\/api\/v1\/pitches\/.*$/, "");
    const url = origin + mount + signer.path(signed);
    if (q.redirect === "1" || q.redirect === "true" || q.redirect === "yes") {
      return c.redirect(url, 302);
    }
    return c.json({
      url,
      format: kind === "attachment" ? null : kind,
      artifact: kind === "attachment" ? "attachment" : null,
      snapshot: snap,
      filename,
      expires_in_seconds: URL_LIFETIME_SECONDS,
    });
  });

  app.get("/files/:pitchId/:snapshot/:kind", (c) => {
    const { pitchId, snapshot, kind } = c.req.param();
    const v = signer.verify(
      pitchId,
      snapshot,
      kind,
      new URL(c.req.url).searchParams,
      ctx.now() / 1000,
    );
    if ("error" in v) {
      fail(
        403,
        v.error,
        v.error === "url-expired"
          ? "the signed URL has expired; request a new one"
          : "the URL signature is not valid",
      );
    }
    const p = ready().data.byId.get(pitchId)!;
    const { body, contentType } = artifact(v.kind, p.title, p.summary, snapshot);
    const name = v.filename.replace(/["\\\r\n]/g, "_");
    return c.body(body as Uint8Array<ArrayBuffer>, 200, {
      "content-type": contentType,
      "content-disposition": `${v.disposition}; filename="${name}"`,
    });
  });

  allowOnly(app, { "/files/:pitchId/:snapshot/:kind": ["GET"] });
  return app;
}
