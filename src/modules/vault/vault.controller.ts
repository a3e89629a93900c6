import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RegionResolver } from '../relay';
import { Caller, CurrentCaller } from '../../common/http/authenticated-request';
import { ApiContract } from '../../common/swagger/api-contract';
import { Idempotent } from '../idempotency';
import { RateLimited } from '../rate-limit';
import { PlanExecutionService } from './domain/plan-execution.service';
import { VaultOrdersService } from './domain/vault-orders.service';
import { VaultQuotesService } from './domain/vault-quotes.service';
import { DepositQuoteRequestDto, ExecutePlanRequestDto, WithdrawalRequestDto } from './dto/vault-requests.dto';
import { DepositQuoteDto, OrderDto, WithdrawalQuoteDto } from './dto/vault-responses.dto';

@ApiTags('vault')
@Controller('v1')
export class VaultController {
  constructor(
    private readonly quotes: VaultQuotesService,
    private readonly execution: PlanExecutionService,
    private readonly orders: VaultOrdersService,
    private readonly regions: RegionResolver,
  ) {}

  @Post('quotes')
  @HttpCode(200)
  @RateLimited()
  @ApiContract({
    summary: 'Solver auction for a deposit; returns the allocation and the unsigned EIP-7702 settlement payload',
    description: 'Sign `txPayload.authorization` (EIP-7702) and `txPayload.executeDigest` with the EOA key, then POST both to /v1/deposits before expiresAt.',
    auth: 'api-key',
    envelope: 'success',
    type: DepositQuoteDto,
    rateLimited: true,
    errors: ['USER_003', 'VALIDATION_001', 'VALIDATION_003', 'CHAIN_001', 'RESOURCE_001', 'CHAIN_003'],
  })
  depositQuote(@CurrentCaller() caller: Caller, @Body() body: DepositQuoteRequestDto): Promise<DepositQuoteDto> {
    return this.quotes.depositQuote(caller, body);
  }

  @Post('withdrawals')
  @HttpCode(200)
  @RateLimited()
  @ApiContract({
    summary: "Withdrawal plan: redeem shares (or 'max') from a vault; sign it and submit to POST /v1/deposits",
    auth: 'api-key',
    envelope: 'success',
    type: WithdrawalQuoteDto,
    rateLimited: true,
    errors: ['USER_003', 'VALIDATION_001', 'VALIDATION_003', 'CHAIN_001', 'TRANSACTION_002', 'RESOURCE_001', 'CHAIN_003'],
  })
  withdrawalQuote(@CurrentCaller() caller: Caller, @Body() body: WithdrawalRequestDto): Promise<WithdrawalQuoteDto> {
    return this.quotes.withdrawalQuote(caller, body);
  }

  @Post('deposits')
  @HttpCode(200)
  @RateLimited()
  @Idempotent()
  @ApiContract({
    summary: 'Execute a signed deposit or withdrawal plan with sponsored gas; opens an order',
    auth: 'api-key',
    envelope: 'success',
    type: OrderDto,
    rateLimited: true,
    errors: ['VALIDATION_001', 'TRANSACTION_001', 'TRANSACTION_002', 'TRANSACTION_006', 'TRANSACTION_008', 'RESOURCE_001', 'RESOURCE_004', 'TRANSACTION_004', 'CHAIN_003'],
  })
  execute(@CurrentCaller() caller: Caller, @Body() body: ExecutePlanRequestDto, @Req() req: Request): Promise<OrderDto> {
    return this.execution.execute(caller, body, this.regions.hintsOf(req));
  }

  @Get('orders/:id')
  // A relaying order is tracked on the spot: receipts and vault events over RPC.
  @RateLimited()
  @ApiContract({ summary: 'An order; while relaying, the live relay status is consulted', auth: 'api-key', envelope: 'success', type: OrderDto, rateLimited: true, errors: ['RESOURCE_001'] })
  order(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<OrderDto> {
    return this.orders.get(caller, id);
  }
}
