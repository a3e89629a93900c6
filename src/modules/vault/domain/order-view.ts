import { OrderDto } from '../dto/vault-responses.dto';
import { VaultOrderEntity } from '../entities/vault-order.entity';

/** The Order of interface.md, plus the whole allocation (venueId names only the largest leg). */
export function orderView(order: VaultOrderEntity): OrderDto {
  return {
    orderId: order.id,
    status: order.status,
    kind: order.kind,
    chain: order.chainId,
    asset: order.asset,
    amount: order.amount,
    venueId: order.venueId,
    relayTxId: order.relayTxId,
    executionTxHash: order.executionTxHash,
    allocation: order.allocation.map(({ venueId, vault, shareBps }) => ({ venueId, vault, shareBps })),
  };
}
