import { SetMetadata } from '@nestjs/common';

export type EnvelopeKind = 'success' | 'code';

/**
 * interface.md assigns the code envelope by path (the swap, token, status and gasless
 * endpoints); everything else uses the success envelope. Deciding by path rather than by
 * handler metadata means errors raised before routing (bad JSON, unknown routes) still get
 * the envelope a client of that path expects.
 */
const CODE_ENVELOPE_PATHS = new Set(['/quote', '/build-best-path', '/build-path-by-id', '/tokens', '/search-token', '/status']);

export function envelopeKindFor(path: string): EnvelopeKind {
  // The usual case at once: nothing under /api/ or /admin/ uses the code envelope.
  if (path.startsWith('/api/') || path.startsWith('/admin/')) return 'success';
  const clean = path.split('?')[0].replace(/\/+$/, '') || '/';
  if (CODE_ENVELOPE_PATHS.has(clean) || clean === '/gasless' || clean.startsWith('/gasless/')) return 'code';
  return 'success';
}

/** Marks a handler whose successful result is sent as is (POST /api/user/register-webhooks, /metrics). */
export const RAW_RESPONSE = 'envelope:raw';
export const RawResponse = (): MethodDecorator => SetMetadata(RAW_RESPONSE, true);
