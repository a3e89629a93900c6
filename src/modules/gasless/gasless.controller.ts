import { Body, Controller, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RegionResolver } from '../relay';
import { Caller, CurrentCaller } from '../../common/http/authenticated-request';
import { RateLimited } from '../rate-limit';
import type { GaslessQuoteView } from './domain/gasless-quote';
import { GaslessQuoteService } from './domain/gasless-quote.service';
import { GaslessStatusService } from './domain/gasless-status.service';
import { GaslessSubmitService } from './domain/gasless-submit.service';
import type { GaslessSwapView } from './domain/gasless-swap-view';
import { GaslessQuoteQueryDto, GaslessStatusQueryDto, SubmitGaslessSwapDto } from './dto/gasless.dto';

const CODE_ENVELOPE = { description: 'code envelope: {code: 0, message: "success", data}' };

@ApiTags('gasless')
@ApiHeader({ name: 'api-key', required: true })
@Controller('gasless')
export class GaslessController {
  constructor(
    private readonly quotes: GaslessQuoteService,
    private readonly submissions: GaslessSubmitService,
    private readonly statuses: GaslessStatusService,
    private readonly regions: RegionResolver,
  ) {}

  @Get('quote')
  @RateLimited()
  @ApiOperation({ summary: 'Gasless swap quotes: Permit2 typed data to sign, fee taken in the input token' })
  @ApiOkResponse(CODE_ENVELOPE)
  quote(@CurrentCaller() caller: Caller, @Query() query: GaslessQuoteQueryDto): Promise<GaslessQuoteView[]> {
    return this.quotes.quote(caller, query);
  }

  @Post('submit-swap')
  @HttpCode(200)
  @RateLimited()
  @ApiOperation({ summary: 'Relay the settlement of a signed gasless quote; the calling account pays the gas' })
  @ApiOkResponse(CODE_ENVELOPE)
  submit(@CurrentCaller() caller: Caller, @Body() body: SubmitGaslessSwapDto, @Req() req: Request): Promise<GaslessSwapView> {
    return this.submissions.submit(caller, body, this.regions.hintsOf(req));
  }

  @Get('status')
  @ApiOperation({ summary: 'A gasless swap, following its relayed settlement' })
  @ApiOkResponse(CODE_ENVELOPE)
  status(@CurrentCaller() caller: Caller, @Query() query: GaslessStatusQueryDto): Promise<GaslessSwapView> {
    return this.statuses.status(caller, query.id);
  }
}
