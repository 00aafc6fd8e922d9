/**
 * The notebook area: live progress for long work.
 *
 * @module
 */
export {
  autoSink,
  type Broadcast,
  describe,
  jupyterSink,
  Progress,
  type ProgressOptions,
  type ProgressSink,
  type ProgressState,
  ttySink,
  useProgressSink,
} from "./progress.ts";
