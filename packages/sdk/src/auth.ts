import type { Signer } from 'ethers';
import { data, type ApiClient } from './http';
import type { LoginToken } from './types';

export class AuthApi {
  constructor(private readonly api: ApiClient) {}

  /** Wallet login (SIWE): asks for the one-time message, signs it (EIP-191) and exchanges the signature for a JWT. */
  async login(signer: Signer): Promise<LoginToken> {
    const address = await signer.getAddress();
    const { message, messageId } = await data(this.api.POST('/api/auth/message', { body: { address } }));
    const signature = await signer.signMessage(message);
    return data(this.api.POST('/api/auth/verify', { body: { messageId, signature } }));
  }
}
