import { RelayTransactionEntity } from '../store/relay-transaction.entity';
import { copyOf } from './row-copy';

describe('copyOf', () => {
  it('a new row of the same class with the changes; the original is left as it was', () => {
    const row = Object.assign(new RelayTransactionEntity(), { id: 'a', stage: 'accepted', nonce: null, createdAt: new Date(0) });
    const copy = copyOf(row, { stage: 'signed', nonce: 7n });
    expect(copy).toBeInstanceOf(RelayTransactionEntity);
    expect(copy).not.toBe(row);
    expect(copy).toMatchObject({ id: 'a', stage: 'signed', nonce: 7n, createdAt: row.createdAt });
    expect(row).toMatchObject({ stage: 'accepted', nonce: null });
  });
});
