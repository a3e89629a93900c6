import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { AUTH_EXTENSION, EXAMPLE_TIMESTAMP, errorEnvelopeSchemas } from '../common/swagger/api-contract';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const;

/** The OpenAPI document served at /docs-json and exported to packages/sdk/openapi.json. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
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
    .build();
  return finalizeDocument(SwaggerModule.createDocument(app, config));
}

/** Adds the error body schemas and an example to every request body, parameter and response that lacks one. */
export function finalizeDocument(doc: OpenAPIObject): OpenAPIObject {
  doc.components = doc.components ?? {};
  doc.components.schemas = { ...(doc.components.schemas ?? {}), ...errorEnvelopeSchemas() };
  const resolve = (schema: SchemaObject | ReferenceObject | undefined): SchemaObject | undefined => {
    if (!schema) return undefined;
    if ('$ref' in schema) return resolve(doc.components?.schemas?.[schema.$ref.split('/').pop() as string]);
    return schema;
  };
  for (const schema of Object.values(doc.components.schemas)) if (!('$ref' in schema)) describeDefaults(schema);
  const example = (schema: SchemaObject | ReferenceObject | undefined, depth = 0): unknown => exampleOf(schema, resolve, depth);
  for (const item of Object.values(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      // An explicit empty list overrides the document-wide api-key requirement (@nestjs/swagger drops an empty one).
      if ((op as unknown as Record<string, unknown>)[AUTH_EXTENSION] === 'public') op.security = [];
      for (const param of op.parameters ?? []) {
        if ('$ref' in param) continue;
        if (param.schema && !('$ref' in param.schema) && param.schema.default !== undefined) {
          param.description = withDefault(param.description, param.schema.default);
          delete param.schema.default;
        }
        if (param.example === undefined && param.schema) param.example = example(param.schema);
      }
      const body = op.requestBody && !('$ref' in op.requestBody) ? op.requestBody.content['application/json'] : undefined;
      if (body && body.example === undefined && body.schema) body.example = example(body.schema);
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
  if (s.type === 'string') return s.format === 'date-time' ? EXAMPLE_TIMESTAMP : 'string';
  if (s.type === 'integer' || s.type === 'number') return s.minimum ?? 1;
  if (s.type === 'boolean') return false;
  return null;
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
