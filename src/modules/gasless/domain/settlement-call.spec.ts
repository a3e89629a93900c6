import { settlementNonceWord, type Settlement } from './settlement-call';

const SETTLER = '0xa513E6E4b8f2a923D98304ec87F64353C4D5C853';
const EXECUTOR = '0x2279B7A0a67DB372996a5FaB50D91eAA73d2eBe6';
const base: Settlement = {
  owner: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  tokenIn: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  amountIn: 1_000_000n,
  nonce: 0n,
  deadline: 1_900_000_000n,
  tokenOut: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
  minAmountOut: 987_654_321n,
  receiver: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  feeAmount: 4_321n,
  executorData: '0x12345678',
};
const OTHER = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

describe('settlementNonceWord', () => {
  it('fits in the 248 bits of a Permit2 nonce word and ignores the nonce itself (the bit stays free)', () => {
    const word = settlementNonceWord(SETTLER, EXECUTOR, base);
    expect(word).toBeLessThan(1n << 248n);
    const lastBit: Settlement = { ...base, nonce: 255n };
    expect(settlementNonceWord(SETTLER, EXECUTOR, lastBit)).toBe(word);
  });

  it('changes with every field the signature does not bind by itself, the route included', () => {
    const word = settlementNonceWord(SETTLER, EXECUTOR, base);
    expect(settlementNonceWord(OTHER, EXECUTOR, base)).not.toBe(word);
    expect(settlementNonceWord(SETTLER, OTHER, base)).not.toBe(word);
    const changes: Array<Partial<Settlement>> = [
      { owner: OTHER },
      { tokenIn: OTHER },
      { amountIn: 1_000_001n },
      { deadline: 1_900_000_001n },
      { tokenOut: OTHER },
      { minAmountOut: 0n },
      { receiver: OTHER },
      { feeAmount: 4_322n },
      { executorData: '0x12345679' },
    ];
    for (const change of changes) {
      expect([change, settlementNonceWord(SETTLER, EXECUTOR, { ...base, ...change })]).not.toEqual([change, word]);
    }
  });
});
