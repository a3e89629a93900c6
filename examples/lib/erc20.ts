import { Interface } from 'ethers';

/** The local stack's test tokens: anyone may mint them. */
export const erc20 = new Interface([
  'function mint(address to, uint256 amount)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
]);
