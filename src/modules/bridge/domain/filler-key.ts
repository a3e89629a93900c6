import { createHmac } from 'node:crypto';
import { getBytes, HDNodeWallet, Mnemonic } from 'ethers';

/**
 * Domain separation of the bridge filler's seed: another label than the derived senders
 * (`gas-relay/derived-sender/v1\0`) and the deposit addresses (`gas-relay/deposit-address/v1\0`),
 * so no account's sender or deposit address is ever the filler.
 */
const FILLER_SEED_LABEL = 'gas-relay/bridge-filler/v1\0';
const FILLER_PATH = "m/44'/60'/0'/0/0";

/**
 * The bridge filler: the one key the bridge spokes trust (`BridgeSpoke.filler`). It signs EIP-712
 * fill, repayment and refund authorisations and NEVER a transaction (it holds no ETH); relayer
 * keys send what it signed, so the keys that sign any team's calldata carry no bridge power.
 *   seed = HMAC-SHA512(key = BIP-39 seed of AUTH_MNEMONIC, data = "gas-relay/bridge-filler/v1\0")
 *   key  = BIP-32 m/44'/60'/0'/0/0 below HDNodeWallet.fromSeed(seed)
 */
export function bridgeFillerWallet(authMnemonic: string): HDNodeWallet {
  const seed = getBytes(Mnemonic.fromPhrase(authMnemonic).computeSeed());
  const root = createHmac('sha512', seed).update(FILLER_SEED_LABEL, 'utf8').digest();
  return HDNodeWallet.fromSeed(root).derivePath(FILLER_PATH);
}
