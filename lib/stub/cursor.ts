/**
 * Opaque, HMAC-signed cursors bound to the query they came from. A cursor
 * carries an offset, the sort and a hash of the other parameters; a tampered
 * cursor, or one reused with another sort or other filters, is rejected.
 *
 * @module
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";

interface Payload {
  /** Offset of the page. */
  o: number;
  /** Sort it belongs to. */
  s: string;
  /** Hash of the other parameters. */
  h: string;
}

/** Signs and checks cursors with one secret. */
export class Cursors {
  #secret: string;
  /** Creates a cursor codec with a secret. */
  constructor(secret: string) {
    this.#secret = secret;
  }
  /** A stable short hash of a query description. */
  static hash(value: unknown): string {
    return createHash("sha256").update(JSON.stringify(value)).digest("base64url").slice(0, 16);
  }
  /** Encodes a cursor. */
  encode(offset: number, sort: string, hash: string): string {
    const body = Buffer.from(JSON.stringify({ o: offset, s: sort, h: hash })).toString("base64url");
    return `${body}.${this.#sign(body)}`;
  }
  /** Decodes a cursor, or returns the reason it is not valid here. */
  decode(cursor: string, sort: string, hash: string): { offset: number } | { error: string } {
    const [body, sig, extra] = cursor.split(".");
    if (!body || !sig || extra !== undefined) return { error: "the cursor is malformed" };
    const want = Buffer.from(this.#sign(body));
    const got = Buffer.from(sig);
    if (want.length !== got.length || !timingSafeEqual(want, got)) {
      return { error: "the cursor is not one this service issued (tampered or corrupted)" };
    }
    let p: Payload;
    try {
      p = JSON.parse(Buffer.from(body, "base64url").toString());
    } catch {
      return { error: "the cursor is malformed" };
    }
    if (p.s !== sort) {
      return {
        error: `the cursor belongs to sort "${p.s}", not "${sort}"; restart without cursor`,
      };
    }
    if (p.h !== hash) {
      return { error: "the cursor belongs to other filters; restart without cursor" };
    }
    return { offset: p.o };
  }
  #sign(body: string): string {
    return createHmac("sha256", this.#secret).update(body).digest("base64url").slice(0, 22);
  }
}
