import { Controller, Get, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import { RawResponse } from '../../../common/envelope/envelope-kind';
import { Caller, CurrentCaller } from '../../../common/http/authenticated-request';
import { resolveRange, TimeRangeQueryDto } from '../../../common/http/time-range';
import { LedgerService } from '../../accounts';
import { ApiKeyOrJwt } from '../../auth';
import { RateLimited } from '../../rate-limit';
import { ledgerCsv } from './ledger-csv';

/** Entries one CSV holds at most (31 days of a busy account; a longer history is several ranges). */
const LEDGER_CSV_MAX_ROWS = 200_000;

/** The account's own ledger as a spreadsheet (extensions.md, "proof of charge"). */
@Controller('api')
export class StatementController {
  constructor(private readonly ledger: LedgerService) {}

  /**
   * Not in the OpenAPI document: its body is text/csv, and the document describes JSON bodies in
   * envelopes only (docs/decisions.md, "Ledger CSV"). Errors still come in the success envelope.
   */
  @Get('ledger.csv')
  @RateLimited()
  @ApiKeyOrJwt()
  @ApiExcludeEndpoint()
  @RawResponse()
  async csv(@CurrentCaller() caller: Caller, @Query() query: TimeRangeQueryDto, @Res({ passthrough: true }) res: Response): Promise<string> {
    const { from, to } = resolveRange(query);
    const body = ledgerCsv(await this.ledger.statement(caller.account.id, from, to, LEDGER_CSV_MAX_ROWS));
    // Set here, not with @Header(): Nest applies those before the handler, and a refusal (400 in
    // the JSON envelope) would then be labelled text/csv.
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', 'attachment; filename="ledger.csv"');
    return body;
  }
}
