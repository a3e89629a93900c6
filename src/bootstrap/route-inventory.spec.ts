import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RequestMethod, Type } from '@nestjs/common';
import { GUARDS_METADATA, INTERCEPTORS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { withOfflineApp } from '../../scripts/openapi/offline-document';
import { IS_PUBLIC } from '../common/http/public.decorator';
import { AdminAuditInterceptor, AdminGuard } from '../modules/accounts';
import { ApiKeyOrJwtGuard } from '../modules/auth/jwt/api-key-or-jwt.guard';
import { RATE_LIMIT_EXEMPT, RateLimitGuard } from '../modules/rate-limit';
import { PER_IP_LIMIT } from '../modules/rate-limit/rate-limited.decorator';

/**
 * Every route the application serves, read from Nest's router metadata, and how it is rate
 * limited. A new route without @RateLimited(), @RateLimitedPerIp() or @NotRateLimited(reason)
 * fails here, as does one whose limit cannot work (counted before its caller is known, an admin
 * route whose token is checked before its limit) and one missing from docs/security.md's table.
 */
interface Route {
  id: string;
  controller: string;
  guards: unknown[];
  interceptors: unknown[];
  isPublic: boolean;
  ipScope: string | undefined;
  exempt: string | undefined;
}

let routes: Route[] = [];

const meta = <T>(key: string, ...targets: object[]): T | undefined => {
  for (const target of targets) {
    const value = Reflect.getMetadata(key, target) as T | undefined;
    if (value !== undefined) return value;
  }
  return undefined;
};
const join2 = (...parts: string[]) => `/${parts.map((p) => p.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/')}`;

beforeAll(async () => {
  routes = await withOfflineApp((app) => {
    const found: Route[] = [];
    const controllers = new Set<Type>();
    for (const module of app.get(ModulesContainer).values()) for (const wrapper of module.controllers.values()) controllers.add(wrapper.metatype as Type);
    for (const controller of controllers) {
      const prefixes = [meta<string | string[]>(PATH_METADATA, controller) ?? ''].flat();
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
        for (const prefix of prefixes) {
          for (const path of [meta<string | string[]>(PATH_METADATA, handler) ?? ''].flat()) {
            found.push({
              id: `${method} ${join2(prefix, path).replace(/:(\w+)/g, '{$1}')}`,
              controller: controller.name,
              // Nest runs the class's guards, then the handler's, each in declaration order.
              guards: [...(Reflect.getMetadata(GUARDS_METADATA, controller) ?? []), ...(Reflect.getMetadata(GUARDS_METADATA, handler) ?? [])],
              interceptors: [...(Reflect.getMetadata(INTERCEPTORS_METADATA, controller) ?? []), ...(Reflect.getMetadata(INTERCEPTORS_METADATA, handler) ?? [])],
              isPublic: meta<boolean>(IS_PUBLIC, handler, controller) === true,
              ipScope: meta<string>(PER_IP_LIMIT, handler, controller),
              exempt: meta<string>(RATE_LIMIT_EXEMPT, handler, controller),
            });
          }
        }
      }
    }
    return found;
  });
}, 60_000);

/** How a route is limited, as docs/security.md's table states it. */
function decisionOf(route: Route): string {
  if (route.exempt) return 'exempt';
  if (route.ipScope) return `per IP (${route.ipScope})`;
  return 'per key';
}

describe('route inventory: every route is rate limited or explicitly exempt', () => {
  it('finds the whole surface', () => {
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.map((r) => r.id)).toEqual(expect.arrayContaining(['POST /api/submit-tx', 'GET /status', 'GET /v1/positions', 'GET /admin/audit-log', 'GET /health']));
  });

  it('has a limiter, or a stated reason not to, on every route', () => {
    const bare = routes.filter((r) => !r.exempt && !r.guards.includes(RateLimitGuard)).map((r) => `${r.id} (${r.controller})`);
    expect(bare).toEqual([]);
    for (const r of routes.filter((x) => x.exempt)) expect(r.exempt!.length).toBeGreaterThan(20);
  });

  it('counts per key only where the caller is known: after the api-key guard, or after ApiKeyOrJwtGuard on @Public routes', () => {
    const blind = routes.filter((r) => !r.exempt && !r.ipScope).filter((r) => {
      if (!r.isPublic) return false; // the global api-key guard runs before every route guard
      const auth = r.guards.indexOf(ApiKeyOrJwtGuard);
      return auth === -1 || auth > r.guards.indexOf(RateLimitGuard);
    });
    expect(blind.map((r) => r.id)).toEqual([]);
  });

  it('public routes count per IP: no public route is limited per key (it would have no key to count)', () => {
    const publicPerKey = routes.filter((r) => r.isPublic && !r.exempt && !r.ipScope && !r.guards.includes(ApiKeyOrJwtGuard));
    expect(publicPerKey.map((r) => r.id)).toEqual([]);
  });

  it('/admin/*: per-IP admin window before the admin token, and the audit log', () => {
    const admin = routes.filter((r) => r.id.split(' ')[1].startsWith('/admin'));
    expect(admin.length).toBeGreaterThan(10);
    for (const r of admin) {
      expect({ route: r.id, scope: r.ipScope }).toEqual({ route: r.id, scope: 'admin' });
      expect({ route: r.id, limitFirst: r.guards.indexOf(RateLimitGuard) < r.guards.indexOf(AdminGuard) && r.guards.includes(AdminGuard) }).toEqual({ route: r.id, limitFirst: true });
      expect({ route: r.id, audited: r.interceptors.includes(AdminAuditInterceptor) }).toEqual({ route: r.id, audited: true });
    }
  });

  it("docs/security.md's route table states each route's decision", () => {
    const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'security.md'), 'utf8');
    const table = new Map<string, string>();
    for (const match of doc.matchAll(/^\| `([A-Z]+ \/[^`]*)` \| ([^|]+?) \|/gm)) table.set(match[1], match[2].trim());
    // PRINT_ROUTES=1 prints the rows for the table.
    if (process.env.PRINT_ROUTES) process.stdout.write(`${routes.map((r) => `| \`${r.id}\` | ${decisionOf(r)} |`).join('\n')}\n`);
    const wrong = routes.filter((r) => table.get(r.id) !== decisionOf(r)).map((r) => `${r.id}: code says "${decisionOf(r)}", docs say "${table.get(r.id) ?? 'nothing'}"`);
    expect(wrong).toEqual([]);
  });
});
