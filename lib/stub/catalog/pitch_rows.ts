/**
 * The pitch list query engine of the emulator: compiles the typed quality
 * parameters to `extraTags` slugs, applies the six combination rules, sorts,
 * and renders rows (locked pitches with their fields cleared).
 *
 * Choices where the spec is silent:
 * - Filters see every slug of a pitch, locked or not (the service knows them);
 *   only the rendered row is cleared.
 * - Unknown `extraTags` slugs and unknown `filterSetIds` are `400`.
 * - `authorUsername` matches case-insensitively; an unknown one yields an
 *   empty page. An unknown `companyId` also yields an empty page.
 * - Sorts are descending: `post_date` by `added_on`, `pitch_returns` by the
 *   pitch's 1-year absolute return, `investor_returns` by the author's 1-year
 *   absolute return; pitches without the value come last; ties by newest
 *   `added_on`, then `pitch_id`.
 *
 * @module
 */
import { qualitySlug, SENTIMENTS } from "../../catalog/vocab.ts";
import type { PitchListQuery } from "../../catalog/params.ts";
import { z } from "npm:@hono/zod-openapi@1.6.3";
import { dayOf, isoOf } from "../calendar.ts";
import mapValues from "npm:lodash-es@4.17.21/mapValues.js";
import pick from "npm:lodash-es@4.17.21/pick.js";
import type { Company, World } from "../world.ts";
import type { Author, CatalogData, FilterSet, Pitch } from "./catalog_data.ts";

type Query = z.output<typeof PitchListQuery>;

/** Tag constraints: slugs grouped by type, plus inverted types. */
interface TagRule {
  groups: Map<string, Set<string>>;
  noneOf: Set<string>;
}

/** Compiles the query's tag parameters; returns the unknown slugs if any. */
export function tagRule(q: Query, data: CatalogData): TagRule | { unknown: string[] } {
  const slugs = [
    ...(q.extraTags ?? []),
    ...(q.authorBadge ?? []).map(qualitySlug.badge),
    ...(q.authorReturn ?? []).map(qualitySlug.author_return),
    ...(q.winRateGte ?? []).map(qualitySlug.win_rate),
    ...(q.pitchReturn ?? []).map(qualitySlug.pitch_return),
    ...(q.sentiment ?? []).map(qualitySlug.sentiment),
    ...(q.positionDecision ?? []).map(qualitySlug.position_decision),
    ...(q.isPremiumPitch === undefined ? [] : [qualitySlug.premium(q.isPremiumPitch)]),
  ];
  const unknown = slugs.filter((s) => !data.slugType.has(s));
  if (unknown.length) return { unknown };
  return { groups: group(slugs, data), noneOf: new Set(q.extraTagsNoneOf ?? []) };
}

function group(slugs: readonly string[], data: CatalogData): Map<string, Set<string>> {
  const known = slugs.filter((s) => data.slugType.has(s));
  const byType = Map.groupBy(known, (s) => data.slugType.get(s)!);
  return new Map([...byType].map(([t, ss]) => [t, new Set(ss)]));
}

/** Rules 2–4: per type OR, across types AND, `noneOf` types inverted. */
function matchesTags(p: Pitch, rule: TagRule): boolean {
  for (const [type, wanted] of rule.groups) {
    const hit = p.slugs.some((s) => wanted.has(s));
    if (hit === rule.noneOf.has(type)) return false;
  }
  return true;
}

function setRule(fs: FilterSet, data: CatalogData): TagRule {
  const c = fs.criteria;
  const slugs = c.tags?.any ?? Object.values(c.tagsByType ?? {}).flat();
  return { groups: group(slugs, data), noneOf: new Set(c.noneOf) };
}

/** Every pitch matching the query, sorted. */
export function selectPitches(
  q: Query,
  rule: TagRule,
  data: CatalogData,
  world: World,
): Pitch[] {
  const sets = (q.filterSetIds ?? []).map((id) => data.filterSets.find((f) => f.id === id)!)
    .map((fs) => setRule(fs, data));
  const from = q.addedOnFrom ?? q.addedOnTo;
  const to = q.addedOnTo ?? q.addedOnFrom;
  const lo = from ? dayOf(from) : -Infinity;
  const hi = to ? dayOf(to) : Infinity;
  const user = q.authorUsername?.toLowerCase();
  const company = q.companyId === undefined
    ? undefined
    : world.companies.findIndex((c) => c.companyId === q.companyId);
  const out = data.pitches.filter((p) => {
    if (company !== undefined && p.company !== company) return false;
    if (user !== undefined && data.authors[p.author].username.toLowerCase() !== user) return false;
    if (q.followingOnly && !data.following.has(p.author)) return false;
    if (p.addedDay < lo || p.addedDay > hi) return false;
    if (!matchesTags(p, rule)) return false;
    if (sets.length && !sets.some((s) => matchesTags(p, s))) return false;
    return true;
  });
  const sort = q.sort ?? "post_date";
  if (sort !== "post_date") {
    const key = (p: Pitch) =>
      sort === "pitch_returns" ? p.returns["1y_abs"] : data.authors[p.author].returns["1y_abs"];
    out.sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      if (ka === undefined || kb === undefined) {
        if (ka !== kb) return ka === undefined ? 1 : -1;
      } else if (ka !== kb) return kb - ka;
      return b.addedDay - a.addedDay || (a.pitch_id < b.pitch_id ? -1 : 1);
    });
  }
  return out;
}

/** A pitch as its rows show it: with its author and company, and whether it is locked. */
type Shown = { p: Pitch; author: Author; company: Company; locked: boolean };
/** A field of a shown pitch: its schema and its value. */
type Field = [z.ZodType, (s: Shown) => unknown];

/**
 * The fields of a list row's nested `pitch` object, in order: each one's
 * schema (the OpenAPI description) and its value (cleared when locked).
 */
const SUMMARY_FIELDS = {
  pitch_id: [z.string(), ({ p }) => p.pitch_id],
  pitch_date: [z.string(), ({ p }) => isoOf(p.day)],
  added_on: [z.string(), ({ p }) => isoOf(p.addedDay)],
  pitch_title: [z.string().nullable(), ({ p, locked }) => locked ? null : p.title],
  pitch_summary: [z.string().nullable(), ({ p, locked }) => locked ? null : p.summary],
  author_user_id: [z.string(), ({ author }) => author.userId],
  author_username: [z.string(), ({ author }) => author.username],
  author_display_name: [z.string(), ({ author }) => author.displayName],
  author_tier: [z.string(), ({ author }) => author.tier],
  ticker_symbol: [z.string().nullable(), ({ company, locked }) => locked ? null : company.ticker],
  company_name: [z.string().nullable(), ({ company, locked }) => locked ? null : company.name],
  is_premium_pitch: [z.boolean(), ({ p }) => p.premium],
  is_locked: [z.boolean(), ({ locked }) => locked],
  sentiment: [z.enum(SENTIMENTS), ({ p }) => p.sentiment],
  position_decision_type: [z.string(), ({ p }) => p.position],
  slugs: [z.array(z.string()), ({ p, locked }) => locked ? [p.sectorSlug] : [...p.slugs]],
} satisfies Record<string, Field>;

/** The schema of a list row's nested `pitch` object. */
export const Summary = z.object(mapValues(SUMMARY_FIELDS, ([schema]: Field) => schema))
  .openapi("PitchSummary");

/** The nested `pitch` object of a list row (cleared when locked). */
export function pitchSummary(p: Pitch, data: CatalogData, world: World): Record<string, unknown> {
  const author = data.authors[p.author];
  const shown = { p, author, company: world.companies[p.company], locked: data.locked(p) };
  return mapValues(SUMMARY_FIELDS, ([, value]: Field) => value(shown));
}

/** A pitch list row. */
export function pitchRow(p: Pitch, data: CatalogData, world: World): Record<string, unknown> {
  const pitch = pitchSummary(p, data, world);
  return { ...pick(pitch, ["pitch_id", "pitch_date", "added_on"]), pitch };
}

/**
 * The pitch detail: the summary fields, `company_id`, the author's badge and
 * the `archive` object (`available`, `formats`, `has_attachment`,
 * `requested` — the request flag — and `snapshots`, oldest first). A locked
 * pitch has `company_id` null and `archive` null.
 */
export function pitchDetail(p: Pitch, data: CatalogData, world: World): Record<string, unknown> {
  const locked = data.locked(p);
  return {
    ...pitchSummary(p, data, world),
    company_id: locked ? null : world.companies[p.company].companyId,
    author_badge: data.authors[p.author].badge,
    // the archive's fields as the catalog holds them (available, formats, has_attachment,
    // requested, snapshots)
    archive: locked ? null : { ...p.archive },
  };
}
