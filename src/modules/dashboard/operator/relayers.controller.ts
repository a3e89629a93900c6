import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '../../../common/http/public.decorator';
import { ApiContract } from '../../../common/swagger/api-contract';
import { AdminGuard } from '../../accounts';
import { RelayerWalletDto } from './relayer-wallets.dto';
import { RelayerWallets } from './relayer-wallets.service';

@ApiTags('admin')
@Public()
@UseGuards(AdminGuard)
@Controller('admin/relayers')
export class RelayersController {
  constructor(private readonly wallets: RelayerWallets) {}

  @Get()
  @ApiContract({ summary: 'Every relayer key per region and chain with its on-chain balance', auth: 'admin', envelope: 'success', type: [RelayerWalletDto], noInput: true })
  list(): Promise<RelayerWalletDto[]> {
    return this.wallets.list();
  }
}
