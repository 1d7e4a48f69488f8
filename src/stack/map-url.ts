const MARK = 'sourceMappingURL=';
// The comment has to stand on its own line: a 'sourceMappingURL=' inside a string of the bundle is not one.
const COMMENT = /^[ \t]*(?:\/\/[#@]|\/\*[#@])[ \t]+sourceMappingURL=([^\s*'"]+)[ \t]*(?:\*\/)?[ \t]*$/;

/**
 * The URL in a script's last `//# sourceMappingURL=` (or `//@`, or a `/*# … *\/` block) comment, as written:
 * relative, absolute or `data:`. Scans backwards, so a multi-megabyte bundle is not split into lines.
 */
export function findSourceMappingUrl(script: string): string | undefined {
  let at = script.length;
  for (;;) {
    const found = script.lastIndexOf(MARK, at);
    if (found === -1) return undefined;
    const lineStart = script.lastIndexOf('\n', found) + 1;
    let lineEnd = script.indexOf('\n', found);
    if (lineEnd === -1) lineEnd = script.length;
    const match = COMMENT.exec(script.slice(lineStart, lineEnd).replace(/\r$/, ''));
    if (match?.[1]) return match[1];
    if (found === 0) return undefined;
    at = found - 1;
  }
}

/** Decodes a `data:` URL's body (base64 or percent-encoded); undefined when it is not one. */
export function decodeDataUrl(url: string): string | undefined {
  const match = /^data:([^,]*),(.*)$/s.exec(url);
  if (!match) return undefined;
  const meta = match[1] ?? '';
  const body = match[2] ?? '';
  if (/;base64$/i.test(meta)) return Buffer.from(body, 'base64').toString('utf8');
  try {
    return decodeURIComponent(body);
  } catch {
    return body;
  }
}

/** Resolves a map URL against the script's URL; undefined when it cannot be resolved. */
export function resolveMapUrl(mapUrl: string, scriptUrl: string): string | undefined {
  try {
    return new URL(mapUrl, scriptUrl).href;
  } catch {
    return undefined;
  }
}
