import { HDNodeWallet, Mnemonic, Wallet } from 'ethers';
import type { AppConfig } from '../../../config/app-config';

/** The treasury deposits are swept to (RELAYER_TREASURY_KEY, or RELAYER_TREASURY_PATH on the relayer mnemonic); null when none is configured. */
export function treasuryWallet(config: AppConfig): Wallet | HDNodeWallet | null {
  if (config.RELAYER_TREASURY_KEY) return new Wallet(config.RELAYER_TREASURY_KEY);
  if (config.RELAYER_TREASURY_PATH) return HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(config.RELAYER_MNEMONIC), config.RELAYER_TREASURY_PATH);
  return null;
}
