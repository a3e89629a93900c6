import { Body, Controller, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RegionResolver } from '../relay';
import { Caller, CurrentCaller } from '../../common/http/authenticated-request';
import { ApiContract } from '../../common/swagger/api-contract';
import { Idempotent } from '../idempotency';
import { RateLimited } from '../rate-limit';
import type { GaslessQuoteView } from './domain/gasless-quote';
import { GaslessQuoteService } from './domain/gasless-quote.service';
import { GaslessStatusService } from './domain/gasless-status.service';
import { GaslessSubmitService } from './domain/gasless-submit.service';
import type { GaslessSwapView } from './domain/gasless-swap-view';
import { GaslessQuoteQueryDto, GaslessStatusQueryDto, SubmitGaslessSwapDto } from './dto/gasless.dto';
import { GaslessQuoteDto, GaslessSwapDto } from './dto/gasless-responses.dto';

@ApiTags('gasless')
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
  @ApiContract({
    summary: 'Gasless swap quotes: Permit2 typed data to sign, fee taken in the input token',
    description: 'Sign `eip712` (eth_signTypedData_v4) with the sender key and POST the signature with `quoteId` to /gasless/submit-swap before `deadline`.',
    auth: 'api-key',
    envelope: 'code',
    type: [GaslessQuoteDto],
    rateLimited: true,
    errors: ['VALIDATION_001', 'VALIDATION_002', 'VALIDATION_003', 'CHAIN_003'],
  })
  quote(@CurrentCaller() caller: Caller, @Query() query: GaslessQuoteQueryDto): Promise<GaslessQuoteView[]> {
    return this.quotes.quote(caller, query);
  }

  @Post('submit-swap')
  @HttpCode(200)
  @RateLimited()
  @Idempotent()
  @ApiContract({
    summary: 'Relay the settlement of a signed gasless quote; the calling account pays the gas',
    auth: 'api-key',
    envelope: 'code',
    type: GaslessSwapDto,
    rateLimited: true,
    errors: ['VALIDATION_001', 'AUTH_008', 'TRANSACTION_001', 'TRANSACTION_002', 'TRANSACTION_006', 'TRANSACTION_008', 'RESOURCE_001', 'RESOURCE_004', 'TRANSACTION_004', 'CHAIN_003'],
  })
  submit(@CurrentCaller() caller: Caller, @Body() body: SubmitGaslessSwapDto, @Req() req: Request): Promise<GaslessSwapView> {
    return this.submissions.submit(caller, body, this.regions.hintsOf(req));
  }

  @Get('status')
  // Catches up with the relayed settlement (receipts over RPC).
  @RateLimited()
  @ApiContract({ summary: 'A gasless swap, following its relayed settlement', auth: 'api-key', envelope: 'code', type: GaslessSwapDto, rateLimited: true, errors: ['RESOURCE_001'] })
  status(@CurrentCaller() caller: Caller, @Query() query: GaslessStatusQueryDto): Promise<GaslessSwapView> {
    return this.statuses.status(caller, query.id);
  }
}
