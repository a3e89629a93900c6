import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../../common/http/authenticated-request';
import { ApiContract } from '../../../common/swagger/api-contract';
import { ApiKeyOrJwt } from '../../auth';
import { RateLimited } from '../../rate-limit';
import { WebhookTestResultDto } from '../dto/webhook-test.dto';
import { WebhookTestService } from './webhook-test.service';

@ApiTags('webhooks')
@Controller('api/webhooks')
export class WebhookTestController {
  constructor(private readonly tests: WebhookTestService) {}

  @Post('test')
  @HttpCode(200)
  // One outbound POST per webhook (at most 20), each within WEBHOOK_TIMEOUT_MS.
  @RateLimited()
  @ApiKeyOrJwt()
  @ApiContract({
    summary: 'Send a signed webhook.test event to each enabled webhook of the account now',
    auth: 'api-key-or-jwt',
    envelope: 'success',
    type: [WebhookTestResultDto],
    rateLimited: true,
    noInput: true,
    description: 'Body sent: {event: "webhook.test", userId, timestamp}, signed with the Standard Webhooks headers and the registration\'s outbound auth. No retry; answers per webhook.',
  })
  test(@CurrentCaller() caller: Caller): Promise<WebhookTestResultDto[]> {
    return this.tests.send(caller.account.id);
  }
}
