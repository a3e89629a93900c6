import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiContract } from '../../common/swagger/api-contract';
import { RateLimited } from '../rate-limit';
import { TokenCatalog, tokenView } from './catalog/token-catalog.service';
import { SearchTokenQueryDto, TokensQueryDto } from './dto/swap-requests.dto';
import { TokenDto } from './dto/swap-responses.dto';

@ApiTags('swap')
@Controller()
export class TokensController {
  constructor(private readonly catalog: TokenCatalog) {}

  @Get('tokens')
  @RateLimited()
  @ApiContract({ summary: 'Token catalog, of one chain or all', auth: 'api-key', envelope: 'code', type: [TokenDto], rateLimited: true, errors: ['VALIDATION_003'] })
  async tokens(@Query() query: TokensQueryDto): Promise<TokenDto[]> {
    return (await this.catalog.tokens(query.chain_id)).map(tokenView);
  }

  @Get('search-token')
  @RateLimited()
  @ApiContract({
    summary: 'Tokens whose symbol or name contains the query (case-insensitive), or with that exact address',
    auth: 'api-key',
    envelope: 'code',
    type: [TokenDto],
    rateLimited: true,
    errors: ['VALIDATION_003'],
  })
  async search(@Query() query: SearchTokenQueryDto): Promise<TokenDto[]> {
    return (await this.catalog.search(query.query, query.chainId)).map(tokenView);
  }
}
