/**
 * The frames area: declared value types, the column-wise builder, framed lists and
 * notebook display.
 *
 * @module
 */
export { type ColumnSpec, dtypeName, polarsType } from "./dtypes.ts";
export { type RowTyping, rowTyping, typeRows, type Warned } from "./typed_rows.ts";
export {
  buildFrame,
  type BuildOptions,
  CHUNK_ROWS,
  FrameBuilder,
  type FrameBuilderOptions,
  type FrameReport,
  MAX_EXTRA_COLUMNS,
  mergeReports,
  reportLines,
  type RowSink,
  rowSink,
  type SinkPlan,
  warnReport,
} from "./build.ts";
export {
  asFrame,
  type Frame,
  FramedList,
  type FrameMaker,
  type FrameOptions,
  type RawListOptions,
} from "./list.ts";
export { type ParallelListOptions, WindowedList } from "./windowed_list.ts";
export {
  type Displayable,
  type DisplayOptions,
  frameBundle,
  isDataFrame,
  type MediaBundle,
  polarsDisplay,
  show,
  withDisplay,
} from "./display.ts";
export { checkColumns as requireColumns, type Wanted } from "../shared/wrong_input.ts";
export { ResultTable, type ResultTableInit, TEXT_WIDTH, textWidth } from "./result_table.ts";
