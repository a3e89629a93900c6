import { Injectable, PipeTransform } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import { createValidationPipe } from '../../../common/http/validation.pipe';
import { RegisterWebhookDto } from '../dto/register-webhook.dto';

/** decisions.md: at most 20 webhooks per account. */
export const MAX_WEBHOOKS = 20;

/**
 * The body is a top-level JSON array, which the global pipe cannot validate (it sees no
 * class); each element goes through that same pipe so codes and messages match the rest of
 * the API, prefixed with the element's index.
 */
@Injectable()
export class RegisterWebhooksPipe implements PipeTransform<unknown, Promise<RegisterWebhookDto[]>> {
  private readonly itemPipe = createValidationPipe();

  async transform(body: unknown): Promise<RegisterWebhookDto[]> {
    if (!Array.isArray(body)) throw new AppError('VALIDATION_004', 'body must be a JSON array of webhook registrations');
    if (body.length > MAX_WEBHOOKS) throw new AppError('VALIDATION_001', `at most ${MAX_WEBHOOKS} webhooks per account (got ${body.length})`);
    const items: RegisterWebhookDto[] = [];
    for (const [index, item] of body.entries()) {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) throw new AppError('VALIDATION_004', `[${index}]: must be an object`);
      try {
        items.push((await this.itemPipe.transform(item, { type: 'body', metatype: RegisterWebhookDto })) as RegisterWebhookDto);
      } catch (err) {
        if (err instanceof AppError) throw new AppError(err.code, `[${index}].${err.message}`);
        throw err;
      }
    }
    return items;
  }
}
