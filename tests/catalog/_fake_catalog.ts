/**
 * A fake catalog service for the download tests: its document answer points
 * at `http://files.test/blob` (fields overridable), every other URL is
 * answered by the test, and every URL fetched is recorded.
 */
import { CatalogClient } from "../../mod.ts";

/** A client on a fake catalog whose document answer is `doc`; records every URL fetched. */
export function fakeCatalog(
  doc: Record<string, unknown>,
  file: (url: string) => Response,
): { client: CatalogClient; fetched: string[] } {
  const fetched: string[] = [];
  const fetch = (input: Request | URL | string) => {
    const url = input instanceof Request ? input.url : String(input);
    fetched.push(url);
    if (new URL(url).pathname.endsWith("/document")) {
      return Promise.resolve(
        Response.json({
          url: "http://files.test/blob",
          format: "pdf",
          artifact: null,
          snapshot: "s",
          filename: "doc.pdf",
          expires_in_seconds: 60,
          ...doc,
        }),
      );
    }
    return Promise.resolve(file(url));
  };
  return {
    client: new CatalogClient({ apiKey: "k", baseUrl: "http://fake/catalog", fetch }),
    fetched,
  };
}
