import { Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../../common/http/public.decorator';
import { AdminGuard } from '../../accounts';
import { DeadLetterDto, DeadLetterQueryDto, ReplayDeadLetterDto, ReplayedDto } from '../dto/dead-letter.dto';
import { WebhookDeadLetters } from './dead-letters.service';

@ApiTags('admin')
@ApiBearerAuth('admin')
@Public()
@UseGuards(AdminGuard)
@Controller('admin/webhooks')
export class AdminWebhooksController {
  constructor(private readonly deadLetters: WebhookDeadLetters) {}

  @Get('dead-letters')
  @ApiOperation({ summary: 'Webhook deliveries whose retries ran out, newest first' })
  @ApiOkResponse({ type: [DeadLetterDto] })
  list(@Query() query: DeadLetterQueryDto): Promise<DeadLetterDto[]> {
    return this.deadLetters.list(query);
  }

  @Post('dead-letters/:id/replay')
  @HttpCode(200)
  @ApiOperation({ summary: 'Deliver a dead letter again, with a fresh retry schedule' })
  @ApiOkResponse({ type: ReplayedDto })
  replay(@Param() params: ReplayDeadLetterDto): Promise<ReplayedDto> {
    return this.deadLetters.replay(params.id);
  }
}
