/**
 * What reading a script, map or source by URL gives back, and the limits it works within: the shape both ways of
 * reading share (a test's context, src/stack/fetch.ts; daebug's own HTTP client, src/stack/http-get.ts).
 */
export type FetchResult =
  | { ok: true; text: string; contentType: string; sourceMapHeader?: string | undefined }
  | {
      ok: false;
      reason: string;
      /** The server's answer, when it answered with an error status (404, 500). */
      status?: number | undefined;
      /** Failed before any answer (refused, unknown host, a closed context): another way to the server may work. */
      inTransit?: boolean | undefined;
    };

/** Reads a script, map or source by URL; never throws, says why when it could not. */
export type Fetcher = (url: string) => Promise<FetchResult>;

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
}
