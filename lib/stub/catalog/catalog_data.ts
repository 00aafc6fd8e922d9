/**
 * Demo pitch catalog: about 150 × scale authors write about 3,000 × scale
 * pitches on the world's companies over five years.
 *
 * Realized returns (percent) are direction-adjusted: a bearish pitch earns
 * the negative of the stock's return; neutral ones count as long. A pitch's
 * return over a period exists once the period has ended by `asOf`; excess
 * return subtracts the market over the same window. An author's return for a
 * period and kind is the mean of their pitches' returns; the author's 1-year
 * win rate is the share of their pitches with a positive 1-year return, and
 * exists only with at least 8 such pitches. Some authors have skill. One
 * more, the star author (`tenbagger_desk`), wrote 3 pitches at the world's
 * best 6-month opportunities, so that every enumerated filter value (all 24
 * `authorReturn` and 48 `pitchReturn` values, every position decision, every
 * tag slug) matches at least one pitch of the default world
 * (`tests/stub/filter_coverage_test.ts`).
 *
 * The demo key owner follows some authors and can read some paywalled
 * authors; a premium pitch by a paywalled author the owner cannot read is
 * locked: title, summary, ticker and company name are null, slugs keep only
 * the sector slug, and the detail's `archive` is null.
 *
 * @module
 */
import { list } from "../words.ts";
import {
  AUTHOR_RETURN_FLOORS,
  floorPercent,
  PITCH_RETURN_FLOORS,
  POSITION_DECISIONS,
  type PositionDecision,
  QUALITY_SLUGS,
  qualitySlug,
  RETURN_KINDS,
  RETURN_PERIODS,
  type ReturnKind,
  type ReturnPeriod,
  type Sentiment,
  WIN_RATE_FLOORS,
} from "../../catalog/vocab.ts";
import { Rng } from "../../shared/random.ts";
import { COUNTRIES, SECTOR_TABLE, type World } from "../world.ts";
import { round } from "../insider/insider_data.ts";
import type { FilterSet, PitchArchive, Tag } from "../../catalog/types.ts";

// the catalog's response shapes, one declaration for the client and the emulator
export type { FilterSet, Tag };
/** Archive state of a pitch (the catalog's `PitchArchive`). */
export type Archive = PitchArchive;

/** An author. */
export interface Author {
  /** User id. */
  userId: string;
  /** Username (no `@`). */
  username: string;
  /** Display name. */
  displayName: string;
  /** Tier: `community`, `contributor` or `premium` (paywalled). */
  tier: "community" | "contributor" | "premium";
  /** Badge, if any. */
  badge: "elite" | "rising" | null;
  /** Writes paywalled pitches. */
  paywalled: boolean;
  /** Probability of calling the direction right. */
  skill: number;
  /** Mean return per `${period}_${kind}` (percent), where any pitch has it. */
  returns: Record<string, number>;
  /** 1-year win rate (percent) with at least 8 pitches, else null. */
  winRate1y: number | null;
  /** Number of pitches. */
  pitchCount: number;
}

/** A pitch with everything the service knows. */
export interface Pitch {
  /** Id. */
  pitch_id: string;
  /** Pitch day number. */
  day: number;
  /** Added-on day number. */
  addedDay: number;
  /** Author index. */
  author: number;
  /** Company index. */
  company: number;
  /** Title. */
  title: string;
  /** Summary. */
  summary: string;
  /** Sentiment. */
  sentiment: Sentiment;
  /** Position action. */
  position: PositionDecision;
  /** Paywalled write-up. */
  premium: boolean;
  /** Full slug list (all types). */
  slugs: string[];
  /** The sector slug (what survives locking). */
  sectorSlug: string;
  /** Realized returns per `${period}_${kind}` (percent). */
  returns: Record<string, number>;
  /** Archive. */
  archive: PitchArchive;
}

/** The catalog dataset. */
export interface CatalogData {
  /** Authors. */
  authors: Author[];
  /** Pitches, newest `added_on` first. */
  pitches: Pitch[];
  /** Lookup by id. */
  byId: Map<string, Pitch>;
  /** Slug → type key, for every known slug. */
  slugType: Map<string, string>;
  /** Tag vocabulary grouped by type. */
  tagTypes: { tagTypeKey: string; label: string; closed: boolean; tags: Tag[] }[];
  /** The demo owner's filter sets. */
  filterSets: FilterSet[];
  /** Authors the demo owner follows (indexes). */
  following: Set<number>;
  /** Paywalled authors the demo owner can read (indexes). */
  access: Set<number>;
  /** Whether the demo owner may read a pitch. */
  locked(p: Pitch): boolean;
}

const PERIOD_DAYS: Record<ReturnPeriod, number> = { "6m": 182, "1y": 365, "2y": 730 };

/** Tags of one type, one per name: slug `<prefix>_<name>`, label from the name. */
function tagsOf(
  type: string,
  prefix: string,
  names: string[],
  label: (s: string) => string,
): Tag[] {
  return names.map((s) => ({ slug: `${prefix}_${s}`, tagTypeKey: type, label: label(s) }));
}
const spaced = (s: string) => s.replace("_", " ");

/**
 * The open tag types of listed names: type key, label, slug prefix, names
 * (tags `<prefix>_<name>`, labels the names with the underscore spaced;
 * strategy names have none).
 */
const LISTED = [
  [
    "pitch_category",
    "Pitch category",
    "category",
    "long_idea, short_idea, special_situation, earnings, macro",
  ],
  ["strategy", "Strategy", "strategy", "value, growth, momentum, dividend, turnaround"],
  ["content_format", "Content format", "format", "long_form, short_form, thread, video"],
  ["source", "Source", "source", "blog, newsletter, forum, fund_letter"],
];

export const CATALOG_TAGS: Record<string, { label: string; tags: Tag[] }> = {
  market_cap: {
    label: "Market cap",
    tags: tagsOf(
      "market_cap",
      "market_cap",
      ["mega", "large", "mid", "small", "micro"],
      (s) => s[0].toUpperCase() + s.slice(1) + " cap",
    ),
  },
  sector_industry: {
    label: "Sector and industry",
    tags: Object.entries(SECTOR_TABLE).map(([key, s]) => ({
      slug: `sector_${key}`,
      tagTypeKey: "sector_industry",
      label: s.label,
      children: s.industries.map((i) => ({
        slug: i.slug,
        tagTypeKey: "sector_industry",
        label: i.label,
      })),
    })),
  },
  country_region: {
    label: "Country or region",
    tags: COUNTRIES.map((c) => ({ slug: c.slug, tagTypeKey: "country_region", label: c.label })),
  },
  ...Object.fromEntries(LISTED.map(([type, label, prefix, names]) => [
    type,
    { label, tags: tagsOf(type, prefix, list(names), spaced) },
  ])),
};

const QUALITY_LABELS: Record<keyof typeof QUALITY_SLUGS, string> = {
  badge: "Author badge",
  author_return: "Author realized return",
  win_rate: "Author 1-year win rate",
  pitch_return: "Pitch return",
  sentiment: "Sentiment",
  position_decision: "Position action",
  premium: "Paywalled",
};
/** The closed tag types: each one's label, and its tags (the quality slugs, labels spaced). */
const QUALITY_TAGS: Record<string, { label: string; tags: Tag[] }> = Object.fromEntries(
  Object.entries(QUALITY_SLUGS).map(([type, slugs]) => [type, {
    label: QUALITY_LABELS[type as keyof typeof QUALITY_SLUGS],
    tags: slugs.map((slug) => ({ slug, tagTypeKey: type, label: slug.replace(/_/g, " ") })),
  }]),
);

const ADJ = ["Ostentatious", "Quiet", "Hidden", "Misunderstood", "Overlooked", "Fading", "Crowded"];
const THESES = [
  "margin expansion ahead",
  "a cheap compounder",
  "the market misprices the turnaround",
  "balance sheet risk is underappreciated",
  "a catalyst-rich year",
  "valuation has run ahead of fundamentals",
  "capital returns will surprise",
];
const HANDLES = list(`
  value, deep, contrarian, quant, moat, alpha, compounder, macro, special, dividend, growth,
  short, micro, event, capital,
`);
const HANDLE_TAILS = ["hawk", "digger", "seeker", "hunter", "analyst", "notes", "ideas", "desk"];

/** Generates the catalog dataset for a world. */
export function makeCatalogData(world: World): CatalogData {
  const rng = new Rng(world.seed * 15_485_863 + 3);
  const nAuthors = Math.round(150 * world.scale);
  const authors: Author[] = [];
  const usernames = new Set<string>();
  for (let a = 0; a < nAuthors; a++) {
    let username: string;
    do {
      username = `${rng.pick(HANDLES)}_${rng.pick(HANDLE_TAILS)}${rng.int(1, 99)}`;
    } while (usernames.has(username));
    usernames.add(username);
    const paywalled = rng.chance(0.15);
    const u = rng.next();
    authors.push({
      userId: `u_${(100_000 + a * 53).toString(36)}`,
      username,
      displayName: username.replace(/_/g, " ").replace(/\d+$/, "").replace(
        /\b\w/g,
        (c) => c.toUpperCase(),
      ).trim() + ` ${String.fromCharCode(65 + (a % 26))}.`,
      tier: paywalled ? "premium" : u < 0.5 ? "community" : "contributor",
      badge: null,
      paywalled,
      skill: rng.chance(0.25) ? 0.6 + 0.3 * rng.next() : 0.5,
      returns: {},
      winRate1y: null,
      pitchCount: 0,
    });
  }

  const nPitches = Math.round(3000 * world.scale);
  const pitches: Pitch[] = [];
  const nc = world.companies.length;
  for (let i = 0; i < nPitches; i++) {
    const a = Math.min(nAuthors - 1, Math.floor(nAuthors * rng.next() ** 1.6));
    const author = authors[a];
    const c = rng.int(0, nc - 1);
    const day = rng.int(world.firstDay, world.asOf - 1);
    const ahead = world.ret(c, day, Math.min(world.asOf, day + 365));
    let sentiment: Sentiment;
    if (rng.chance(0.12)) sentiment = "neutral";
    else if (author.skill > 0.5) {
      sentiment = (ahead > 0) === rng.chance(author.skill) ? "bullish" : "bearish";
    } else sentiment = rng.chance(0.7) ? "bullish" : "bearish";
    pitches.push(writePitch(world, rng, i, a, c, day, sentiment, author.paywalled));
    author.pitchCount++;
  }
  addStarAuthor(world, authors, pitches);

  for (const [a, author] of authors.entries()) {
    const mine = pitches.filter((p) => p.author === a);
    for (const p of RETURN_PERIODS) {
      for (const k of RETURN_KINDS) {
        const vals = mine.map((x) => x.returns[`${p}_${k}`]).filter((v) => v !== undefined);
        if (vals.length) author.returns[`${p}_${k}`] = round(mean(vals), 2);
      }
    }
    const y = mine.map((x) => x.returns["1y_abs"]).filter((v) => v !== undefined);
    author.winRate1y = y.length >= 8
      ? round((100 * y.filter((v) => v > 0).length) / y.length, 2)
      : null;
    const r1 = author.returns["1y_excess"] ?? -Infinity;
    author.badge = r1 >= 12 && mine.length >= 20
      ? "elite"
      : r1 >= 3 && mine.length >= 5
      ? "rising"
      : null;
  }

  for (const p of pitches) {
    const author = authors[p.author];
    const q: string[] = [];
    if (author.badge) q.push(qualitySlug.badge(author.badge));
    for (const per of RETURN_PERIODS) {
      for (const k of RETURN_KINDS) {
        // a return the author or pitch does not have passes no floor
        const ar = author.returns[`${per}_${k}`] ?? -Infinity;
        for (const f of AUTHOR_RETURN_FLOORS) {
          if (ar >= floorPercent(f)) q.push(qualitySlug.author_return(`${per}_${k}_gte_${f}`));
        }
        const pr = p.returns[`${per}_${k}`] ?? -Infinity;
        for (const f of PITCH_RETURN_FLOORS) {
          if (pr >= floorPercent(f)) {
            q.push(qualitySlug.pitch_return(`${per}_${k as ReturnKind}_gte_${f}`));
          }
        }
      }
    }
    for (const f of WIN_RATE_FLOORS) {
      if (author.winRate1y !== null && author.winRate1y >= Number(f)) {
        q.push(qualitySlug.win_rate(f));
      }
    }
    q.push(qualitySlug.sentiment(p.sentiment), qualitySlug.position_decision(p.position));
    q.push(qualitySlug.premium(p.premium));
    p.slugs.push(...q);
  }
  pitches.sort((a, b) => b.addedDay - a.addedDay || (a.pitch_id < b.pitch_id ? -1 : 1));

  const following = new Set<number>();
  const access = new Set<number>();
  authors.forEach((a, i) => {
    if (i >= nAuthors) return; // the star author (below) draws nothing from the shared generator
    if (rng.chance(0.12) || i < 3) following.add(i);
    if (a.paywalled && rng.chance(0.5)) access.add(i);
  });

  // the open types, then the closed (quality) ones
  const tagTypes = Object.entries({ ...CATALOG_TAGS, ...QUALITY_TAGS }).map(([k, v]) => ({
    tagTypeKey: k,
    label: v.label,
    closed: Object.hasOwn(QUALITY_TAGS, k),
    tags: v.tags,
  }));
  // every tag, each before its children
  const flat = (tags: Tag[]): Tag[] => tags.flatMap((t) => [t, ...flat(t.children ?? [])]);
  const slugType = new Map(
    flat(tagTypes.flatMap((t) => t.tags)).map((t) => [t.slug, t.tagTypeKey]),
  );

  type Criteria = Omit<FilterSet["criteria"], "noneOf">;
  const set = (id: string, displayName: string, criteria: Criteria, noneOf: string[] = []) => ({
    id,
    displayName,
    criteria: { ...criteria, noneOf },
  });
  const filterSets: FilterSet[] = [
    set("fs_elite_tech_longs", "Elite tech longs", {
      tagsByType: {
        badge: ["badge_elite"],
        sector_industry: ["sector_technology"],
        sentiment: ["sentiment_bullish"],
      },
    }),
    set("fs_small_caps_no_shorts", "Small caps, no shorts", {
      tags: { any: ["market_cap_small", "market_cap_micro", "sentiment_bearish"] },
    }, ["sentiment"]),
    set("fs_proven_value", "Proven authors, value", {
      tagsByType: { win_rate: ["win_rate_gte_60"], strategy: ["strategy_value"] },
    }),
    set("fs_healthcare_biotech", "Health care and biotech", {
      tags: { any: ["sector_healthcare", "sector_biotech"] },
    }),
    set("fs_free_doublers", "Free write-ups that doubled", {
      tagsByType: {
        pitch_return: ["col_pitch_return_1y_abs_gte_x2"],
        premium: ["premium_false"],
      },
    }),
  ];

  return catalogOf({ authors, pitches, slugType, tagTypes, filterSets, following, access });
}

/** What {@link catalogOf} completes into a {@link CatalogData}: its data, without lookups. */
export type CatalogParts = Omit<CatalogData, "byId" | "locked">;

/** The catalog over its parts: the lookup by id and the lock rule added. */
export function catalogOf(parts: CatalogParts): CatalogData {
  const { access } = parts;
  return {
    ...parts,
    byId: new Map(parts.pitches.map((p) => [p.pitch_id, p])),
    locked: (p) => p.premium && !access.has(p.author),
  };
}

/** Pitches of the star author (see {@link addStarAuthor}). */
export const STAR_PITCHES = 3;

/**
 * The star author: a free author who wrote {@link STAR_PITCHES} bullish
 * pitches at the world's best 6-month opportunities (distinct companies, the
 * ten-bagger among them: see `TEN_BAGGER` in `world.ts`). Without them no
 * author of a random world averages 25 %+ over 6 months or 50 %+ over a year,
 * so six `authorReturn` values (`6m_*_gte_25`, `6m_*_gte_50`, `1y_*_gte_50`)
 * and the 6-month `pitchReturn` floors from `x3` up would match nothing
 * offline. The star draws from its own generator, so every other author and
 * pitch is as without it.
 */
function addStarAuthor(world: World, authors: Author[], pitches: Pitch[]): void {
  const rng = new Rng(world.seed * 104_729 + 11);
  const a = authors.length;
  authors.push({
    userId: `u_${(100_000 + a * 53).toString(36)}`,
    username: "tenbagger_desk",
    displayName: "Tenbagger Desk",
    tier: "contributor",
    badge: null,
    paywalled: false,
    skill: 1,
    returns: {},
    winRate1y: null,
    pitchCount: 0,
  });
  const best: { c: number; day: number; r: number }[] = [];
  const last = world.asOf - PERIOD_DAYS["6m"];
  for (let c = 0; c < world.companies.length; c++) {
    let top = { c, day: world.firstDay, r: -Infinity };
    for (let day = world.firstDay; day <= last; day += 5) {
      const r = world.ret(c, day, day + PERIOD_DAYS["6m"]);
      if (r > top.r) top = { c, day, r };
    }
    best.push(top);
  }
  best.sort((x, y) => y.r - x.r);
  for (const { c, day } of best.slice(0, STAR_PITCHES)) {
    pitches.push(writePitch(world, rng, pitches.length, a, c, day, "bullish", false));
    authors[a].pitchCount++;
  }
}

/** One pitch by author `a` on company `c` written on `day` (draws from `rng` in a fixed order). */
function writePitch(
  world: World,
  rng: Rng,
  i: number,
  a: number,
  c: number,
  day: number,
  sentiment: Sentiment,
  paywalled: boolean,
): Pitch {
  const company = world.companies[c];
  const position = rng.pick(POSITIONS[sentiment]);
  const returns: Record<string, number> = {};
  const dir = sentiment === "bearish" ? -1 : 1;
  for (const p of RETURN_PERIODS) {
    const end = day + PERIOD_DAYS[p];
    if (end > world.asOf) continue;
    const r = world.ret(c, day, end);
    returns[`${p}_abs`] = round(dir * r, 2);
    returns[`${p}_excess`] = round(dir * (r - world.marketRet(day, end)), 2);
  }
  const mcap = world.price(c, day) * company.sharesOutstanding;
  // the floors of mega, large, mid and small caps; micro (the last tag: `at(-1)`) below them
  const cap = [2e11, 1e10, 2e9, 3e8].findIndex((floor) => mcap >= floor);
  const capSlug = CATALOG_TAGS.market_cap.tags.at(cap)!.slug;
  const sectorSlug = `sector_${company.sector}`;
  const pick = (type: string, except?: string) =>
    rng.pick(CATALOG_TAGS[type].tags.filter((t) => t.slug !== except)).slug;
  const slugs = [
    capSlug,
    sectorSlug,
    company.industry.slug,
    company.country,
    // one tag of each listed type, drawn from its list (a bearish pitch is a short idea)
    sentiment === "bearish" ? "category_short_idea" : pick("pitch_category", "category_short_idea"),
    pick("strategy"),
    pick("content_format"),
    pick("source"),
  ];
  const premium = paywalled && rng.chance(0.7);
  const available = rng.chance(0.9);
  const formats = (["pdf", "mhtml", "md"] as const).filter((f) =>
    f === "md" ? rng.chance(0.8) : rng.chance(0.6)
  );
  const nSnap = available ? rng.int(1, 2) : 0;
  const snapshots = Array.from({ length: nSnap }, (_, k) => ({
    id: `snap_${(i * 7 + k + 1).toString(36).padStart(5, "0")}`,
    captured_at: new Date((day + 1 + k * 30) * 86_400_000 + 3_600_000 * rng.int(1, 20))
      .toISOString(),
  }));
  return {
    pitch_id: `p_${(1_000_000 + i * 7919).toString(36)}`,
    day,
    addedDay: Math.min(world.asOf, day + rng.int(0, 2)),
    author: a,
    company: c,
    title: `${
      company.name.replace(/,? (Inc\.|Corp\.|Co\.|Ltd\.|Holdings, Inc\.|Group, Inc\.)$/, "")
    } (${company.ticker}): ${sentiment === "bearish" ? "short — " : ""}${rng.pick(THESES)}`,
    summary: `${rng.pick(ADJ)} ${company.industry.label.toLowerCase()} name; ${rng.pick(THESES)}.`,
    sentiment,
    position,
    premium,
    slugs,
    sectorSlug,
    returns,
    archive: {
      available,
      formats: available ? (formats.length ? formats : ["md"]) : [],
      has_attachment: available && rng.chance(0.3),
      requested: available || rng.chance(0.5),
      snapshots,
    },
  };
}

/**
 * Per sentiment, the positions a pitch draws one of (covering a short,
 * reduce_short or close_short, is a bullish act).
 */
const POSITIONS: Record<Sentiment, readonly PositionDecision[]> = {
  bullish: list(
    "initiate_long, increase_long, hold, initiate_long, initiate_long, increase_long, reduce_short, close_short",
  ) as PositionDecision[],
  bearish: ["initiate_short", "increase_short", "reduce_long", "close_long"],
  neutral: POSITION_DECISIONS.filter((p) =>
    list("hold, monitor, pass_idea, not_specified").includes(p)
  ),
};

function mean(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}
