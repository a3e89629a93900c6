import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

interface Options {
  status?: number;
  isArray?: boolean;
  /** The code envelope (swap, token, status and gasless endpoints) instead of the success envelope. */
  codeEnvelope?: boolean;
  description?: string;
}

/** Documents `data` inside the envelope the route uses, so /docs shows what clients receive. */
export function ApiEnvelopedResponse(model: Type<unknown>, options: Options = {}) {
  const data: SchemaObject | ReferenceObject = options.isArray ? { type: 'array', items: { $ref: getSchemaPath(model) } } : { $ref: getSchemaPath(model) };
  const envelope: Record<string, SchemaObject | ReferenceObject> = options.codeEnvelope
    ? { code: { type: 'integer', example: 0 }, message: { type: 'string', example: 'success' }, data }
    : { success: { type: 'boolean', example: true }, data, timestamp: { type: 'string', format: 'date-time' } };
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status: options.status ?? 200,
      description: options.description,
      schema: { type: 'object', properties: envelope, required: Object.keys(envelope) },
    }),
  );
}
