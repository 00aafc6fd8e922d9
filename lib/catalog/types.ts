/**
 * Response types of the pitch catalog, as the service sends them (with the
 * emulator's choices for the parts the spec does not show).
 *
 * @module
 */
import type { DocumentFormat, PositionDecision, Sentiment } from "./vocab.ts";

/** The nested `pitch` object of a list row. Locked pitches have the text fields null. */
export interface PitchSummary {
  /** Id. */
  pitch_id: string;
  /** `YYYY-MM-DD` of the pitch. */
  pitch_date: string;
  /** `YYYY-MM-DD` the service added it. */
  added_on: string;
  /** Title (null when locked). */
  pitch_title: string | null;
  /** Summary (null when locked). */
  pitch_summary: string | null;
  /** Author user id. */
  author_user_id: string;
  /** Author username. */
  author_username: string;
  /** Author display name. */
  author_display_name: string;
  /** Author tier. */
  author_tier: string;
  /** Ticker (null when locked). */
  ticker_symbol: string | null;
  /** Company name (null when locked). */
  company_name: string | null;
  /** Paywalled write-up. */
  is_premium_pitch: boolean;
  /** The key owner may not read it. */
  is_locked: boolean;
  /** Sentiment. */
  sentiment: Sentiment;
  /** Position action. */
  position_decision_type: PositionDecision;
  /** Tag slugs (only the sector slug when locked). */
  slugs: string[];
}

/** A pitch list row. */
export interface PitchListRow {
  /** Id. */
  pitch_id: string;
  /** `YYYY-MM-DD` of the pitch. */
  pitch_date: string;
  /** `YYYY-MM-DD` added. */
  added_on: string;
  /** The nested summary. */
  pitch: PitchSummary;
}

/** Archive state of a pitch. */
export interface PitchArchive {
  /** A snapshot is ready. */
  available: boolean;
  /** Write-up formats captured. */
  formats: DocumentFormat[];
  /** An attachment was captured. */
  has_attachment: boolean;
  /** A reader already requested an archive. */
  requested: boolean;
  /** Snapshots, oldest first. */
  snapshots: { id: string; captured_at: string }[];
}

/** A pitch detail. */
export interface PitchDetail extends PitchSummary {
  /** Company id (null when locked). */
  company_id: number | null;
  /** Author badge. */
  author_badge: "elite" | "rising" | null;
  /** Archive (null when locked). */
  archive: PitchArchive | null;
}

/** The JSON form of an archived document. */
export interface DocumentInfo {
  /** Time-limited signed URL. */
  url: string;
  /** Format of a signed write-up, null for an attachment. */
  format: DocumentFormat | null;
  /** `attachment` for an attachment, null for a write-up. */
  artifact: "attachment" | null;
  /** Snapshot id. */
  snapshot: string;
  /** Suggested filename. */
  filename: string;
  /** Lifetime of the URL, seconds. */
  expires_in_seconds: number;
}

/** An author found by search. */
export interface AuthorHit {
  /** User id. */
  userId: string;
  /** Username (feeds `authorUsername`). */
  username: string;
  /** Display name. */
  displayName: string;
  /** Tier. */
  tier: string;
  /** Badge. */
  badge: string | null;
}

/** A company found by search. */
export interface CompanyHit {
  /** Company id (feeds `companyId`). */
  companyId: number;
  /** Ticker. */
  ticker: string;
  /** Legal name. */
  name: string;
  /** Alternate names. */
  alternateNames: string[];
  /** Sector slug. */
  sector: string;
}

/** Search result. */
export interface SearchResult {
  /** Authors, best first. */
  authors: AuthorHit[];
  /** Companies, best first. */
  companies: CompanyHit[];
}

/** A tag. */
export interface Tag {
  /** Slug sent in requests. */
  slug: string;
  /** Type key. */
  tagTypeKey: string;
  /** Label. */
  label: string;
  /** Children (industries under a sector). */
  children?: Tag[];
}

/** Tags of one type. */
export interface TagType {
  /** Type key. */
  tagTypeKey: string;
  /** Label. */
  label: string;
  /** A closed (quality) list. */
  closed: boolean;
  /** Top-level tags. */
  tags: Tag[];
}

/** A saved filter set. */
export interface FilterSet {
  /** Id (for `filterSetIds`). */
  id: string;
  /** Name. */
  displayName: string;
  /** Criteria. */
  criteria: { tags?: { any: string[] }; tagsByType?: Record<string, string[]>; noneOf: string[] };
}
