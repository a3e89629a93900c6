import { data, type ApiClient } from './http';
import { toRelaySigner, type WalletSigner } from './signers';
import type { LoginToken } from './types';

export class AuthApi {
  constructor(private readonly api: ApiClient) {}

  /** Wallet login (SIWE): asks for the one-time message, signs it (EIP-191) with an ethers Signer or a viem WalletClient / local account, and exchanges the signature for a JWT. */
  async login(wallet: WalletSigner): Promise<LoginToken> {
    const signer = toRelaySigner(wallet);
    const address = await signer.getAddress();
    const { message, messageId } = await data(this.api.POST('/api/auth/message', { body: { address } }));
    const signature = await signer.signMessage(message);
    return data(this.api.POST('/api/auth/verify', { body: { messageId, signature } }));
  }
}
