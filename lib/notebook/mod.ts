/**
 * The notebook area: live progress for long work.
 *
 * @module
 */
export { autoSink, type Broadcast, describe, jupyterSink, ttySink } from "./progress.ts";
export {
  Progress,
  type ProgressOptions,
  type ProgressSink,
  type ProgressState,
  useProgressSink,
} from "../http/progress_hook.ts";
