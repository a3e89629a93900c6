import { Controller, Get, Query } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { TokenCatalog, tokenView } from './catalog/token-catalog.service';
import { SearchTokenQueryDto, TokensQueryDto } from './dto/swap-requests.dto';

@ApiTags('swap')
@ApiHeader({ name: 'api-key', required: true })
@Controller()
export class TokensController {
  constructor(private readonly catalog: TokenCatalog) {}

  @Get('tokens')
  @ApiOperation({ summary: 'Token catalog, of one chain or all' })
  @ApiOkResponse({ description: 'code envelope; data: array of {address, chainId, decimals, logoUrl, name, symbol}' })
  async tokens(@Query() query: TokensQueryDto) {
    return (await this.catalog.tokens(query.chain_id)).map(tokenView);
  }

  @Get('search-token')
  @ApiOperation({ summary: 'Tokens whose symbol or name contains the query (case-insensitive), or with that exact address' })
  @ApiOkResponse({ description: 'code envelope; data: array of tokens, possibly empty' })
  async search(@Query() query: SearchTokenQueryDto) {
    return (await this.catalog.search(query.query, query.chainId)).map(tokenView);
  }
}
