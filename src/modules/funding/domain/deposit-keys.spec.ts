import { createHmac } from 'node:crypto';
import { getBytes, HDNodeWallet, Mnemonic } from 'ethers';
import { DEV_AUTH_MNEMONIC, DEV_RELAYER_MNEMONIC, devRelayerAddresses, devTreasuryAddress } from '../../../../scripts/local-stack/dev-keys';
// The relay's derivation of senders, to show the two never meet (a test may reach across modules).
// eslint-disable-next-line project/module-boundaries -- the relay's sender derivation, compared here only (not a runtime dependency)
import { DerivedKeys } from '../../relay/core/derived-keys';
import { DEPOSIT_PATH, DepositKeys } from './deposit-keys';

const ACCOUNT_A = '5b0c6a56-3c1e-4a57-9d43-0b6d2a6f0e11';
const ACCOUNT_B = '9f1d2b3c-7e44-4c2a-8f55-1a2b3c4d5e6f';
const keys = new DepositKeys(DEV_AUTH_MNEMONIC);
const seed = getBytes(Mnemonic.fromPhrase(DEV_AUTH_MNEMONIC).computeSeed());

describe('deposit keys', () => {
  it('is BIP-32 m/44\'/60\'/0\'/0/0 below HMAC-SHA512(AUTH seed, "gas-relay/deposit-address/v1\\0" ‖ accountId), the same after a restart', () => {
    const root = createHmac('sha512', seed).update(`gas-relay/deposit-address/v1\0${ACCOUNT_A}`, 'utf8').digest();
    expect(keys.address(ACCOUNT_A)).toBe(HDNodeWallet.fromSeed(root).derivePath(DEPOSIT_PATH).address.toLowerCase());
    expect(new DepositKeys(DEV_AUTH_MNEMONIC).address(ACCOUNT_A)).toBe(keys.address(ACCOUNT_A));
    expect(keys.address(ACCOUNT_B)).not.toBe(keys.address(ACCOUNT_A));
  });

  it("is never a derived sender of any account (own or other, either scheme), a relayer key or the treasury", () => {
    const senders = new DerivedKeys(seed);
    const service = new Set([...devRelayerAddresses(3, 100), devTreasuryAddress()].map((a) => a.toLowerCase()));
    for (const account of [ACCOUNT_A, ACCOUNT_B]) {
      const deposit = keys.address(account);
      expect(service.has(deposit)).toBe(false);
      for (const owner of [ACCOUNT_A, ACCOUNT_B]) {
        for (const path of [DEPOSIT_PATH, "m/44'/60'/0'/0/1", "m/0", "m/44'/60'/1'/0/0"]) {
          for (const scheme of ['account', 'legacy'] as const) {
            const sender = senders.derive(owner, path, scheme);
            if (typeof sender === 'string') throw new Error(sender);
            expect(sender.address.toLowerCase()).not.toBe(deposit);
          }
        }
      }
    }
    // Nor the relayer mnemonic's key at the same path.
    expect(HDNodeWallet.fromPhrase(DEV_RELAYER_MNEMONIC, undefined, DEPOSIT_PATH).address.toLowerCase()).not.toBe(keys.address(ACCOUNT_A));
  });
});
