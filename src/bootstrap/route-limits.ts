import { INestApplication, RequestMethod, Type } from '@nestjs/common';
import { GUARDS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { RateLimitGuard } from '../modules/rate-limit';
import { PER_IP_LIMIT } from '../modules/rate-limit/rate-limited.decorator';

/** How a route is counted: per API key (or account), or per client IP in one of the IP scopes. */
export type RouteLimit = { kind: 'key' } | { kind: 'ip'; scope: string };

const join = (...parts: string[]) => `/${parts.map((p) => p.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/')}`;

/**
 * The rate-limited routes of the application as `METHOD /path/{param}` (the OpenAPI spelling),
 * read from the same router metadata the RateLimitGuard acts on, so the document declares the
 * 429 and the RateLimit-* headers exactly where the service sends them.
 */
export function rateLimitedRoutes(app: INestApplication): Map<string, RouteLimit> {
  const routes = new Map<string, RouteLimit>();
  const controllers = new Set<Type>();
  for (const module of app.get(ModulesContainer).values()) for (const wrapper of module.controllers.values()) controllers.add(wrapper.metatype as Type);
  for (const controller of controllers) {
    const prefixes = [(Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined) ?? ''].flat();
    for (const name of Object.getOwnPropertyNames(controller.prototype)) {
      const handler = (controller.prototype as Record<string, unknown>)[name];
      if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
      const guards = [...((Reflect.getMetadata(GUARDS_METADATA, controller) as unknown[]) ?? []), ...((Reflect.getMetadata(GUARDS_METADATA, handler) as unknown[]) ?? [])];
      if (!guards.includes(RateLimitGuard)) continue;
      const scope = (Reflect.getMetadata(PER_IP_LIMIT, handler) ?? Reflect.getMetadata(PER_IP_LIMIT, controller)) as string | undefined;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
      for (const prefix of prefixes) {
        for (const path of [(Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined) ?? ''].flat()) {
          routes.set(`${method} ${join(prefix, path).replace(/:(\w+)/g, '{$1}')}`, scope ? { kind: 'ip', scope } : { kind: 'key' });
        }
      }
    }
  }
  return routes;
}
