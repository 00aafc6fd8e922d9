/**
 * The pitch catalog area: vocabularies and request parameters (the client
 * joins them later).
 *
 * @module
 */
export * from "./vocab.ts";
export {
  type DocumentParams,
  MAX_COMPANY_ID,
  MAX_FILTER_SET_IDS,
  type PitchListParams,
} from "./params.ts";
export * from "./types.ts";
export { Tags } from "./tags.ts";
export { sanitizeFilename } from "./download.ts";
