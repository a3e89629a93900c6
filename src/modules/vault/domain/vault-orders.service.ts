import { Injectable } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import { Caller } from '../../../common/http/authenticated-request';
import { TxQueryService } from '../../relay';
import { OrderDto } from '../dto/vault-responses.dto';
import { VaultOrderEntity } from '../entities/vault-order.entity';
import { VaultOrderStore } from '../store/vault-order.store';
import { OrderTracker } from './order-tracker.service';
import { orderView } from './order-view';
import { isUuid } from '../../../common/ids/uuid';

@Injectable()
export class VaultOrdersService {
  constructor(
    private readonly orders: VaultOrderStore,
    private readonly tracker: OrderTracker,
    private readonly txs: TxQueryService,
  ) {}

  /** While relaying, the live relay status decides: a final relay transaction settles the order right here. */
  async get(caller: Caller, id: string): Promise<OrderDto> {
    let order = isUuid(id) ? await this.orders.findOfAccount(id, caller.account.id) : null;
    if (!order) throw new AppError('RESOURCE_001', `order ${id} not found`);
    if (order.status === 'relaying') {
      await this.tracker.track(order.id);
      order = (await this.orders.find(order.id)) as VaultOrderEntity;
      if (order.status === 'relaying' && !order.executionTxHash) order.executionTxHash = (await this.txs.get(order.relayTxId)).executionTxHash;
    }
    return orderView(order);
  }
}
