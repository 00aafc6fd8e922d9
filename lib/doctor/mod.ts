/**
 * The live contract check: {@link checkServices} calls each service a few
 * times and reports what it answered where the specs leave the form open,
 * field coverage, rate-limit headers and latency; {@link formatReport}
 * prints it (`deno task doctor`).
 *
 * @example
 * ```ts
 * import { checkServices } from "./mod.ts";
 * const report = await checkServices({ env: () => undefined });
 * console.log(report.problems); // []
 * ```
 *
 * @module
 */
export {
  type CallReport,
  type CheckOptions,
  checkServices,
  type Coercion,
  type Diagnosis,
  type FieldCoverage,
  type ServiceReport,
  type ServicesReport,
} from "./check.ts";
export { formatReport } from "./contract_report.ts";
