/**
 * Nesting depth of a JSON text, measured on the raw bytes before it is parsed: every later
 * stage (class-transformer, class-validator, loggers) walks the parsed value recursively, so a
 * body of 10,000 `[` would overflow their stacks. Brackets inside strings do not count.
 * Returns as soon as `limit` is exceeded, so the cost is bounded by the body size limit.
 */
export function exceedsJsonDepth(bytes: Buffer, limit: number): boolean {
  const OPEN_OBJECT = 0x7b;
  const OPEN_ARRAY = 0x5b;
  const CLOSE_OBJECT = 0x7d;
  const CLOSE_ARRAY = 0x5d;
  const QUOTE = 0x22;
  const BACKSLASH = 0x5c;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth--;
    }
  }
  return false;
}
