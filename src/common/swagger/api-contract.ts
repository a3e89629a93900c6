import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtension, ApiExtraModels, ApiOperation, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ERROR_CATALOG, ErrorCode } from '../errors/error-catalog';

/** Who may call an operation; becomes the operation's `security` in the OpenAPI document. */
export type ApiAuth = 'public' | 'api-key' | 'api-key-or-jwt' | 'admin';
/** The response shape of interface.md "Response envelopes" (`bare`: the object itself, no envelope). */
export type ApiEnvelope = 'success' | 'code' | 'bare';

export interface ApiContractOptions {
  summary: string;
  description?: string;
  auth: ApiAuth;
  envelope: ApiEnvelope;
  /** Success status (default 200). */
  status?: number;
  /** `data` of the success response: a DTO class, `[Dto]` for an array. */
  type: Type<unknown> | [Type<unknown>];
  /** A further success status with the same body (POST /api/submit-tx-sync: 202 on timeout). */
  alsoStatus?: { status: number; description: string };
  /** Catalog codes the operation itself can answer with, beyond the ones its auth, rate limit and validation add. */
  errors?: ErrorCode[];
  /** Counted against the per-key rate limit: adds 429 RESOURCE_003. */
  rateLimited?: boolean;
  /** Has no request DTO to validate (no VALIDATION_004). */
  noInput?: boolean;
  /**
   * The request body's example, when the one composed from every property's example would not be
   * a valid request (fields that exclude each other, such as gasPrice with the EIP-1559 pair).
   */
  requestExample?: unknown;
}

/** @nestjs/swagger's metadata key of ApiSecurity (its constants are not exported); ApiSecurity itself can only add, not set `[]`. */
const API_SECURITY_METADATA = 'swagger/apiSecurity';

/** Named component schemas of the error bodies; the document builder adds them (see openapi-document.ts). */
export const ERROR_ENVELOPE_SCHEMA = 'ErrorEnvelope';
export const CODE_ERROR_ENVELOPE_SCHEMA = 'CodeErrorEnvelope';
/** Operation extension carrying the auth mode, read back by the document's completeness test. */
export const AUTH_EXTENSION = 'x-auth';
/** Operation extension carrying ApiContract's requestExample; the document builder moves it to the body. */
export const REQUEST_EXAMPLE_EXTENSION = 'x-request-example';

const AUTH_ERRORS: Record<ApiAuth, ErrorCode[]> = {
  public: [],
  // AUTH_003: the account's ipWhitelist / domainWhitelist refuse the request's IP or Origin.
  'api-key': ['AUTH_001', 'AUTH_002', 'AUTH_003', 'USER_002'],
  'api-key-or-jwt': ['AUTH_001', 'AUTH_002', 'AUTH_003', 'AUTH_004', 'AUTH_005', 'USER_002'],
  admin: ['AUTH_001'],
};

/** The catalog codes an operation can answer with, in catalog order. */
export function errorCodesOf(options: Pick<ApiContractOptions, 'auth' | 'errors' | 'rateLimited' | 'noInput'>): ErrorCode[] {
  const codes = new Set<ErrorCode>([...AUTH_ERRORS[options.auth], ...(options.errors ?? []), 'SYSTEM_001', 'SYSTEM_002']);
  if (!options.noInput) codes.add('VALIDATION_004');
  if (options.rateLimited) codes.add('RESOURCE_003');
  return (Object.keys(ERROR_CATALOG) as ErrorCode[]).filter((code) => codes.has(code));
}

/**
 * One decorator per operation that states its whole contract: auth (as `security`, never as a
 * header parameter), the success body inside its real envelope, and every error status it can
 * give with the envelope of its path and the catalog codes in the description. Examples are
 * filled in by the document builder from the schemas (openapi-document.ts).
 */
export function ApiContract(options: ApiContractOptions): MethodDecorator {
  const [model, isArray] = Array.isArray(options.type) ? [options.type[0], true] : [options.type, false];
  const data: SchemaObject | ReferenceObject = isArray ? { type: 'array', items: { $ref: getSchemaPath(model) } } : { $ref: getSchemaPath(model) };
  const body = envelopeSchema(options.envelope, data);
  const decorators: Array<MethodDecorator | ClassDecorator> = [
    ApiOperation({ summary: options.summary, description: options.description }),
    ApiExtraModels(model),
    ApiExtension(AUTH_EXTENSION, options.auth),
    ...(options.requestExample === undefined ? [] : [ApiExtension(REQUEST_EXAMPLE_EXTENSION, options.requestExample)]),
    security(options.auth),
    ApiResponse({ status: options.status ?? 200, description: successDescription(options.envelope), schema: body }),
  ];
  if (options.alsoStatus) decorators.push(ApiResponse({ status: options.alsoStatus.status, description: options.alsoStatus.description, schema: body }));
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(options)) {
    const status = ERROR_CATALOG[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of byStatus) decorators.push(errorResponse(status, codes, options.envelope));
  return applyDecorators(...decorators);
}

function envelopeSchema(envelope: ApiEnvelope, data: SchemaObject | ReferenceObject): SchemaObject | ReferenceObject {
  if (envelope === 'bare') return data;
  if (envelope === 'code') {
    return {
      type: 'object',
      required: ['code', 'message', 'data'],
      properties: { code: { type: 'integer', enum: [0], example: 0 }, message: { type: 'string', enum: ['success'], example: 'success' }, data },
    };
  }
  return {
    type: 'object',
    required: ['success', 'data', 'timestamp'],
    properties: { success: { type: 'boolean', enum: [true], example: true }, data, timestamp: { type: 'string', format: 'date-time', example: EXAMPLE_TIMESTAMP } },
  };
}

export const EXAMPLE_TIMESTAMP = '2026-11-23T12:00:00.000Z';
export const EXAMPLE_TRACE_ID = '6f1d2c3b-8a9e-4b7c-9d0e-1f2a3b4c5d6e';

function successDescription(envelope: ApiEnvelope): string {
  if (envelope === 'code') return 'code envelope: {code: 0, message: "success", data}';
  if (envelope === 'bare') return 'the object itself, no envelope';
  return 'success envelope: {success: true, data, timestamp}';
}

export const ERROR_HEADERS = {
  'X-Error-Code': { description: 'the catalog code', schema: { type: 'string', example: 'VALIDATION_004' } },
  'X-Trace-Id': { description: 'the trace id of the request', schema: { type: 'string', example: EXAMPLE_TRACE_ID } },
};

function errorResponse(status: number, codes: ErrorCode[], envelope: ApiEnvelope): MethodDecorator {
  const list = codes.map((code) => `${code} (${ERROR_CATALOG[code].message})`).join(', ');
  const first = codes[0];
  if (envelope === 'code') {
    return ApiResponse({
      status,
      description: `${list}. Code envelope: the body carries the HTTP status as \`code\`; the catalog code is in the \`X-Error-Code\` header, the trace id in \`X-Trace-Id\`.`,
      headers: ERROR_HEADERS,
      schema: { $ref: `#/components/schemas/${CODE_ERROR_ENVELOPE_SCHEMA}` },
      example: { code: status, data: null, message: ERROR_CATALOG[first].message },
    });
  }
  return ApiResponse({
    status,
    description: `${list}.`,
    headers: ERROR_HEADERS,
    schema: { $ref: `#/components/schemas/${ERROR_ENVELOPE_SCHEMA}` },
    example: {
      success: false,
      error: { code: first, message: ERROR_CATALOG[first].message, category: first.slice(0, first.indexOf('_')), traceId: EXAMPLE_TRACE_ID },
      timestamp: EXAMPLE_TIMESTAMP,
    },
  });
}

/** `security` of the operation: `[]` (explicitly none) for public ones, so the document-wide api-key requirement does not apply. */
function security(auth: ApiAuth): MethodDecorator {
  const requirements: Record<string, string[]>[] =
    auth === 'public' ? [] : auth === 'admin' ? [{ admin: [] }] : auth === 'api-key-or-jwt' ? [{ 'api-key': [] }, { jwt: [] }] : [{ 'api-key': [] }];
  return (_target, _key, descriptor) => {
    Reflect.defineMetadata(API_SECURITY_METADATA, requirements, descriptor.value as object);
    return descriptor;
  };
}

/** Component schemas of the two error bodies (interface.md "Errors", "Rules"). */
export function errorEnvelopeSchemas(): Record<string, SchemaObject> {
  const codes = Object.keys(ERROR_CATALOG);
  const categories = [...new Set(codes.map((code) => code.slice(0, code.indexOf('_'))))];
  return {
    [ERROR_ENVELOPE_SCHEMA]: {
      type: 'object',
      description: 'Error body of the success-envelope paths (/api/*, /v1/*, /admin/*).',
      required: ['success', 'error', 'timestamp'],
      properties: {
        success: { type: 'boolean', enum: [false] },
        error: {
          type: 'object',
          required: ['code', 'message', 'category', 'traceId'],
          properties: {
            code: { type: 'string', enum: codes, description: 'catalog code' },
            message: { type: 'string' },
            category: { type: 'string', enum: categories },
            traceId: { type: 'string', description: 'also in the X-Trace-Id header' },
          },
        },
        timestamp: { type: 'string', format: 'date-time' },
      },
    },
    [CODE_ERROR_ENVELOPE_SCHEMA]: {
      type: 'object',
      description: 'Error body of the code-envelope paths (swap, token, status and gasless endpoints).',
      required: ['code', 'data', 'message'],
      properties: {
        code: { type: 'integer', description: 'the HTTP status' },
        data: { type: 'object', nullable: true, enum: [null], description: 'always null' },
        message: { type: 'string' },
      },
    },
  };
}
