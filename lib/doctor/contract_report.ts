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

function callLines(c: CallReport): string[] {
  const what = c.name.startsWith("problem details") ? `${c.endpoint} (404 on purpose)` : c.endpoint;
  const head = `  ${what.padEnd(52)} ${
    c.skipped ? "skipped" : `${String(c.ms).padStart(5)} ms  ${c.statuses.join(" ") || "-"}`
  }`;
  const out = [head];
  if (c.skipped) out.push(`      ${c.skipped}`);
  if (c.error) out.push(`      FAILED: ${c.error}`);
  if (c.summary) out.push(`      ${c.summary}`);
  for (const s of c.shapes) out.push(`      ${s.point}: ${s.shape}`);
  const cov = c.coverage;
  if (cov) {
    out.push(
      `      fields: ${cov.found} of ${cov.fields} catalog fields in ${cov.rows} rows` +
        (cov.missing.length
          ? `; ${cov.omitsNulls ? "null keys left out, e.g." : "missing"} ${firstFew(cov.missing)}`
          : "") +
        `; extra: ${cov.extra.length ? firstFew(cov.extra) : "none"}`,
    );
    if (cov.renamed.length) out.push(`      spelled: ${cov.renamed.join(", ")}, …`);
    out.push(`      coercions: ${describeCoercions(cov.coercions)}`);
  }
  return out;
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
  const out: string[] = [];
  // the cause first, its symptoms folded under it
  for (const d of report.diagnoses ?? []) {
    out.push(`diagnosis: ${d.message}`);
    for (const x of d.symptoms) out.push(`  symptom: ${x}`);
  }
  for (const s of report.services) {
    const keyVar = SERVICE_VARS[s.service].key;
    out.push(
      `${s.service}: ${
        s.offline ? `in-process emulator (${keyVar} not set; demo data)` : `live, ${s.target}`
      }`,
    );
    for (const c of s.calls) out.push(...callLines(c));
    const rl = Object.entries(s.rateLimitHeaders);
    out.push(
      `  rate-limit headers: ${
        rl.length ? rl.map(([k, v]) => `${k}: ${v}`).join(", ") : "none seen"
      }`,
    );
  }
  if (report.ok) out.push("contract: the client understood every answer");
  else {
    out.push(
      `contract: ${report.problems.length} problem${report.problems.length === 1 ? "" : "s"}`,
    );
    for (const p of report.problems) out.push(`problem: ${p}`);
  }
  return out;
}
