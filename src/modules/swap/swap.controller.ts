import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AppError } from '../../common/errors/app-error';
import { Caller, CurrentCaller } from '../../common/http/authenticated-request';
import { ApiContract } from '../../common/swagger/api-contract';
import { RateLimited } from '../rate-limit';
import { BuildByIdDto, QuoteQueryDto } from './dto/swap-requests.dto';
import { BestPathDto, RouteDto, SwapTxDto } from './dto/swap-responses.dto';
import { SwapTxBuilder } from './execution/swap-tx-builder.service';
import { QuoteStore } from './quotes/quote-store.service';
import type { RouteView, TxView } from './quotes/route-view';
import { SwapQuoteService } from './quotes/swap-quote.service';

@ApiTags('swap')
@Controller()
export class SwapController {
  constructor(
    private readonly quotes: SwapQuoteService,
    private readonly store: QuoteStore,
    private readonly builder: SwapTxBuilder,
  ) {}

  @Get('quote')
  // Quoting is read-only apart from the stored quotes, which expire unseen when the request is denied.
  @RateLimited({ checkAlongside: true })
  @ApiContract({
    summary: 'Ranked route candidates for a swap (empty for pairs without a route)',
    auth: 'api-key',
    envelope: 'code',
    type: [RouteDto],
    rateLimited: true,
    errors: ['VALIDATION_001', 'VALIDATION_002', 'VALIDATION_003', 'CHAIN_004'],
  })
  async quote(@CurrentCaller() caller: Caller, @Query() query: QuoteQueryDto): Promise<RouteView[]> {
    const quotes = await this.quotes.quote(caller, query, { icons: true });
    return quotes.map((q) => q.route);
  }

  @Get('build-best-path')
  @RateLimited({ checkAlongside: true })
  @ApiContract({
    summary: 'The best route and its executable transaction',
    description: 'Approve `Tx.allowanceTarget` for the input token, then send `Tx` from `sender`. No route is 400.',
    auth: 'api-key',
    envelope: 'code',
    type: BestPathDto,
    rateLimited: true,
    errors: ['VALIDATION_001', 'VALIDATION_002', 'VALIDATION_003', 'CHAIN_004'],
  })
  async buildBestPath(@CurrentCaller() caller: Caller, @Query() query: QuoteQueryDto): Promise<{ Tx: TxView; route: RouteView }> {
    const [best] = await this.quotes.quote(caller, query, { icons: false });
    if (!best) throw new AppError('VALIDATION_001', 'no route for this pair and amount');
    return { Tx: this.builder.transaction(best, false), route: best.route };
  }

  @Post('build-path-by-id')
  @HttpCode(200)
  @RateLimited()
  @ApiContract({
    summary: 'The executable transaction of a stored quote',
    auth: 'api-key',
    envelope: 'code',
    type: SwapTxDto,
    rateLimited: true,
    errors: ['VALIDATION_001', 'VALIDATION_002', 'RESOURCE_001'],
  })
  async buildById(@CurrentCaller() caller: Caller, @Body() body: BuildByIdDto): Promise<TxView> {
    const quote = await this.store.load(body.quoteId);
    // Another account's quote is answered like an unknown one, so ids cannot be probed.
    if (!quote || quote.userId !== caller.account.id) throw new AppError('RESOURCE_001', 'quote not found or expired');
    return this.builder.transaction(quote, body.simulation ?? false);
  }
}
