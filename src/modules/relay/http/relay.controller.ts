import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Caller, CurrentCaller } from '../../../common/http/authenticated-request';
import { Public } from '../../../common/http/public.decorator';
import { ApiEnvelopedResponse } from '../../../common/swagger/api-enveloped-response';
import { RateLimited } from '../../rate-limit';
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
  @ApiOperation({ summary: 'Queue a gas-sponsored transaction' })
  @ApiHeader(REGION_HEADER)
  @ApiEnvelopedResponse(SubmitTxResultDto, { status: 201 })
  submit(@CurrentCaller() caller: Caller, @Body() body: SubmitTxDto, @Req() req: Request): Promise<Submitted> {
    return this.submissions.submit({ caller, tx: body, region: this.regions.hintsOf(req) });
  }

  @Post('submit-tx-sync')
  @HttpCode(200)
  @RateLimited()
  @ApiOperation({ summary: 'Queue and wait for a terminal status, a hash (returnOnTxHash) or the timeout (202, timedOut true)' })
  @ApiHeader(REGION_HEADER)
  @ApiEnvelopedResponse(TxRecordDto)
  @ApiEnvelopedResponse(TxRecordDto, { status: 202, description: 'timed out (timedOut true); the transaction keeps being relayed' })
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
  @ApiOperation({ summary: 'Estimate cost without queueing or charging' })
  @ApiEnvelopedResponse(QuoteResultDto, { status: 201 })
  quote(@CurrentCaller() caller: Caller, @Body() body: SubmitTxDto, @Req() req: Request) {
    if (body.transactionType === 'funding-signed') return this.fundingQuotes.quote(caller, body, this.regions.hintsOf(req));
    return this.submissions.quote({ caller, tx: body, region: this.regions.hintsOf(req) });
  }

  @Post('submit-signed-tx')
  @RateLimited()
  @ApiOperation({ summary: 'Top up the sender of a user-signed transaction to minBalanceRequired, then broadcast and track it (funding-signed)' })
  @ApiEnvelopedResponse(SubmitSignedTxResultDto, { status: 201 })
  submitSigned(@CurrentCaller() caller: Caller, @Body() body: SubmitSignedTxDto, @Req() req: Request) {
    return this.fundingSigned.submit(caller, body, this.regions.hintsOf(req));
  }

  @Public()
  @Get('tx')
  @ApiOperation({ summary: 'A relayed transaction by id' })
  @ApiEnvelopedResponse(TxRecordDto)
  async get(@Query() query: TxQueryDto): Promise<TxRecord> {
    const tx = await this.txs.get(query.id);
    return toTxRecord(tx, { includeReceipt: flag(query.includeReceipt), includeRevertInfo: flag(query.includeRevertInfo) });
  }
}
