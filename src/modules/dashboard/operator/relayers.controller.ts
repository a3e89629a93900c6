import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AppError } from '../../../common/errors/app-error';
import { normalizeAddress } from '../../../common/evm/address';
import { ApiContract } from '../../../common/swagger/api-contract';
import { AdminApi } from '../../accounts';
import { KeyRotation } from '../../relay';
import { RelayerKeyStateDto, RelayerWalletDto } from './relayer-wallets.dto';
import { RelayerWallets } from './relayer-wallets.service';

@ApiTags('admin')
@AdminApi()
@Controller('admin/relayers')
export class RelayersController {
  constructor(
    private readonly wallets: RelayerWallets,
    private readonly rotation: KeyRotation,
  ) {}

  @Get()
  @ApiContract({ summary: 'Every relayer key per region and chain with its on-chain balance, signer backend and lifecycle state', auth: 'admin', envelope: 'success', type: [RelayerWalletDto], noInput: true })
  list(): Promise<RelayerWalletDto[]> {
    return this.wallets.list();
  }

  @Post(':address/retire')
  @HttpCode(200)
  @ApiContract({
    summary: 'Retire a relayer key: no new work at once, its in-flight transactions finish, then its balance on every chain (less the sweep gas) goes to the treasury and it is retired',
    auth: 'admin',
    envelope: 'success',
    type: RelayerKeyStateDto,
    errors: ['VALIDATION_001', 'RESOURCE_001'],
  })
  retire(@Param('address') address: string): Promise<RelayerKeyStateDto> {
    return this.rotation.retire(relayerAddress(address));
  }

  @Post(':address/activate')
  @HttpCode(200)
  @ApiContract({ summary: 'Bring a draining or retired relayer key back into its pool', auth: 'admin', envelope: 'success', type: RelayerKeyStateDto, errors: ['VALIDATION_001', 'RESOURCE_001'] })
  activate(@Param('address') address: string): Promise<RelayerKeyStateDto> {
    return this.rotation.activate(relayerAddress(address));
  }
}

function relayerAddress(input: string): string {
  const address = normalizeAddress(input);
  if (!address) throw new AppError('VALIDATION_001', `${input} is not an address`);
  return address;
}
