/**
 * The store area: atomic exports and hive-partitioned parquet datasets.
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
export { query, QUERY_VIEWS, QueryError, type QueryOptions } from "./query.ts";
