/**
 * Emulator dialects: spec-legal alternatives for the points where the specs
 * say "not shown", so the client can be proven against more than one reading
 * of them (`createStub({ dialect })`, `deno task stub --dialect …`).
 *
 * Each **point** has a closed list of **choices**; the first is the default
 * dialect, which is exactly what the emulator answered before dialects
 * existed:
 *
 * | point              | choices (default first)                                   | what changes |
 * | ------------------ | --------------------------------------------------------- | ------------ |
 * | `searchKeys`       | `camel`, `camel-upper-digits`                             | insider `POST /search` row keys: `returns1w`, `is10b51` (humps, Kysely, pydantic v1) or `returns1W`, `is10B51`, `has20DSmaCrossover`, `winRateBullish3MWins` (lodash `camelCase`, pydantic v2 `to_camel`) |
 * | `feedContainer`    | `data`, `items`, `feeds`, `results`                       | name of the row list of `GET /feeds` |
 * | `feedHasMore`      | `has_more`, `none`                                        | `GET /feeds` sends a `has_more` flag, or none (more pages exist exactly when `next_cursor` is a string) |
 * | `feedLastCursor`   | `null`, `absent`                                          | the last `GET /feeds` page has `next_cursor: null`, or no `next_cursor` key |
 * | `lookupEnvelope`   | `data`, `bare`, `results`                                 | `GET /insiders` answers `{ data: [...] }`, a bare list, or `{ results: [...] }` |
 * | `lookupFields`     | `cik-name`, `reporting-owner`, `camel`                    | a lookup hit's keys: `cik`, `name`, `trade_count`, `latest_filed_at`; or `reporting_owner_cik`, `reporting_owner_name`, …; or `reportingOwnerCik`, `reportingOwnerName`, `tradeCount`, `latestFiledAt` (`issuers` and `titles` in all three) |
 * | `tags`             | `grouped`, `groups`, `flat`, `by-type`                    | catalog `GET /tags`: `{ data: [type groups] }`; a bare list of type groups; a bare list of tags (each with its `tagTypeKey`, sectors still nesting industries); or `{ <tagTypeKey>: [tags] }` |
 * | `filterSets`       | `data`, `filterSets`, `items`, `bare`                     | catalog `GET /filter-sets`: the list under `data`, `filterSets`, `items`, or bare |
 * | `entitySearch`     | `top`, `data`                                             | catalog `GET /search`: `authors` and `companies` at the top, or inside `{ data: { authors, companies } }` |
 * | `entityFields`     | `camel`, `snake`                                          | catalog `GET /search` item keys: `userId`, `displayName`, `companyId`, `alternateNames`; or `user_id`, `display_name`, `company_id`, `alternate_names` (the spec names only `username` and `companyId`) |
 * | `pitchDetail`      | `bare`, `wrapped`                                         | catalog `GET /pitches/{id}`: the pitch object itself, or `{ data: <pitch> }` |
 * | `detailKeys`       | `snake`, `camel`                                          | keys of the pitch detail and of its `archive` object: `pitch_id`, `has_attachment`; or `pitchId`, `hasAttachment` (snapshot items keep `id`, `captured_at`) |
 * | `problemTypes`     | `name`, `uri`, `path`, `about-blank`                      | problem `type` on both services: `premium-required`; `https://problems.signalbook.invalid/premium-required`; the relative reference `/problems/premium-required`; or `about:blank` on every problem (RFC 9457's default: the status is the meaning) |
 * | `nulls`            | `keep`, `omit`                                            | rows (of lists, and detail objects) keep their null keys, or leave them out (pydantic `exclude_none`, Jackson `NON_NULL`): rows of one page then differ in their keys |
 * | `cursorName`       | `next_cursor`, `cursor`                                   | the next-page cursor of `POST /search`, `GET /feeds` and `GET /pitches` under its usual name, or under `cursor` (a name the client does not read: it must fail loudly, not stop after one page) |
 * | `timestamps`       | `iso`, `naive`, `offset`, `epoch-ms`, `epoch-s`           | timestamps of rows and details: ISO with `Z`; without a zone; at `+05:30`; epoch milliseconds; epoch seconds (`dialect_values.ts`) |
 * | `dates`            | `iso`, `basic`, `epoch-ms`, `epoch-s`, `midnight`         | dates of rows and details: `YYYY-MM-DD`; `YYYYMMDD`; epoch ms or s of UTC midnight; `YYYY-MM-DDT00:00:00` |
 * | `booleans`         | `json`, `text`, `numbers`                                 | booleans of rows and details: JSON; `"true"`/`"True"`; `1`/`0` |
 * | `numbers`          | `json`, `text`                                            | numbers of rows and details: JSON; numeric text |
 * | `lists`            | `json`, `joined`, `json-text`                             | integer lists of rows and details: JSON; `"5,15"`; `"[5,15]"` |
 * | `rateLimitHeaders` | `none`, `x-ratelimit`, `ratelimit`                        | every `/api/v1` answer of both services carries no rate-limit headers; `X-RateLimit-Limit`/`-Remaining`/`-Reset` (epoch seconds); or the IETF draft's `RateLimit-Limit`/`-Remaining`/`-Reset` (seconds left) with `RateLimit-Policy` |
 *
 * Named dialects bundle choices ({@link DIALECTS}): `upper-digits`,
 * `feed-items` (another container, no has-more flag, and no cursor key on
 * the last page), `lookup-bare` (a
 * bare list with other field names), `tags-bare`, `filter-sets-renamed`,
 * `problem-uri`, `rate-limit-headers`, `entity-search-wrapped` (the catalog
 * search's lists one object down, snake_case items), `detail-wrapped-camel`
 * (the pitch detail under `data`, its keys in camelCase), `omit-nulls`
 * (rows without their null keys), `values-python` (zone-less timestamps,
 * booleans and numbers as text), `values-jackson` (dates as epoch
 * milliseconds), `values-joined` (integer lists joined), and `all` (every
 * one of them; the other value choices are each tested alone). The
 * choices `problemTypes=about-blank` and `cursorName=cursor` are in no named
 * dialect: `about-blank` would clash with `problem-uri` in `all`, and
 * `cursor` is a form the client must refuse (loudly).
 *
 * A dialect is given as one name, a comma-separated list of names, a list of
 * names, or an object of per-point choices; a name may also be a single
 * `point=choice` (`feedContainer=results`). Names compose: each sets its
 * points, and two names that set one point differently are an error. A bad
 * name, point or choice is an error naming it, what is allowed and close
 * matches. The OpenAPI description each service serves describes the
 * dialect it speaks.
 *
 * @module
 */
import { didYouMean } from "../shared/suggest.ts";

/** Every point and its choices; the first choice is the default dialect's. */
export const DIALECT_POINTS = {
  searchKeys: ["camel", "camel-upper-digits"],
  feedContainer: ["data", "items", "feeds", "results"],
  feedHasMore: ["has_more", "none"],
  feedLastCursor: ["null", "absent"],
  lookupEnvelope: ["data", "bare", "results"],
  lookupFields: ["cik-name", "reporting-owner", "camel"],
  tags: ["grouped", "groups", "flat", "by-type"],
  filterSets: ["data", "filterSets", "items", "bare"],
  entitySearch: ["top", "data"],
  entityFields: ["camel", "snake"],
  pitchDetail: ["bare", "wrapped"],
  detailKeys: ["snake", "camel"],
  problemTypes: ["name", "uri", "path", "about-blank"],
  rateLimitHeaders: ["none", "x-ratelimit", "ratelimit"],
  nulls: ["keep", "omit"],
  cursorName: ["next_cursor", "cursor"],
  timestamps: ["iso", "naive", "offset", "epoch-ms", "epoch-s"],
  dates: ["iso", "basic", "epoch-ms", "epoch-s", "midnight", "eastern"],
  booleans: ["json", "text", "numbers"],
  numbers: ["json", "text"],
  lists: ["json", "joined", "json-text"],
} as const;

/** A point where a spec says "not shown". */
export type DialectPoint = keyof typeof DIALECT_POINTS;

/** A complete dialect: one choice per point. */
export type Dialect = { readonly [P in DialectPoint]: typeof DIALECT_POINTS[P][number] };

/** The default dialect: the emulator's answers without a dialect. */
export const DEFAULT_DIALECT: Dialect = Object.freeze(
  Object.fromEntries(
    Object.entries(DIALECT_POINTS).map(([p, choices]) => [p, choices[0]]),
  ) as unknown as Dialect,
);

/** Named dialects: each sets some points. */
export const DIALECTS = {
  default: {},
  "upper-digits": { searchKeys: "camel-upper-digits" },
  "feed-items": { feedContainer: "items", feedHasMore: "none", feedLastCursor: "absent" },
  "lookup-bare": { lookupEnvelope: "bare", lookupFields: "camel" },
  "tags-bare": { tags: "flat" },
  "filter-sets-renamed": { filterSets: "filterSets" },
  "problem-uri": { problemTypes: "uri" },
  "rate-limit-headers": { rateLimitHeaders: "x-ratelimit" },
  "entity-search-wrapped": { entitySearch: "data", entityFields: "snake" },
  "detail-wrapped-camel": { pitchDetail: "wrapped", detailKeys: "camel" },
  "omit-nulls": { nulls: "omit" },
  "values-python": { timestamps: "naive", booleans: "text", numbers: "text" },
  "values-jackson": { dates: "epoch-ms" },
  "values-joined": { lists: "joined" },
} as const satisfies Record<string, Partial<Dialect>>;

/** A named dialect, `all` (every named one), or one `point=choice`. */
export type DialectName =
  | keyof typeof DIALECTS
  | "all"
  | { [P in DialectPoint]: `${P}=${typeof DIALECT_POINTS[P][number]}` }[DialectPoint];

/**
 * What `createStub({ dialect })` and `--dialect` accept: a name, a
 * comma-separated list of names, a list of names, or per-point choices.
 */
export type DialectSpec = DialectName | string | readonly string[] | Partial<Dialect>;

const POINTS = Object.keys(DIALECT_POINTS) as DialectPoint[];
const NAMES = [...Object.keys(DIALECTS), "all"];

function fail(message: string): never {
  throw new RangeError(`dialect: ${message}`);
}

function choiceOf(point: string, value: unknown): [DialectPoint, string] {
  if (!(POINTS as string[]).includes(point)) {
    fail(
      `point ${JSON.stringify(point)} does not exist; allowed: ${POINTS.join(", ")}${
        didYouMean(point, POINTS)
      }`,
    );
  }
  const choices = DIALECT_POINTS[point as DialectPoint] as readonly string[];
  if (typeof value !== "string" || !choices.includes(value)) {
    fail(
      `${point}: ${JSON.stringify(value)} is not allowed; allowed: ${choices.join(", ")}${
        didYouMean(value, choices)
      }`,
    );
  }
  return [point as DialectPoint, value];
}

function choicesOfName(name: string): [DialectPoint, string][] {
  const eq = name.indexOf("=");
  if (eq >= 0) return [choiceOf(name.slice(0, eq).trim(), name.slice(eq + 1).trim())];
  if (name === "all") return Object.values(DIALECTS).flatMap((d) => Object.entries(d)) as never;
  if (!Object.hasOwn(DIALECTS, name)) {
    fail(
      `${JSON.stringify(name)} is not a dialect; allowed: ${
        NAMES.join(", ")
      }, or <point>=<choice> with a point of ${POINTS.join(", ")}${didYouMean(name, NAMES)}`,
    );
  }
  return Object.entries(DIALECTS[name as keyof typeof DIALECTS]) as [DialectPoint, string][];
}

/**
 * The complete dialect a spec asks for, checked: every point not set keeps
 * its default.
 *
 * @example
 * ```ts
 * import { resolveDialect } from "./dialect.ts";
 * const d = resolveDialect("upper-digits,feedContainer=results");
 * console.log(d.searchKeys, d.feedContainer, d.tags); // camel-upper-digits results grouped
 * ```
 */
export function resolveDialect(spec: DialectSpec | undefined): Dialect {
  if (spec === undefined) return DEFAULT_DIALECT;
  const set = new Map<DialectPoint, { choice: string; from: string }>();
  const put = (point: DialectPoint, choice: string, from: string) => {
    const had = set.get(point);
    if (had && had.choice !== choice) {
      fail(
        `${JSON.stringify(had.from)} and ${
          JSON.stringify(from)
        } choose different ${point} (${had.choice}, ${choice}); keep one`,
      );
    }
    set.set(point, { choice, from });
  };
  if (typeof spec === "string" || Array.isArray(spec)) {
    const names = (typeof spec === "string" ? [spec] : spec as readonly unknown[]).flatMap(
      (s) => {
        if (typeof s !== "string") {
          fail(`${JSON.stringify(s)} is not a dialect name; allowed: ${NAMES.join(", ")}`);
        }
        return s.split(",").map((x) => x.trim()).filter((x) => x !== "");
      },
    );
    for (const name of names) for (const [p, c] of choicesOfName(name)) put(p, c, name);
  } else if (spec !== null && typeof spec === "object") {
    for (const [p, c] of Object.entries(spec)) {
      if (c === undefined) continue;
      const [point, choice] = choiceOf(p, c);
      put(point, choice, `${p}=${c}`);
    }
  } else {
    fail(
      `${
        JSON.stringify(spec)
      } is not allowed; allowed: a name, a comma-separated list, a list of names or an object of per-point choices`,
    );
  }
  const out = { ...DEFAULT_DIALECT } as Record<DialectPoint, string>;
  for (const [p, { choice }] of set) out[p] = choice;
  return Object.freeze(out) as Dialect;
}

/**
 * The points where a dialect differs from the default, as `point=choice`
 * (`"default"` when none): what `--dialect` takes back.
 *
 * @example
 * ```ts
 * import { describeDialect, resolveDialect } from "./dialect.ts";
 * describeDialect(resolveDialect("problem-uri")); // "problemTypes=uri"
 * ```
 */
export function describeDialect(d: Dialect): string {
  const diff = POINTS.filter((p) => d[p] !== DEFAULT_DIALECT[p]).map((p) => `${p}=${d[p]}`);
  return diff.length ? diff.join(",") : "default";
}
