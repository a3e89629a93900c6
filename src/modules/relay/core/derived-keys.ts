import { createHmac } from 'node:crypto';
import { addressOf, deriveNode, HdNode, masterNode, parsePath } from './hd-keys';

/**
 * `account`: the key is the account's own (below). `legacy`: the derivation before keys were per
 * account (`HDNodeWallet.fromMnemonic(AUTH_MNEMONIC, path)`, one key per path for every
 * account), kept only for rows recorded under it and for an account recovering what its own old
 * addresses hold (docs/decisions.md, "Derived senders per account").
 */
export type DerivationScheme = 'account' | 'legacy';

/** Domain separation of the per-account seeds; a new scheme gets a new label. */
const ACCOUNT_SEED_LABEL = 'gas-relay/derived-sender/v1\0';

/**
 * Derived senders under AUTH_MNEMONIC, from its BIP-39 seed computed once. An account's key at
 * `path` is the BIP-32 key at `path` below the master node of its own seed
 *   accountSeed = HMAC-SHA512(key = mnemonic seed, data = "gas-relay/derived-sender/v1\0" ‖ accountId)
 * i.e. `HDNodeWallet.fromSeed(accountSeed).derivePath(path)` in any BIP-32 tool. Deterministic
 * (seed and account id only: stable across restarts and instances); two accounts' roots are
 * independent 512-bit HMAC outputs, so no path of one account reaches a key of another, nor a
 * key of the legacy scheme.
 */
export class DerivedKeys {
  private readonly legacyRoot: HdNode;

  constructor(private readonly seed: Uint8Array) {
    this.legacyRoot = masterNode(seed);
  }

  accountSeed(accountId: string): Buffer {
    return createHmac('sha512', this.seed).update(ACCOUNT_SEED_LABEL + accountId, 'utf8').digest();
  }

  derive(accountId: string, path: string, scheme: DerivationScheme): { privateKey: Uint8Array; address: string } | 'invalid' | 'underivable' {
    const indices = parsePath(path);
    if (!indices) return 'invalid';
    const root = scheme === 'legacy' ? this.legacyRoot : masterNode(this.accountSeed(accountId));
    const node = deriveNode(root, indices);
    if (!node) return 'underivable';
    return { privateKey: node.privateKey, address: addressOf(node.privateKey) };
  }
}
