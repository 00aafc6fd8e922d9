/**
 * The pitch catalog area: vocabularies and request parameters (the client
 * joins them later).
 *
 * @module
 */
export * from "./vocab.ts";
export { type DocumentParams, type PitchListParams } from "./params.ts";
export * from "./types.ts";
export { Tags } from "./tags.ts";
export { sanitizeFilename } from "./download.ts";
export { CatalogClient, type DownloadOptions } from "./client.ts";
export {
  PITCH_COLUMNS,
  pitchesFrame,
  type PitchesFrameOptions,
  pitchesSink,
} from "./pitch_frames.ts";
/** @deprecated The same type as `CallOptions` (one per-call options type for both clients). */
export type { CallOptions as CatalogCallOptions } from "../http/service_client.ts";
