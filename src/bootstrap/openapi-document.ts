import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { HeadersObject, OperationObject, ReferenceObject, ResponseObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { envelopeKindFor } from '../common/envelope/envelope-kind';
import { ERROR_CATALOG } from '../common/errors/error-catalog';
import {
  AUTH_EXTENSION,
  CODE_ERROR_ENVELOPE_SCHEMA,
  ERROR_ENVELOPE_SCHEMA,
  EXAMPLE_TIMESTAMP,
  EXAMPLE_TRACE_ID,
  ERROR_HEADERS,
  REQUEST_EXAMPLE_EXTENSION,
  errorEnvelopeSchemas,
} from '../common/swagger/api-contract';
import { EVENT_SCHEMAS, X_SOCKET_EVENTS, X_WEBHOOKS } from '../common/swagger/event-schemas';
import { vocabularyExample } from '../common/swagger/examples';
import { rateLimitedRoutes, RouteLimit } from './route-limits';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const;

/**
 * The OpenAPI document served at /docs-json and exported to packages/sdk/openapi.json;
 * `serverUrl` is PUBLIC_ORIGIN, the origin clients reach the API at.
 */
export function buildOpenApiDocument(app: INestApplication, serverUrl: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Gas relay, swap routing and vault API')
    .setDescription(
      'Gas-sponsored EVM transaction relay with swap routing, gasless swaps and vault deposits. ' +
        'Send the `api-key` header on every endpoint except the public ones (GET /api/tx, GET /api/user, GET /api/supported-chains, ' +
        'wallet login and /health). Every response carries `X-Trace-Id`; error responses also carry `X-Error-Code` (the catalog code). ' +
        'CORS: every path answers a preflight `OPTIONS` with 204, `Access-Control-Allow-Methods` = the methods the path serves and ' +
        '`Access-Control-Allow-Headers: api-key, authorization, content-type, idempotency-key, x-relay-region`, for the origins of `CORS_ORIGINS` ' +
        '(default `*`; an unlisted origin gets no CORS headers). Account policy on api-key and JWT requests and `/tx` sockets: a client IP outside the account\'s `ipWhitelist` ' +
        '(the socket address; `X-Forwarded-For` only from the proxies in `TRUST_PROXY`) or an `Origin` header whose host is outside its `domainWhitelist` ' +
        'is 403 AUTH_003; a call outside its `allowedTargets` is 403 TRANSACTION_007; a sponsorship its approval webhook does not approve is 403 TRANSACTION_008. ' +
        'The approval webhook receives `{event: "sponsorship.request", userId, chainId, to, callData, value, label, derivationPath, estimatedCostUSD}` signed with ' +
        'Standard Webhooks headers (its own secret) and must answer 2xx `{"approve": true}` within APPROVAL_TIMEOUT_MS. Webhooks and the `/tx` socket (account room) ' +
        'also receive `{event: "account.low_balance", userId, availableBalance, threshold, timestamp}` once each time availableBalance falls below lowBalanceThresholdUsd.',
    )
    .setVersion('1.0')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'api-key' }, 'api-key')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'wallet-login token (POST /api/auth/verify)' }, 'jwt')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' }, 'admin')
    .addSecurityRequirements('api-key')
    .addServer(serverUrl, 'this deployment (PUBLIC_ORIGIN)')
    .build();
  const doc = SwaggerModule.createDocument(app, config, { extraModels: EVENT_SCHEMAS });
  return finalizeDocument(doc, rateLimitedRoutes(app));
}

/**
 * Adds the error body schemas, the event catalog, an example to every schema property, request
 * body, parameter and response that lacks one, and the 429 with its RateLimit-* headers on every
 * rate-limited operation.
 */
export function finalizeDocument(doc: OpenAPIObject, limited: Map<string, RouteLimit> = new Map()): OpenAPIObject {
  doc.components = doc.components ?? {};
  doc.components.schemas = { ...(doc.components.schemas ?? {}), ...errorEnvelopeSchemas() };
  const extended = doc as OpenAPIObject & Record<string, unknown>;
  extended['x-webhooks'] = X_WEBHOOKS;
  extended['x-socket-events'] = X_SOCKET_EVENTS;
  const resolve = (schema: SchemaObject | ReferenceObject | undefined): SchemaObject | undefined => {
    if (!schema) return undefined;
    if ('$ref' in schema) return resolve(doc.components?.schemas?.[schema.$ref.split('/').pop() as string]);
    return schema;
  };
  for (const schema of Object.values(doc.components.schemas)) if (!('$ref' in schema)) describeDefaults(schema);
  for (const [name, schema] of Object.entries(doc.components.schemas)) if (!('$ref' in schema)) fillPropertyExamples(name, schema);
  const example = (schema: SchemaObject | ReferenceObject | undefined, depth = 0): unknown => exampleOf(schema, resolve, depth);
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      // An explicit empty list overrides the document-wide api-key requirement (@nestjs/swagger drops an empty one).
      if ((op as unknown as Record<string, unknown>)[AUTH_EXTENSION] === 'public') op.security = [];
      for (const param of op.parameters ?? []) {
        if ('$ref' in param) continue;
        if (param.schema && !('$ref' in param.schema) && param.schema.default !== undefined) {
          param.description = withDefault(param.description, param.schema.default);
          if (param.example === undefined) param.example = param.schema.default;
          delete param.schema.default;
        }
        const type = param.schema && !('$ref' in param.schema) ? param.schema.type : undefined;
        if (param.example === undefined) param.example = vocabularyExample(`@${path}`, param.name, type);
        if (param.example === undefined && param.schema) param.example = example(param.schema);
      }
      const body = op.requestBody && !('$ref' in op.requestBody) ? op.requestBody.content['application/json'] : undefined;
      // A whole request chosen by hand (ApiContract's requestExample): one that passes validation
      // where the example built from every property would combine fields that exclude each other.
      const chosen = (op as unknown as Record<string, unknown>)[REQUEST_EXAMPLE_EXTENSION];
      delete (op as unknown as Record<string, unknown>)[REQUEST_EXAMPLE_EXTENSION];
      if (body && chosen !== undefined) body.example = chosen;
      if (body && body.example === undefined && body.schema) body.example = example(body.schema);
      const limit = limited.get(`${method.toUpperCase()} ${path}`);
      if (limit) declareRateLimit(op, path, limit);
      for (const response of Object.values(op.responses ?? {})) {
        if (!response || '$ref' in response) continue;
        const media = response.content?.['application/json'];
        if (media && media.example === undefined && media.schema) media.example = example(media.schema);
      }
    }
  }
  return doc;
}

/** An example value from a schema: its own `example`, else its first enum value, else one built from its properties. */
export function exampleOf(schema: SchemaObject | ReferenceObject | undefined, resolve: (s: SchemaObject | ReferenceObject | undefined) => SchemaObject | undefined, depth = 0): unknown {
  const s = resolve(schema);
  if (!s || depth > 12) return null;
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (s.enum?.length) return s.enum.find((v) => v !== null) ?? null;
  if (s.oneOf?.length) return exampleOf(s.oneOf[0], resolve, depth + 1);
  if (s.allOf?.length) return Object.assign({}, ...s.allOf.map((part) => exampleOf(part, resolve, depth + 1)));
  if (s.type === 'array') return [exampleOf(s.items, resolve, depth + 1)];
  if (s.type === 'object' || s.properties) {
    const out: Record<string, unknown> = {};
    for (const [name, prop] of Object.entries(s.properties ?? {})) out[name] = exampleOf(prop, resolve, depth + 1);
    if (!s.properties && s.additionalProperties && typeof s.additionalProperties === 'object') out.key = exampleOf(s.additionalProperties, resolve, depth + 1);
    return out;
  }
  // No invented placeholders: a scalar without an example stays null, and the document's spec fails on it.
  if (s.type === 'string' && s.format === 'date-time') return EXAMPLE_TIMESTAMP;
  if (s.type === 'boolean') return false;
  return null;
}

/**
 * Gives each scalar property (and array of scalars) of a schema an example: its own, else the
 * first enum value, else the vocabulary's (examples.ts), else for a date-time the example
 * timestamp and for a boolean false. Objects and arrays of objects are left to be composed from
 * their parts (exampleOf), so the document does not repeat them.
 */
function fillPropertyExamples(where: string, schema: SchemaObject): void {
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    if ('$ref' in prop) continue;
    // OpenAPI 3.0.3: `nullable` does not widen an `enum`, so a null value must be listed for
    // validators (and generated types) to accept it.
    if (prop.nullable && prop.enum && !prop.enum.includes(null)) prop.enum = [...prop.enum, null];
    if (prop.properties) fillPropertyExamples(`${where}.${name}`, prop);
    const items = prop.type === 'array' && prop.items && !('$ref' in prop.items) ? prop.items : undefined;
    if (items?.properties) fillPropertyExamples(`${where}.${name}[]`, items);
    if (prop.example !== undefined || prop.properties || prop.allOf || prop.oneOf || prop.anyOf) continue;
    if (prop.type === 'array' && (!items || items.properties)) continue;
    if (prop.enum?.length) {
      prop.example = prop.enum.find((v) => v !== null) ?? null;
      continue;
    }
    const known = vocabularyExample(where, name, prop.type);
    if (known !== undefined) prop.example = known;
    else if (items && (items.example !== undefined || items.enum?.length)) prop.example = [items.example ?? items.enum![0]];
    else if (prop.type === 'string' && prop.format === 'date-time') prop.example = EXAMPLE_TIMESTAMP;
    else if (prop.type === 'boolean') prop.example = false;
  }
}

const RATE_LIMIT_HEADERS: HeadersObject = {
  'RateLimit-Limit': { description: 'requests allowed in the window (one minute)', schema: { type: 'integer', example: 600 } },
  'RateLimit-Remaining': { description: 'requests left in the current window', schema: { type: 'integer', example: 599 } },
  'RateLimit-Reset': { description: 'seconds until the oldest counted request leaves the window', schema: { type: 'integer', example: 60 } },
};
/** The same headers as a denied request shows them: nothing left in the window. */
const RATE_LIMIT_HEADERS_WHEN_DENIED: HeadersObject = {
  'RateLimit-Limit': RATE_LIMIT_HEADERS['RateLimit-Limit'],
  'RateLimit-Remaining': { description: 'requests left in the current window', schema: { type: 'integer', example: 0 } },
  'RateLimit-Reset': { description: 'seconds until the oldest counted request leaves the window', schema: { type: 'integer', example: 12 } },
};
const RETRY_AFTER: HeadersObject = { 'Retry-After': { description: 'seconds to wait before the next request can pass', schema: { type: 'integer', example: 12 } } };

/**
 * A rate-limited operation: the RateLimit-* headers on its success responses (the guard sets them
 * on every counted answer) and a 429 RESOURCE_003 carrying them and Retry-After.
 */
function declareRateLimit(op: OperationObject, path: string, limit: RouteLimit): void {
  const window = limit.kind === 'key' ? 'per API key (RATE_LIMIT_PER_MINUTE or the key\'s own limit)' : `per client IP (${limit.scope} scope)`;
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    if (!/^2\d\d$/.test(status) || !response || '$ref' in response) continue;
    response.headers = { ...RATE_LIMIT_HEADERS, ...(response.headers ?? {}) };
  }
  const existing = op.responses['429'] as ResponseObject | undefined;
  const message = ERROR_CATALOG.RESOURCE_003.message;
  const code = envelopeKindFor(path) === 'code';
  op.responses['429'] = {
    description: existing?.description ?? `RESOURCE_003 (${message}).`,
    content: existing?.content ?? {
      'application/json': {
        schema: { $ref: `#/components/schemas/${code ? CODE_ERROR_ENVELOPE_SCHEMA : ERROR_ENVELOPE_SCHEMA}` },
        example: code
          ? { code: 429, data: null, message }
          : { success: false, error: { code: 'RESOURCE_003', message, category: 'RESOURCE', traceId: EXAMPLE_TRACE_ID }, timestamp: EXAMPLE_TIMESTAMP },
      },
    },
    headers: {
      ...(existing?.headers ?? ERROR_HEADERS),
      'X-Error-Code': { description: 'the catalog code', schema: { type: 'string', example: 'RESOURCE_003' } },
      ...RATE_LIMIT_HEADERS_WHEN_DENIED,
      ...RETRY_AFTER,
    },
  };
  op.responses['429'].description = `${op.responses['429'].description.replace(/ Counted [^.]*\.$/, '')} Counted ${window}.`;
}

/**
 * Defaults of optional properties move into the description: generators such as
 * openapi-typescript type a property with a `default` as always present, which would force
 * clients to send what the server fills in itself.
 */
function describeDefaults(schema: SchemaObject): void {
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    if ('$ref' in prop) continue;
    if (prop.default !== undefined && !(schema.required ?? []).includes(name)) {
      prop.description = withDefault(prop.description, prop.default);
      if (prop.example === undefined) prop.example = prop.default;
      delete prop.default;
    }
    describeDefaults(prop);
  }
  if (schema.items && !('$ref' in schema.items)) describeDefaults(schema.items);
}

const withDefault = (description: string | undefined, value: unknown): string => `${description ? `${description}. ` : ''}Default: ${JSON.stringify(value)}.`;
