import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../../common/http/authenticated-request';
import { resolveRange, TimeRangeQueryDto } from '../../../common/http/time-range';
import { microToUsd } from '../../../common/money/usd';
import { ApiContract } from '../../../common/swagger/api-contract';
import { ApiKeyOrJwt } from '../../auth';
import { RateLimited } from '../../rate-limit';
import { ChainAuditService } from '../audit/chain-audit.service';
import { ChargeAuditDto } from './dto/charge-audit.dto';

/** Rows one request re-reads from the chain at most. */
const ACCOUNT_AUDIT_MAX_ROWS = 2_000;

/** The admin chain audit, scoped to the caller's own rows (extensions.md, "proof of charge"). */
@ApiTags('accounts')
@Controller('api')
export class ChargeAuditController {
  constructor(private readonly audit: ChainAuditService) {}

  @Get('audit')
  @RateLimited()
  @ApiKeyOrJwt()
  @ApiContract({
    summary: "The caller's settled transactions recomputed from the chain",
    description:
      'One row per settled transaction created in [from, to) (at most 31 days; default the last 31): the receipt as the chain has it, the native price the charge was converted at, ' +
      `the cost they give, what the ledger charged, and whether they agree. At most ${ACCOUNT_AUDIT_MAX_ROWS} rows (truncated says so). Only the caller's own transactions.`,
    auth: 'api-key-or-jwt',
    envelope: 'success',
    type: ChargeAuditDto,
    rateLimited: true,
    errors: ['VALIDATION_001', 'CHAIN_003'],
  })
  async run(@CurrentCaller() caller: Caller, @Query() query: TimeRangeQueryDto): Promise<ChargeAuditDto> {
    const { from, to } = resolveRange(query);
    const { rows, truncated } = await this.audit.accountRows(caller.account.id, from, to, ACCOUNT_AUDIT_MAX_ROWS);
    const items = rows.map(({ costMicro, chargedMicro, nativePriceUsd, ...row }) => ({
      ...row,
      nativePriceUsd: nativePriceUsd === null ? null : Number(nativePriceUsd),
      costUSD: costMicro === null ? null : microToUsd(costMicro),
      chargedUsd: microToUsd(chargedMicro),
    }));
    return { from: from.toISOString(), to: to.toISOString(), items, ok: items.every((i) => i.onChain === 'match'), truncated };
  }
}
