import { floorsFor, topUpAmount, walletState } from './floors';

describe('relayer wallet floors', () => {
  const env = { RELAYER_MIN_BALANCE_WEI: '1000' };

  it('takes the chain fields over the env and defaults the target to 5 × the floor', () => {
    expect(floorsFor({}, env)).toEqual({ floorWei: 1000n, targetWei: 5000n });
    expect(floorsFor({}, { ...env, RELAYER_TARGET_BALANCE_WEI: '3000' })).toEqual({ floorWei: 1000n, targetWei: 3000n });
    expect(floorsFor({ relayerMinBalanceWei: '10' }, { ...env, RELAYER_TARGET_BALANCE_WEI: '3000' })).toEqual({ floorWei: 10n, targetWei: 50n });
    expect(floorsFor({ relayerMinBalanceWei: '10', relayerTargetBalanceWei: '20' }, env)).toEqual({ floorWei: 10n, targetWei: 20n });
  });

  it('states: ok at the floor, low under it, empty under a tenth of it', () => {
    expect(walletState(1000n, 1000n)).toBe('ok');
    expect(walletState(999n, 1000n)).toBe('low');
    expect(walletState(100n, 1000n)).toBe('low');
    expect(walletState(99n, 1000n)).toBe('empty');
    expect(walletState(0n, 1000n)).toBe('empty');
  });

  it('tops up to the target only under the floor', () => {
    expect(topUpAmount(999n, { floorWei: 1000n, targetWei: 5000n })).toBe(4001n);
    expect(topUpAmount(1000n, { floorWei: 1000n, targetWei: 5000n })).toBe(0n);
  });
});
