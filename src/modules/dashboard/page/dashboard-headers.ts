import type { Response } from 'express';

/**
 * The page's own headers. Scripts and styles come only from the page's origin (no inline code,
 * no eval), data only from the same origin (the API, /metrics, the Socket.IO websocket), no
 * framing; the page keeps nothing but the session token, in sessionStorage.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  // 'self' covers the same origin's ws:/wss: (CSP Level 3), i.e. the Socket.IO connection.
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function setDashboardHeaders(res: Response, cache: 'no-cache' | 'immutable'): void {
  res.setHeader('Content-Security-Policy', DASHBOARD_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  res.setHeader('Cache-Control', cache === 'immutable' ? 'public, max-age=31536000, immutable' : 'no-cache');
}
