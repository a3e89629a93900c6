import { ValidationError, ValidationPipe } from '@nestjs/common';
import { AppError } from '../errors/app-error';
import { cacheValidationMetadata } from './validation-metadata-cache';

/**
 * DTO validation for every route. Failures are VALIDATION_004 (schema) unless a DTO
 * field states another catalog code through its `context: { code }`.
 */
export function createValidationPipe(): ValidationPipe {
  cacheValidationMetadata();
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidUnknownValues: true,
    exceptionFactory: (errors) => {
      const flat = flatten(errors);
      const coded = flat.find((e) => e.code);
      const message = flat.map((e) => e.message).join('; ') || 'schema validation failed';
      return new AppError(coded?.code ?? 'VALIDATION_004', message);
    },
  });
}

type FlatError = { message: string; code?: AppError['code'] };

function flatten(errors: ValidationError[], prefix = ''): FlatError[] {
  const out: FlatError[] = [];
  for (const error of errors) {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    for (const [name, text] of Object.entries(error.constraints ?? {})) {
      const code = (error.contexts?.[name] as { code?: AppError['code'] } | undefined)?.code;
      out.push({ message: text.startsWith(error.property) ? text.replace(error.property, path) : `${path}: ${text}`, code });
    }
    if (error.children?.length) out.push(...flatten(error.children, path));
  }
  return out;
}
