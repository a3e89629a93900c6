import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/http/public.decorator';
import { ApiContract } from '../../common/swagger/api-contract';
import { RateLimitedPerIp } from '../rate-limit';
import { ChainDefinition } from './domain/chain-definition';
import { ChainHealthService } from './domain/chain-health.service';
import { ChainRegistry } from './domain/chain-registry.service';
import { ChainViewDto } from './dto/chain-view.dto';

@ApiTags('chains')
@Controller('api/supported-chains')
export class ChainsController {
  constructor(
    private readonly registry: ChainRegistry,
    private readonly health: ChainHealthService,
  ) {}

  @Public()
  @RateLimitedPerIp('public')
  @Get()
  @ApiContract({
    summary: 'Enabled chains with their capabilities (chains whose RPC is down are left out)',
    auth: 'public',
    envelope: 'success',
    type: [ChainViewDto],
    rateLimited: true,
    noInput: true,
  })
  list(): ChainViewDto[] {
    return this.registry
      .all()
      .filter((c) => c.enabled && this.health.isHealthy(c.chainId))
      .map(toChainView);
  }
}

function toChainView(chain: ChainDefinition): ChainViewDto {
  return {
    id: chain.chainId,
    name: chain.name,
    iconUrl: chain.iconUrl ?? '',
    isTestnet: chain.isTestnet,
    nativeCurrency: { ...chain.nativeCurrency },
    blockExplorers: { default: { ...chain.blockExplorer } },
    capabilities: { ...chain.capabilities },
  };
}
