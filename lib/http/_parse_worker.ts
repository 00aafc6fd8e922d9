/**
 * The parse worker of `parse_pool.ts`: gets `{ id, bytes }` (a JSON answer's
 * UTF-8 bytes), posts back `{ id, packed }` (the parsed answer with its wide
 * row lists as value arrays, see `packWideLists`) or `{ id, failed: true }`
 * when the bytes are not JSON (the loop thread then parses them itself, to
 * raise its usual error).
 *
 * @module
 */
/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />
import { packWideLists } from "../shared/wide_rows.ts";

const decoder = new TextDecoder();

self.onmessage = (e: MessageEvent<{ id: number; bytes: Uint8Array }>) => {
  const { id, bytes } = e.data;
  let packed;
  try {
    packed = packWideLists(JSON.parse(decoder.decode(bytes)));
  } catch {
    self.postMessage({ id, failed: true });
    return;
  }
  self.postMessage({ id, packed });
};
