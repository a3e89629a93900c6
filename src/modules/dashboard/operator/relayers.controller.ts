import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiContract } from '../../../common/swagger/api-contract';
import { AdminApi } from '../../accounts';
import { RelayerWalletDto } from './relayer-wallets.dto';
import { RelayerWallets } from './relayer-wallets.service';

@ApiTags('admin')
@AdminApi()
@Controller('admin/relayers')
export class RelayersController {
  constructor(private readonly wallets: RelayerWallets) {}

  @Get()
  @ApiContract({ summary: 'Every relayer key per region and chain with its on-chain balance', auth: 'admin', envelope: 'success', type: [RelayerWalletDto], noInput: true })
  list(): Promise<RelayerWalletDto[]> {
    return this.wallets.list();
  }
}
