import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { OperationObject, ReferenceObject, ResponseObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { offlineOpenApiDocument, serializeDocument } from '../../scripts/openapi/offline-document';
import { envelopeKindFor } from '../common/envelope/envelope-kind';
import { ERROR_CATALOG, ErrorCode } from '../common/errors/error-catalog';
import { AUTH_EXTENSION, CODE_ERROR_ENVELOPE_SCHEMA, ERROR_ENVELOPE_SCHEMA } from '../common/swagger/api-contract';
import { EVENT_SCHEMAS } from '../common/swagger/event-schemas';
import { withOfflineApp } from '../../scripts/openapi/offline-document';
import { rateLimitedRoutes, RouteLimit } from './route-limits';

/**
 * The whole OpenAPI document is held to the same bar, so a new endpoint without its contract
 * fails here: auth as security only, the success body inside the envelope of its path, every
 * error status with its envelope and catalog codes, examples, and no untyped schemas.
 */
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const PUBLIC_OPERATIONS = ['GET /api/tx', 'GET /api/user', 'GET /api/supported-chains', 'POST /api/auth/message', 'POST /api/auth/verify', 'GET /health'];
/** Answered with the object itself (interface.md: register-webhooks; /health is an operations probe). */
const BARE_OPERATIONS = ['POST /api/user/register-webhooks', 'GET /health'];

let doc: OpenAPIObject;
let limited: Map<string, RouteLimit>;
const operations: Array<{ id: string; path: string; op: OperationObject }> = [];

beforeAll(async () => {
  doc = await offlineOpenApiDocument();
  limited = await withOfflineApp(rateLimitedRoutes);
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op) operations.push({ id: `${method.toUpperCase()} ${path}`, path, op });
    }
  }
}, 60_000);

const resolve = (schema: SchemaObject | ReferenceObject | undefined): SchemaObject | undefined => {
  if (!schema) return undefined;
  if ('$ref' in schema) return resolve(doc.components?.schemas?.[schema.$ref.split('/').pop() as string]);
  return schema;
};

/** Every schema reachable from the document, with where it is. */
function* allSchemas(): Generator<[string, SchemaObject]> {
  const seen = new Set<unknown>();
  function* walk(where: string, schema: SchemaObject | ReferenceObject | undefined): Generator<[string, SchemaObject]> {
    if (!schema || '$ref' in schema || seen.has(schema)) return;
    seen.add(schema);
    yield [where, schema];
    for (const [name, prop] of Object.entries(schema.properties ?? {})) yield* walk(`${where}.${name}`, prop);
    if (schema.items) yield* walk(`${where}[]`, schema.items);
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object') yield* walk(`${where}{}`, schema.additionalProperties);
    for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) yield* walk(where, part);
  }
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) yield* walk(name, schema);
  for (const { id, op } of operations) {
    for (const param of op.parameters ?? []) if (!('$ref' in param)) yield* walk(`${id} ${param.name}`, param.schema);
    if (op.requestBody && !('$ref' in op.requestBody)) yield* walk(`${id} body`, op.requestBody.content['application/json']?.schema);
    for (const [status, response] of Object.entries(op.responses)) yield* walk(`${id} ${status}`, (response as ResponseObject).content?.['application/json']?.schema);
  }
}

describe('OpenAPI document', () => {
  it('is the one checked in as packages/sdk/openapi.json (run `npm run openapi:export`)', () => {
    const checkedIn = readFileSync(join(__dirname, '../../packages/sdk/openapi.json'), 'utf8');
    expect(serializeDocument(doc)).toBe(checkedIn);
  });

  it('matches the SDK types: openapi-typescript output of it (run `npm run generate -w @gas-relay/sdk`)', () => {
    const sdk = join(__dirname, '../../packages/sdk');
    const cli = join(__dirname, '../../node_modules/openapi-typescript/bin/cli.js');
    const generated = execFileSync(process.execPath, [cli, join(sdk, 'openapi.json')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    expect(generated).toBe(readFileSync(join(sdk, 'src/generated/api.ts'), 'utf8'));
  }, 60_000);

  it('lists the client endpoints of interface.md and the extensions', () => {
    const ids = operations.map((o) => o.id);
    for (const id of [
      'POST /api/submit-tx', 'POST /api/submit-tx-sync', 'POST /api/quote', 'POST /api/submit-signed-tx', 'GET /api/tx', 'GET /api/txs', 'GET /api/user',
      'GET /api/supported-chains', 'POST /api/user/register-webhooks', 'POST /api/auth/message', 'POST /api/auth/verify', 'GET /quote', 'GET /build-best-path',
      'POST /build-path-by-id', 'GET /tokens', 'GET /search-token', 'GET /status', 'GET /gasless/quote', 'POST /gasless/submit-swap', 'GET /gasless/status',
      'POST /v1/quotes', 'POST /v1/withdrawals', 'POST /v1/deposits', 'GET /v1/orders/{id}', 'GET /v1/positions',
    ]) {
      expect(ids).toContain(id);
    }
  });

  it('states auth as security only: none on public operations, a declared scheme on the others, never an api-key header parameter', () => {
    const schemes = Object.keys(doc.components?.securitySchemes ?? {});
    expect(doc.components?.securitySchemes?.['api-key']).toEqual({ type: 'apiKey', in: 'header', name: 'api-key' });
    for (const { id, op } of operations) {
      const auth = (op as unknown as Record<string, unknown>)[AUTH_EXTENSION];
      expect([id, auth]).toEqual([id, expect.stringMatching(/^(public|api-key|api-key-or-jwt|admin)$/)]);
      expect([id, op.security]).toEqual([id, expect.any(Array)]);
      if (PUBLIC_OPERATIONS.includes(id)) expect([id, op.security]).toEqual([id, []]);
      else {
        expect([id, auth]).not.toEqual([id, 'public']);
        expect([id, (op.security ?? []).length]).not.toEqual([id, 0]);
        for (const requirement of op.security ?? []) for (const name of Object.keys(requirement)) expect(schemes).toContain(name);
      }
      const headerParams = (op.parameters ?? []).filter((p) => !('$ref' in p) && p.in === 'header').map((p) => ('$ref' in p ? '' : p.name.toLowerCase()));
      expect([id, headerParams.filter((name) => name === 'api-key' || name === 'authorization')]).toEqual([id, []]);
    }
  });

  it('documents each success response inside the envelope of its path, with an example', () => {
    for (const { id, path, op } of operations) {
      const success = Object.entries(op.responses).filter(([status]) => /^2\d\d$/.test(status));
      expect([id, success.length > 0]).toEqual([id, true]);
      for (const [status, response] of success) {
        const media = (response as ResponseObject).content?.['application/json'];
        expect([id, status, media?.schema !== undefined, media?.example !== undefined]).toEqual([id, status, true, true]);
        const schema = resolve(media?.schema);
        const kind = BARE_OPERATIONS.includes(id) ? 'bare' : envelopeKindFor(path);
        if (kind === 'success') {
          expect([id, schema?.required]).toEqual([id, ['success', 'data', 'timestamp']]);
          expect([id, resolve(schema?.properties?.success)?.enum]).toEqual([id, [true]]);
        } else if (kind === 'code') {
          expect([id, schema?.required]).toEqual([id, ['code', 'message', 'data']]);
          expect([id, resolve(schema?.properties?.code)?.enum]).toEqual([id, [0]]);
        } else {
          expect([id, schema?.properties?.success]).toEqual([id, undefined]);
        }
        if (kind !== 'bare') {
          const data = resolve(schema?.properties?.data);
          expect([id, data?.type === 'array' ? resolve(data.items)?.properties !== undefined : data?.properties !== undefined]).toEqual([id, true]);
        }
      }
    }
  });

  it('documents every error status with the envelope of its path, its catalog codes and an example', () => {
    for (const { id, path, op } of operations) {
      const errors = Object.entries(op.responses).filter(([status]) => /^[45]\d\d$/.test(status));
      expect([id, errors.map(([status]) => status)]).toEqual([id, expect.arrayContaining(['500'])]);
      if (!PUBLIC_OPERATIONS.includes(id)) expect([id, errors.map(([status]) => status)]).toEqual([id, expect.arrayContaining(['401'])]);
      for (const [status, raw] of errors) {
        // /health answers 503 with its own body (status down): an operations probe, not an error.
        if (id === 'GET /health' && status === '503') continue;
        const response = raw as ResponseObject;
        const media = response.content?.['application/json'];
        const expected = envelopeKindFor(path) === 'code' ? CODE_ERROR_ENVELOPE_SCHEMA : ERROR_ENVELOPE_SCHEMA;
        expect([id, status, media?.schema]).toEqual([id, status, { $ref: `#/components/schemas/${expected}` }]);
        expect([id, status, media?.example !== undefined]).toEqual([id, status, true]);
        const codes = (response.description.match(/\b[A-Z]+_\d{3}\b/g) ?? []) as ErrorCode[];
        expect([id, status, codes.length > 0]).toEqual([id, status, true]);
        for (const code of codes) expect([id, code, ERROR_CATALOG[code]?.status]).toEqual([id, code, Number(status)]);
        if (expected === ERROR_ENVELOPE_SCHEMA) expect(codes).toContain((media?.example as { error: { code: string } }).error.code);
        else expect([id, status, (media?.example as { code: number }).code]).toEqual([id, status, Number(status)]);
      }
    }
  });

  it('gives every request body and parameter a schema and an example', () => {
    for (const { id, op } of operations) {
      for (const param of op.parameters ?? []) {
        if ('$ref' in param) continue;
        expect([id, param.name, param.schema !== undefined, param.example !== undefined]).toEqual([id, param.name, true, true]);
      }
      if (!op.requestBody) continue;
      const media = '$ref' in op.requestBody ? undefined : op.requestBody.content['application/json'];
      expect([id, media?.schema !== undefined, media?.example !== undefined]).toEqual([id, true, true]);
    }
  });

  it('has no untyped schema: objects name their properties, nullable values keep their real type', () => {
    const untyped: string[] = [];
    for (const [where, schema] of allSchemas()) {
      const isFreeObject = schema.type === 'object' && !schema.properties && !schema.additionalProperties && !schema.allOf && !schema.oneOf && !schema.enum;
      const hasNoType = !schema.type && !schema.allOf && !schema.oneOf && !schema.anyOf && !schema.enum && !schema.properties;
      if (isFreeObject || hasNoType) untyped.push(where);
    }
    expect(untyped).toEqual([]);
  });

  it('resolves every $ref', () => {
    const refs = new Set<string>();
    JSON.stringify(doc, (key, value: unknown) => {
      if (key === '$ref' && typeof value === 'string') refs.add(value);
      return value;
    });
    const unresolved = [...refs].filter((ref) => !doc.components?.schemas?.[ref.replace('#/components/schemas/', '')]);
    expect(unresolved).toEqual([]);
  });

  it('gives every operation a summary and a tag', () => {
    for (const { id, op } of operations) expect([id, Boolean(op.summary), (op.tags ?? []).length > 0]).toEqual([id, true, true]);
  });

  it('has no "string" placeholder and no empty example anywhere: every example is a real value', () => {
    const placeholders: string[] = [];
    const visit = (value: unknown, at: string, inExample: boolean): void => {
      if (value === 'string' && !at.endsWith('.type')) placeholders.push(at);
      else if (inExample && value === 'string') placeholders.push(at);
      else if (Array.isArray(value)) value.forEach((v, i) => visit(v, `${at}[${i}]`, inExample));
      else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, `${at}.${k}`, inExample || k === 'example' || k === 'examples');
    };
    visit(doc, '', false);
    expect(placeholders).toEqual([]);
    for (const { id, op } of operations) {
      for (const param of op.parameters ?? []) if (!('$ref' in param)) expect([id, param.name, param.example ?? null]).not.toEqual([id, param.name, null]);
    }
  });

  it('gives every scalar property of every schema its own example (null only where the property is nullable)', () => {
    const missing: string[] = [];
    for (const [where, schema] of allSchemas()) {
      for (const [name, raw] of Object.entries(schema.properties ?? {})) {
        if ('$ref' in raw) continue;
        const scalar = raw.type !== undefined && raw.type !== 'object' && (raw.type !== 'array' || (raw.items !== undefined && !('$ref' in raw.items) && !raw.items.properties));
        if (!scalar) continue;
        if (raw.example === undefined || (raw.example === null && !raw.nullable && !(raw.enum ?? []).includes(null))) missing.push(`${where}.${name}`);
        if (raw.type === 'array' && raw.example !== undefined && !Array.isArray(raw.example)) missing.push(`${where}.${name} (not an array)`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('names its servers (PUBLIC_ORIGIN; the exported document: the local stack)', () => {
    expect(doc.servers).toEqual([{ url: 'http://localhost:3000', description: expect.any(String) }]);
  });

  it('declares a 429 RESOURCE_003 with RateLimit-Limit, -Remaining, -Reset and Retry-After on every rate-limited operation, and the RateLimit-* on its successes', () => {
    expect(limited.size).toBeGreaterThan(40);
    const byId = new Map(operations.map((o) => [o.id, o.op]));
    const problems: string[] = [];
    for (const id of limited.keys()) {
      const op = byId.get(id);
      if (!op) continue; // a route outside the document (the dashboard page, /metrics)
      const tooMany = op.responses['429'] as ResponseObject | undefined;
      if (!tooMany) {
        problems.push(`${id}: no 429`);
        continue;
      }
      for (const header of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After']) if (!tooMany.headers?.[header]) problems.push(`${id}: 429 without ${header}`);
      if (!/RESOURCE_003/.test(tooMany.description)) problems.push(`${id}: 429 without RESOURCE_003`);
      for (const [status, response] of Object.entries(op.responses)) {
        if (/^2\d\d$/.test(status) && !(response as ResponseObject).headers?.['RateLimit-Remaining']) problems.push(`${id}: ${status} without RateLimit-*`);
      }
    }
    // And only there: an operation the limiter never counts promises no 429.
    for (const { id, op } of operations) if (!limited.has(id) && op.responses['429']) problems.push(`${id}: 429 but not rate limited`);
    expect(problems).toEqual([]);
    expect([...limited.keys()].filter((id) => byId.has(id)).length).toBeGreaterThan(40);
  });

  it('describes the webhook and socket events as component schemas, listed under x-webhooks and x-socket-events', () => {
    const extended = doc as unknown as Record<string, Record<string, unknown>>;
    for (const model of EVENT_SCHEMAS) expect(doc.components?.schemas?.[model.name]).toBeDefined();
    const webhooks = extended['x-webhooks'] as Record<string, { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }>;
    expect(Object.keys(webhooks).sort()).toEqual(['account.deposit', 'account.low_balance', 'sponsorship.request', 'tx.status', 'webhook.test']);
    for (const [event, item] of Object.entries(webhooks)) {
      const schema = resolve(item.post.requestBody.content['application/json'].schema);
      expect([event, resolve(schema?.properties?.event)?.enum]).toEqual([event, [event]]);
    }
    const socket = extended['x-socket-events'] as { serverEvents: Record<string, { $ref: string }> };
    expect(Object.keys(socket.serverEvents).sort()).toEqual(['account.deposit', 'account.low_balance', 'error', 'tx.status']);
    for (const ref of Object.values(socket.serverEvents)) expect(resolve(ref)).toBeDefined();
  });
});
