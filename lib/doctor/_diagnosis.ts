/**
 * The doctor's diagnosis: the cause first, its symptoms folded under it.
 *
 * A wrong key, a lapsed membership, a base URL without its service path or
 * a host that cannot be reached makes every call of a service fail alike;
 * listing each failed call as its own problem hides the one thing to fix.
 * So, per service, over the calls that were made (skipped ones aside):
 *
 * | every call … | diagnosis |
 * | - | - |
 * | answered `401` | the key: check `INSIDER_API_KEY` / `PITCH_API_KEY` |
 * | answered `403` | Premium lapsed (or no access) for this key |
 * | answered `404`, the 404 on purpose included | the base URL: check `INSIDER_BASE_URL` (it should end in `/insider`) / `PITCH_BASE_URL` (`/catalog`), with the URL tried |
 * | got no answer (refused, DNS, TLS, time-out) | the host and the error |
 *
 * Every problem line of that service is then a symptom of the diagnosis,
 * not a problem of its own. Mixed failures get no diagnosis: each stays a
 * problem. A refused key (`401`, `403`) is the key's problem, not the
 * routes': the `404` on purpose may answer the same status, or its `404`
 * (a service may find the route before it checks the key), and its symptom
 * then says the key was refused and the 404 form went unchecked, never that
 * "a 404 should be a NotFoundError".
 *
 * @module
 */
import { SERVICE_VARS } from "../connect/env.ts";

/** What a diagnosis reads of a call (a `CallReport` of `check.ts`). */
interface CallSeen {
  /** The call made to get a `404` on purpose. */
  probe?: boolean;
  skipped?: string;
  statuses: number[];
  error?: string;
  errorName?: string;
}

/** What a diagnosis reads of a service (a `ServiceReport` of `check.ts`). */
interface ServiceSeen {
  service: "catalog" | "insider";
  offline: boolean;
  calls: readonly CallSeen[];
}

/** The cause the doctor names for a service whose every call failed alike. */
export interface Diagnosis {
  /** Which service. */
  service: "catalog" | "insider";
  /** The kind of cause. */
  cause: "key" | "premium" | "base-url" | "unreachable";
  /** One line naming the cause and what to check (never a key). */
  message: string;
  /** The problem lines that follow from it. */
  symptoms: string[];
}

const VARS = {
  catalog: { ...SERVICE_VARS.catalog, path: "/catalog" },
  insider: { ...SERVICE_VARS.insider, path: "/insider" },
} as const;

const NO_ANSWER = new Set(["ConnectionError", "TimeoutError"]);

/**
 * The diagnosis of one service's calls, or undefined when they did not all
 * fail alike (see the module doc). `base` is the service's base URL as the
 * client used it (a live service only).
 */
export function diagnose(s: ServiceSeen, base: string | undefined): Diagnosis | undefined {
  if (s.offline) return undefined;
  const made = s.calls.filter((c) => !c.skipped);
  if (made.length === 0) return undefined;
  const v = VARS[s.service];
  const all = (f: (c: CallSeen) => boolean) => made.every(f);
  const only = (status: number) => (c: CallSeen) =>
    c.statuses.length > 0 && c.statuses.every((x) => x === status);
  const d = (cause: Diagnosis["cause"], message: string): Diagnosis => ({
    service: s.service,
    cause,
    message: `${s.service}: ${message}`,
    symptoms: [],
  });
  // a refused key: every call answered the status, the 404 on purpose too, or that one
  // answered its 404 (a service that finds the route before it checks the key)
  const refused = (status: number) =>
    all((c) => only(status)(c) || (!!c.probe && only(404)(c))) &&
    made.some((c) => only(status)(c));
  // "every call", or "every call but the 404 on purpose" when that one answered its 404
  const every = made.some((c) => c.probe && only(404)(c))
    ? "every call but the 404 on purpose"
    : "every call";
  if (refused(401)) {
    return d(
      "key",
      `${every} answered 401 (missing or invalid API key): check ${v.key}`,
    );
  }
  if (refused(403)) {
    return d(
      "premium",
      `${every} answered 403: Premium lapsed (or no access) for the key in ${v.key}; ` +
        `renew the membership, or use a key of an active Premium account`,
    );
  }
  if (all(only(404))) {
    const tried = base ? ` (tried ${base.replace(/\/+$/, "")}/api/v1/…)` : "";
    return d(
      "base-url",
      `every route answered 404${tried}: check ${v.url}; it should end in ${v.path}` +
        (base ? `, e.g. ${suggestBase(base, v.path)}` : ""),
    );
  }
  if (all((c) => c.statuses.length === 0 && NO_ANSWER.has(c.errorName ?? ""))) {
    const host = URL.parse(base ?? "")?.host ?? base ?? ""; // not a URL: the text as it is
    return d(
      "unreachable",
      `no call got an answer from ${host} (check ${v.url} and the network): ${made[0].error}`,
    );
  }
  return undefined;
}

function suggestBase(base: string, path: string): string {
  const u = URL.parse(base);
  if (!u) return `${base.replace(/\/+$/, "")}${path}`;
  const p = u.pathname.replace(/\/+$/, "");
  return `${u.origin}${p.endsWith(path) ? p : `${p}${path}`}`;
}

/**
 * An error (or any value) as one line for a report or a terminal: its
 * message's lines trimmed and joined, at most 400 characters. The doctor's
 * call reports and the commands' failure lines (`cli/args.ts`) both use it.
 */
export function oneLine(e: unknown): string {
  const msg = e instanceof Error ? `${e.message}` : String(e);
  return msg.split("\n").map((l) => l.trim()).filter(Boolean).join(" ").slice(0, 400);
}
