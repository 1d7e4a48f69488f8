/**
 * `data:` and `blob:` URLs as reports print them: a short prefix and the length. A sandboxed iframe's
 * `data:image/svg+xml,…` document or an inline image can be hundreds of kilobytes, and says nothing past its type.
 */
const KEPT = 48;

export function shortUrl(url: string): string {
  if (!/^(?:data|blob):/i.test(url) || url.length <= KEPT + 16) return url;
  return `${url.slice(0, KEPT)}… (${url.length} chars)`;
}
