import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Caller, CurrentCaller } from '../../../common/http/authenticated-request';
import { Public } from '../../../common/http/public.decorator';
import { ApiContract } from '../../../common/swagger/api-contract';
import { SUBMIT_TX_EXAMPLE, SUBMIT_TX_SYNC_EXAMPLE } from '../../../common/swagger/examples';
import { Idempotent } from '../../idempotency';
import { RateLimited, RateLimitedPerIp } from '../../rate-limit';
import { SyncReplay } from './sync-replay';
import { SubmissionService, Submitted } from '../intake/submission.service';
import { SyncWaitService } from '../intake/sync-wait.service';
import { TxQueryService } from './tx-query.service';
import { toTxRecord, TxRecord } from './tx-view';
import { DEFAULT_SYNC_TIMEOUT_MS, flag, SubmitTxSyncDto, TxQueryDto } from './dto/relay-requests.dto';
import { SubmitSignedTxDto, SubmitSignedTxResultDto } from './dto/submit-signed-tx.dto';
import { TxRecordDto } from './dto/tx-record.dto';
import { QuoteResultDto, SubmitTxDto, SubmitTxResultDto } from './dto/submit-tx.dto';
import { FundingQuoteService } from '../intake/funding-quote.service';
import { FundingSignedService } from '../intake/funding-signed.service';
import { RegionResolver } from '../intake/region-resolver';

/** What a submission can be refused with (interface.md, POST /api/submit-tx). */
const SUBMIT_ERRORS = [
  'VALIDATION_001', 'VALIDATION_003', 'TRANSACTION_005', 'CHAIN_001', 'TRANSACTION_001', 'TRANSACTION_002', 'TRANSACTION_006', 'TRANSACTION_007', 'TRANSACTION_008', 'VALIDATION_002', 'USER_001', 'CHAIN_003', 'RESOURCE_004', 'RELAYER_001',
  // No fresh native price (extensions.md, "Market data").
  'CHAIN_004',
] as const;

const REGION_HEADER = { name: 'X-Relay-Region', required: false, description: 'region pin; wins over the body region' };

@ApiTags('relay')
@Controller('api')
export class RelayController {
  constructor(
    private readonly submissions: SubmissionService,
    private readonly sync: SyncWaitService,
    private readonly txs: TxQueryService,
    private readonly fundingSigned: FundingSignedService,
    private readonly fundingQuotes: FundingQuoteService,
    private readonly regions: RegionResolver,
  ) {}

  @Post('submit-tx')
  @RateLimited()
  @Idempotent()
  @ApiContract({
    summary: 'Queue a gas-sponsored transaction',
    auth: 'api-key',
    envelope: 'success',
    status: 201,
    type: SubmitTxResultDto,
    rateLimited: true,
    errors: [...SUBMIT_ERRORS, 'TRANSACTION_004'],
    requestExample: SUBMIT_TX_EXAMPLE,
  })
  @ApiHeader(REGION_HEADER)
  submit(@CurrentCaller() caller: Caller, @Body() body: SubmitTxDto, @Req() req: Request): Promise<Submitted> {
    return this.submissions.submit({ caller, tx: body, region: this.regions.hintsOf(req) });
  }

  @Post('submit-tx-sync')
  @HttpCode(200)
  @RateLimited()
  @Idempotent({ refresh: SyncReplay })
  @ApiContract({
    summary: 'Queue and wait for a terminal status, a hash (returnOnTxHash) or the timeout (202, timedOut true)',
    auth: 'api-key',
    envelope: 'success',
    type: TxRecordDto,
    alsoStatus: { status: 202, description: 'timed out (timedOut true); the transaction keeps being relayed: poll GET /api/tx' },
    rateLimited: true,
    errors: [...SUBMIT_ERRORS, 'TRANSACTION_003', 'TRANSACTION_004'],
    requestExample: SUBMIT_TX_SYNC_EXAMPLE,
  })
  @ApiHeader(REGION_HEADER)
  async submitSync(@CurrentCaller() caller: Caller, @Body() body: SubmitTxSyncDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<TxRecord> {
    const { txId } = await this.submissions.submit({ caller, tx: body.tx, region: this.regions.hintsOf(req) });
    const { tx, timedOut } = await this.sync.wait(txId, body.timeoutMs ?? DEFAULT_SYNC_TIMEOUT_MS, body.returnOnTxHash ?? false);
    const record = toTxRecord(tx, { includeReceipt: body.includeReceipt, includeRevertInfo: body.includeRevertInfo });
    if (timedOut) {
      res.status(202);
      record.timedOut = true;
    }
    return record;
  }

  @Post('quote')
  @RateLimited()
  @ApiContract({
    summary: 'Estimate cost without queueing or charging',
    auth: 'api-key',
    envelope: 'success',
    status: 201,
    type: QuoteResultDto,
    rateLimited: true,
    errors: ['VALIDATION_001', 'VALIDATION_003', 'TRANSACTION_005', 'TRANSACTION_007', 'CHAIN_001', 'TRANSACTION_004', 'CHAIN_003', 'CHAIN_004'],
    requestExample: SUBMIT_TX_EXAMPLE,
  })
  quote(@CurrentCaller() caller: Caller, @Body() body: SubmitTxDto, @Req() req: Request) {
    if (body.transactionType === 'funding-signed') return this.fundingQuotes.quote(caller, body, this.regions.hintsOf(req));
    return this.submissions.quote({ caller, tx: body, region: this.regions.hintsOf(req) });
  }

  @Post('submit-signed-tx')
  @RateLimited()
  @Idempotent()
  @ApiContract({
    summary: 'Top up the sender of a user-signed transaction to minBalanceRequired, then broadcast and track it (funding-signed)',
    auth: 'api-key',
    envelope: 'success',
    status: 201,
    type: SubmitSignedTxResultDto,
    rateLimited: true,
    errors: [...SUBMIT_ERRORS, 'TRANSACTION_004', 'CHAIN_003'],
  })
  submitSigned(@CurrentCaller() caller: Caller, @Body() body: SubmitSignedTxDto, @Req() req: Request) {
    return this.fundingSigned.submit(caller, body, this.regions.hintsOf(req));
  }

  @Public()
  // A read with no side effect: the row is read while Redis counts the request (clients poll this).
  @RateLimitedPerIp('public', { checkAlongside: true })
  @Get('tx')
  @ApiContract({ summary: 'A relayed transaction by id', auth: 'public', envelope: 'success', type: TxRecordDto, rateLimited: true, errors: ['TRANSACTION_003'] })
  async get(@Query() query: TxQueryDto): Promise<TxRecord> {
    const tx = await this.txs.get(query.id);
    return toTxRecord(tx, { includeReceipt: flag(query.includeReceipt), includeRevertInfo: flag(query.includeRevertInfo) });
  }
}
