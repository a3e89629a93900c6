/**
 * Dedicated devnet deployer. Not one of anvil's default accounts, so deploying never consumes the
 * nonces of accounts 0..9 that the app and tests sign with, and its nonce starts at 0 on every fresh
 * chain, which makes all contract addresses deterministic (identical on every local chain).
 * Derived as ethers.id('gas-relay devnet deployer v1'); funded with anvil_setBalance. Local use only.
 */
export const DEPLOYER_PRIVATE_KEY = '0xef2e77805f1fc96b77a4d5b7c49da6d816c6f7ae1e7add509e0812b1bfdbecca';
export const DEPLOYER_ADDRESS = '0xd9731689eAD5732e05e59959365F96EC29adEfDF';

/** anvil's default mnemonic; its accounts are public knowledge and hold 10,000 ETH each at genesis. */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

export interface DevAccount {
  address: string;
  privateKey: string;
}

/** Accounts 0..4 of ANVIL_MNEMONIC (m/44'/60'/0'/0/i), hard-coded to skip HD derivation at runtime. */
export const ANVIL_TEST_ACCOUNTS: readonly DevAccount[] = [
  { address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' },
  { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', privateKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' },
  { address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', privateKey: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a' },
  { address: '0x90F79bf6EB2c4f870365E785982E1f101E93b906', privateKey: '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6' },
  { address: '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65', privateKey: '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a' },
];
