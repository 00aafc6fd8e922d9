/**
 * The contract report of {@link checkServices} as text: per service, where
 * it was checked, each call with its latency, statuses and the forms the
 * client recognised, field coverage, rate-limit headers; then the verdict
 * and one line per problem. What `deno task doctor` prints, and what a user
 * pastes into a bug report (it never holds a key).
 *
 * @module
 */
import { describeCoercions, firstFew } from "./_coverage.ts";
import type { CallReport, ServicesReport } from "./check.ts";
import { SERVICE_VARS } from "../connect/env.ts";
import { plural } from "../shared/plural.ts";

function callLines(c: CallReport): string[] {
  const what = c.name.startsWith("problem details") ? `${c.endpoint} (404 on purpose)` : c.endpoint;
  const cov = c.coverage;
  return [
    `  ${what.padEnd(52)} ${
      c.skipped ? "skipped" : `${String(c.ms).padStart(5)} ms  ${c.statuses.join(" ") || "-"}`
    }`,
    c.skipped && `      ${c.skipped}`,
    c.error && `      FAILED: ${c.error}`,
    c.summary && `      ${c.summary}`,
    ...c.shapes.map((s) => `      ${s.point}: ${s.shape}`),
    cov &&
    `      fields: ${cov.found} of ${cov.fields} catalog fields in ${cov.rows} rows` +
      (cov.missing.length
        ? `; ${cov.omitsNulls ? "null keys left out, e.g." : "missing"} ${firstFew(cov.missing)}`
        : "") +
      `; extra: ${cov.extra.length ? firstFew(cov.extra) : "none"}`,
    cov?.renamed.length && `      spelled: ${cov.renamed.join(", ")}, …`,
    cov && `      coercions: ${describeCoercions(cov.coercions)}`,
  ].filter((line): line is string => !!line);
}

/**
 * The report as lines of text.
 *
 * @example
 * ```ts
 * import { checkServices, formatReport } from "./mod.ts";
 * const report = await checkServices({ env: () => undefined });
 * console.log(formatReport(report).at(-1)); // "contract: the client understood every answer"
 * ```
 */
export function formatReport(report: ServicesReport): string[] {
  return [
    // the cause first, its symptoms folded under it
    ...(report.diagnoses ?? []).flatMap((d) => [
      `diagnosis: ${d.message}`,
      ...d.symptoms.map((x) => `  symptom: ${x}`),
    ]),
    ...report.services.flatMap((s) => {
      const rl = Object.entries(s.rateLimitHeaders);
      return [
        `${s.service}: ${
          s.offline
            ? `in-process emulator (${SERVICE_VARS[s.service].key} not set; demo data)`
            : `live, ${s.target}`
        }`,
        ...s.calls.flatMap(callLines),
        `  rate-limit headers: ${
          rl.length ? rl.map(([k, v]) => `${k}: ${v}`).join(", ") : "none seen"
        }`,
      ];
    }),
    ...(report.ok ? ["contract: the client understood every answer"] : [
      `contract: ${plural(report.problems.length, "problem")}`,
      ...report.problems.map((p) => `problem: ${p}`),
    ]),
  ];
}
