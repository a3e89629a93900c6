import { HDNodeWallet, Mnemonic } from 'ethers';

/**
 * Development-only mnemonics (entropy = keccak256 of a fixed label), so the local stack and the
 * tests have stable relayer and derived addresses. Never use them on a real network.
 */
export const DEV_RELAYER_MNEMONIC = 'author among dawn obtain bag pond opinion rate ramp parade heavy output';
export const DEV_AUTH_MNEMONIC = 'marble amazing other dry web snow grab height student taxi crisp evidence';

/** Addresses of the relayer pools the service derives (see relayerPath in the relay module). */
export function devRelayerAddresses(regions: number, keysPerRegion: number): string[] {
  const mnemonic = Mnemonic.fromPhrase(DEV_RELAYER_MNEMONIC);
  const out: string[] = [];
  for (let r = 0; r < regions; r++) {
    for (let k = 0; k < keysPerRegion; k++) out.push(HDNodeWallet.fromMnemonic(mnemonic, `m/44'/60'/${r}'/0/${k}`).address);
  }
  return out;
}

/** The treasury that tops up relayer keys: RELAYER_TREASURY_PATH on the relayer mnemonic. */
export const DEV_TREASURY_PATH = "m/44'/60'/99'/0/0";

export function devTreasuryAddress(): string {
  return HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(DEV_RELAYER_MNEMONIC), DEV_TREASURY_PATH).address;
}

/** The dev treasury's private key (the API takes it as RELAYER_TREASURY_KEY: no treasury path on the relayer mnemonic). */
export function devTreasuryKey(): string {
  return HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(DEV_RELAYER_MNEMONIC), DEV_TREASURY_PATH).privateKey;
}
