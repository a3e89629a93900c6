import { applyDecorators, SetMetadata, Type, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { IDEMPOTENT_REFRESH, IdempotencyInterceptor, IdempotentRefresh } from './idempotency.interceptor';

const DESCRIPTION =
  'Optional, 1-255 printable characters. Within 24 h per account, a retry with the same key and the same body gets the first answer again ' +
  '(same status and ids; submit-tx-sync: the record as it is now) and never a second transaction, also when both requests race; ' +
  'the same key with another body is 409 RESOURCE_004 (also while the first request with the key is still running after 10 s). ' +
  'A request refused with an error does not use the key up.';

/** The route honours the Idempotency-Key header (the codes RESOURCE_004 and VALIDATION_001 go in its ApiContract). */
export function Idempotent(options: { refresh?: Type<IdempotentRefresh> } = {}): MethodDecorator {
  return applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({ name: 'Idempotency-Key', required: false, description: DESCRIPTION, schema: { type: 'string', minLength: 1, maxLength: 255 } }),
    ...(options.refresh ? [SetMetadata(IDEMPOTENT_REFRESH, options.refresh)] : []),
  );
}
