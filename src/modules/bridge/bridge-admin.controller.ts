import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiContract } from '../../common/swagger/api-contract';
import { AppConfig } from '../../config/app-config';
import { AdminApi } from '../accounts';
import { BridgeInventory } from './domain/bridge-inventory.service';
import { bridgeFillerWallet } from './domain/filler-key';
import { BridgeAdminDto, BridgeOrderDto } from './dto/bridge-admin.dto';
import { BridgeDepositStore } from './store/bridge-deposit.store';

@ApiTags('admin')
@AdminApi()
@Controller('admin/bridge')
export class BridgeAdminController {
  private readonly filler: string;

  constructor(
    private readonly inventory: BridgeInventory,
    private readonly deposits: BridgeDepositStore,
    private readonly config: AppConfig,
  ) {
    this.filler = bridgeFillerWallet(config.AUTH_MNEMONIC).address.toLowerCase();
  }

  @Get()
  @ApiContract({ summary: "The bridge filler: its key, its inventory on every chain's spoke (with the low flag) and the latest deposits", auth: 'admin', envelope: 'success', type: BridgeAdminDto, noInput: true })
  async overview(): Promise<BridgeAdminDto> {
    const [inventory, rows] = await Promise.all([this.inventory.snapshot(), this.deposits.recent(50)]);
    const orders: BridgeOrderDto[] = rows.map((r) => ({
      depositId: r.depositId,
      state: r.state,
      srcChainId: r.srcChainId,
      destChainId: r.destChainId,
      srcTxHash: r.srcTxHash,
      fillTxHash: r.fillTxHash,
      inputToken: r.inputToken,
      inputAmount: r.inputAmount,
      outputToken: r.outputToken,
      outputAmount: r.outputAmount,
      fillAmount: r.fillAmount,
      recipient: r.recipient,
      createdAt: r.createdAt.toISOString(),
      filledAt: r.filledAt?.toISOString() ?? null,
    }));
    return { filler: this.filler, account: this.config.BRIDGE_ACCOUNT?.toLowerCase() || null, inventory, orders };
  }
}
