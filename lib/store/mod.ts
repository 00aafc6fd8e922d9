/**
 * The store area: atomic exports and hive-partitioned parquet datasets,
 * one writer at a time per dataset, and typed errors for a full disk.
 *
 * @module
 */
export { writeCsv, writeNdjson, writeParquet } from "./write.ts";
export {
  type DatasetMeta,
  type DatasetOptions,
  partFiles,
  readMeta,
  scanDataset,
  withYearMonth,
  writeDataset,
  type WriteMode,
} from "./dataset.ts";
export {
  type Manifest,
  readManifest,
  scanInsiderTrades,
  scanPitches,
  sync,
  type SyncDataset,
  type SyncOptions,
  type SyncReport,
} from "./sync.ts";
export { query, QUERY_VIEWS, type QueryOptions } from "./query.ts";
export { QUERY_MEMORY_MARGIN } from "./_query_process.ts";
export { DatasetFileError, QueryError, QueryLimitError, StateFileError } from "./errors.ts";
export { type DatasetSource, MixedSourcesError } from "./provenance.ts";
export { DatasetLockedError, DEFAULT_LOCK_TIMEOUT_MS, LOCK_FILE, type LockHolder } from "./lock.ts";
export { DiskFullError } from "./disk.ts";
