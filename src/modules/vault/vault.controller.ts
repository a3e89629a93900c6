import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RegionResolver } from '../relay';
import { Caller, CurrentCaller } from '../../common/http/authenticated-request';
import { ApiEnvelopedResponse } from '../../common/swagger/api-enveloped-response';
import { RateLimited } from '../rate-limit';
import { PlanExecutionService } from './domain/plan-execution.service';
import { VaultOrdersService } from './domain/vault-orders.service';
import { VaultQuotesService } from './domain/vault-quotes.service';
import { DepositQuoteRequestDto, ExecutePlanRequestDto, WithdrawalRequestDto } from './dto/vault-requests.dto';
import { DepositQuoteDto, OrderDto, WithdrawalQuoteDto } from './dto/vault-responses.dto';

const API_KEY = { name: 'api-key', required: true };

@ApiTags('vault')
@ApiHeader(API_KEY)
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
  @ApiOperation({ summary: 'Solver auction for a deposit; returns the allocation and the unsigned EIP-7702 settlement payload' })
  @ApiEnvelopedResponse(DepositQuoteDto)
  depositQuote(@CurrentCaller() caller: Caller, @Body() body: DepositQuoteRequestDto): Promise<DepositQuoteDto> {
    return this.quotes.depositQuote(caller, body);
  }

  @Post('withdrawals')
  @HttpCode(200)
  @RateLimited()
  @ApiOperation({ summary: "Withdrawal plan: redeem shares (or 'max') from a vault; sign it and submit to POST /v1/deposits" })
  @ApiEnvelopedResponse(WithdrawalQuoteDto)
  withdrawalQuote(@CurrentCaller() caller: Caller, @Body() body: WithdrawalRequestDto): Promise<WithdrawalQuoteDto> {
    return this.quotes.withdrawalQuote(caller, body);
  }

  @Post('deposits')
  @HttpCode(200)
  @RateLimited()
  @ApiOperation({ summary: 'Execute a signed deposit or withdrawal plan with sponsored gas; opens an order' })
  @ApiEnvelopedResponse(OrderDto)
  execute(@CurrentCaller() caller: Caller, @Body() body: ExecutePlanRequestDto, @Req() req: Request): Promise<OrderDto> {
    return this.execution.execute(caller, body, this.regions.hintsOf(req));
  }

  @Get('orders/:id')
  @ApiOperation({ summary: 'An order; while relaying, the live relay status is consulted' })
  @ApiEnvelopedResponse(OrderDto)
  order(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<OrderDto> {
    return this.orders.get(caller, id);
  }
}
