import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiContract } from '../../../common/swagger/api-contract';
import { AdminApi } from '../../accounts';
import { DeadLetterDto, DeadLetterQueryDto, ReplayDeadLetterDto, ReplayedDto } from '../dto/dead-letter.dto';
import { WebhookDeadLetters } from './dead-letters.service';

@ApiTags('admin')
@AdminApi()
@Controller('admin/webhooks')
export class AdminWebhooksController {
  constructor(private readonly deadLetters: WebhookDeadLetters) {}

  @Get('dead-letters')
  @ApiContract({ summary: 'Webhook deliveries whose retries ran out, newest first', auth: 'admin', envelope: 'success', type: [DeadLetterDto], errors: ['RESOURCE_001'] })
  list(@Query() query: DeadLetterQueryDto): Promise<DeadLetterDto[]> {
    return this.deadLetters.list(query);
  }

  @Post('dead-letters/:id/replay')
  @HttpCode(200)
  @ApiContract({ summary: 'Deliver a dead letter again, with a fresh retry schedule', auth: 'admin', envelope: 'success', type: ReplayedDto, errors: ['RESOURCE_001'] })
  replay(@Param() params: ReplayDeadLetterDto): Promise<ReplayedDto> {
    return this.deadLetters.replay(params.id);
  }
}
