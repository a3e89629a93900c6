import { createHmac } from 'node:crypto';
import { getBytes, HDNodeWallet, Mnemonic } from 'ethers';

/**
 * Domain separation of the deposit seeds. The derived senders use `gas-relay/derived-sender/v1\0`
 * (relay/core/derived-keys.ts): a different label, so no account's deposit root is ever a root
 * of a derived sender (docs/decisions.md, "Deposit addresses").
 */
const DEPOSIT_SEED_LABEL = 'gas-relay/deposit-address/v1\0';
/** One deposit key per account: the first BIP-44 Ethereum key below the account's deposit root. */
export const DEPOSIT_PATH = "m/44'/60'/0'/0/0";

/**
 * The deposit key of an account, under AUTH_MNEMONIC:
 *   depositSeed = HMAC-SHA512(key = BIP-39 seed of AUTH_MNEMONIC, data = "gas-relay/deposit-address/v1\0" ‖ accountId)
 *   key         = BIP-32 m/44'/60'/0'/0/0 below HDNodeWallet.fromSeed(depositSeed)
 * Deterministic (same address on every chain, after any restart, in every instance). It can
 * never be a relayer or treasury key (those come from RELAYER_MNEMONIC / RELAYER_TREASURY_KEY,
 * which key separation keeps apart from AUTH_MNEMONIC) nor a derived sender of any account (their
 * roots are HMACs of the same seed under another label; the legacy scheme's root is BIP-32's
 * master node, HMAC under the key "Bitcoin seed"). `DepositAddresses` also refuses, at the moment an
 * address is recorded, one that equals a pool key or the treasury.
 */
export class DepositKeys {
  private readonly seed: Uint8Array;

  constructor(authMnemonic: string) {
    this.seed = getBytes(Mnemonic.fromPhrase(authMnemonic).computeSeed());
  }

  wallet(accountId: string): HDNodeWallet {
    const root = createHmac('sha512', this.seed).update(DEPOSIT_SEED_LABEL + accountId, 'utf8').digest();
    return HDNodeWallet.fromSeed(root).derivePath(DEPOSIT_PATH);
  }

  address(accountId: string): string {
    return this.wallet(accountId).address.toLowerCase();
  }
}
