/**
 * Archived documents of the emulated catalog: real small artifacts (a valid
 * one-page PDF, an MHTML page, a Markdown file, a CSV attachment) and
 * HMAC-signed URLs that the emulator itself serves under
 * `/catalog/files/...`. A signed URL expires after `expires_in_seconds`
 * (300); a changed byte in it is rejected with `403`.
 *
 * Suggested filenames are `<TICKER>-<pitch_id>-<snapshot>.<ext>` for a
 * write-up and `<TICKER>-<pitch_id>-<snapshot>-attachment.csv` for an
 * attachment.
 *
 * @module
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { DocumentFormat } from "../../catalog/vocab.ts";
import type { Pitch } from "./catalog_data.ts";
import { escapeHtml } from "../../shared/html.ts";

/** Lifetime of a signed URL, seconds. */
export const URL_LIFETIME_SECONDS = 300;

/** What a signed URL points at. */
export interface Signed {
  /** Pitch id. */
  pitchId: string;
  /** Snapshot id. */
  snapshot: string;
  /** `pdf`, `mhtml`, `md` or `attachment`. */
  kind: DocumentFormat | "attachment";
  /** Content disposition. */
  disposition: "attachment" | "inline";
  /** Expiry, epoch seconds. */
  expires: number;
  /** Suggested filename. */
  filename: string;
}

const CONTENT_TYPES: Record<Signed["kind"], string> = {
  pdf: "application/pdf",
  mhtml: "multipart/related",
  md: "text/markdown; charset=utf-8",
  attachment: "text/csv; charset=utf-8",
};

/** Signs and verifies document URLs. */
export class Signer {
  #secret: string;
  /** Creates a signer. */
  constructor(secret: string) {
    this.#secret = secret;
  }
  /** The path and query (relative to the catalog base) of a signed URL. */
  path(s: Signed): string {
    const q = new URLSearchParams({
      disposition: s.disposition,
      expires: String(s.expires),
      filename: s.filename,
    });
    q.set("signature", this.#sign(s.pitchId, s.snapshot, s.kind, q));
    return `/files/${encodeURIComponent(s.pitchId)}/${
      encodeURIComponent(s.snapshot)
    }/${s.kind}?${q}`;
  }
  /** Checks a signed URL's parts; the reason when it is not valid. */
  verify(
    pitchId: string,
    snapshot: string,
    kind: string,
    query: URLSearchParams,
    nowSeconds: number,
  ): Signed | { error: "invalid-signature" | "url-expired" } {
    const want = Buffer.from(this.#sign(pitchId, snapshot, kind, query));
    const got = Buffer.from(query.get("signature") ?? "");
    if (want.length !== got.length || !timingSafeEqual(want, got)) {
      return { error: "invalid-signature" };
    }
    const expires = Number(query.get("expires"));
    if (!(expires > nowSeconds)) return { error: "url-expired" };
    return {
      pitchId,
      snapshot,
      kind: kind as Signed["kind"],
      disposition: query.get("disposition") === "inline" ? "inline" : "attachment",
      expires,
      filename: query.get("filename") ?? "document",
    };
  }
  /** The signature of a URL's parts (an absent query parameter signs as empty text). */
  #sign(pitchId: string, snapshot: string, kind: string, q: URLSearchParams): string {
    return createHmac("sha256", this.#secret)
      .update(
        [pitchId, snapshot, kind, q.get("disposition"), q.get("expires"), q.get("filename")].join(
          "\n",
        ),
      )
      .digest("base64url");
  }
}

/** The suggested filename of an artifact. */
export function filenameOf(
  ticker: string,
  p: Pitch,
  snapshot: string,
  kind: Signed["kind"],
): string {
  return kind === "attachment"
    ? `${ticker}-${p.pitch_id}-${snapshot}-attachment.csv`
    : `${ticker}-${p.pitch_id}-${snapshot}.${kind}`;
}

/** The bytes and content type of an artifact. */
export function artifact(
  kind: Signed["kind"],
  title: string,
  summary: string,
  snapshot: string,
): { body: Uint8Array; contentType: string } {
  const text = kind === "pdf"
    ? pdf(title, summary)
    : kind === "mhtml"
    ? mhtml(title, summary, snapshot)
    : kind === "md"
    ? `# ${title}\n\n${summary}\n\n_Snapshot ${snapshot}._\n`
    : `metric,value\nsnapshot,${snapshot}\nupside_pct,35\ndownside_pct,-15\n`;
  return { body: new TextEncoder().encode(text), contentType: CONTENT_TYPES[kind] };
}

/** A one-page PDF 1.4 with the title and summary as text. */
function pdf(title: string, summary: string): string {
  const esc = (s: string) => s.replace(/[^\x20-\x7e]/g, "-").replace(/([\\()])/g, "\\$1");
  const stream = `BT /F1 16 Tf 72 720 Td (${esc(title)}) Tj 0 -24 Td /F1 11 Tf (${
    esc(summary)
  }) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return out;
}

function mhtml(title: string, summary: string, snapshot: string): string {
  const boundary = `----=_signalbook_${snapshot}`;
  const html = `<!DOCTYPE html><html><head><title>${escapeHtml(title)}</title></head><body><h1>${
    escapeHtml(title)
  }</h1><p>${escapeHtml(summary)}</p></body></html>`;
  return [
    "From: <Saved by signalbook emulator>",
    `Subject: ${title.replace(/[\r\n]/g, " ")}`,
    "MIME-Version: 1.0",
    `Content-Type: multipart/related; type="text/html"; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    "Content-Type: text/html; charset=utf-8",
    "Content-Transfer-Encoding: 8bit",
    `Content-Location: https://pitches.example/${snapshot}`,
    "",
    html,
    `--${boundary}--`,
    "",
  ].join("\r\n");
}
