import { Injectable } from '@nestjs/common';
import { getAddress, Signature, verifyMessage } from 'ethers';
import { randomBytes, randomUUID } from 'node:crypto';
import { AppError } from '../../../common/errors/app-error';
import { normalizeAddress } from '../../../common/evm/address';
import { AppConfig } from '../../../config/app-config';
import { AccountsService } from '../../accounts';
import { SessionTokens } from '../jwt/session-tokens.service';
import { LoginMessagesStore } from './login-messages.store';
import { LoginOrigin, loginOriginOf } from './login-origin';
import { formatSiweMessage, siweOriginOf } from './siwe-message';

/** interface.md, Validity windows: a login message is valid 5 minutes, once. */
export const LOGIN_MESSAGE_TTL_SECONDS = 300;
// EIP-4361 requires a chain id; the login binds to no chain (accounts span all of them), so mainnet's.
const LOGIN_CHAIN_ID = 1;
const STATEMENT = 'Sign in to the gas relay. This request will not trigger a blockchain transaction or cost any gas.';

export interface LoginMessage {
  message: string;
  messageId: string;
  /** Unix seconds. */
  expiry: number;
}

export interface LoginSession {
  token: string;
  /** Unix seconds; the token's exp. */
  expiresAt: number;
  userId: string;
  address: string;
}

/** Wallet login: a one-time EIP-4361 message, signed with personal_sign, exchanged for a JWT. */
@Injectable()
export class WalletLoginService {
  /** PUBLIC_ORIGIN: what every message names and every verified message must name. */
  private readonly origin: LoginOrigin;

  constructor(
    private readonly messages: LoginMessagesStore,
    private readonly accounts: AccountsService,
    private readonly tokens: SessionTokens,
    config: AppConfig,
  ) {
    this.origin = loginOriginOf(config.PUBLIC_ORIGIN);
  }

  async createMessage(address: string): Promise<LoginMessage> {
    const normalized = normalizeAddress(address);
    if (!normalized) throw new AppError('USER_003');
    // Whole seconds, so the message's Expiration Time and the response's expiry are the same instant.
    const issuedAt = Math.floor(Date.now() / 1000);
    const expiry = issuedAt + LOGIN_MESSAGE_TTL_SECONDS;
    const message = formatSiweMessage({
      ...this.origin,
      address: getAddress(normalized),
      statement: STATEMENT,
      chainId: LOGIN_CHAIN_ID,
      nonce: randomBytes(16).toString('hex'),
      issuedAt: new Date(issuedAt * 1000),
      expirationTime: new Date(expiry * 1000),
    });
    const messageId = randomUUID();
    await this.messages.put(messageId, { address: normalized, message, expiry }, LOGIN_MESSAGE_TTL_SECONDS);
    return { message, messageId, expiry };
  }

  async verify(messageId: string, signature: string): Promise<LoginSession> {
    // Checked before the message is taken, so a garbled request does not use it up.
    const parsed = parseSignature(signature);
    const pending = await this.messages.take(messageId);
    // Redis expires the entry; the stored expiry also covers a Redis clock running behind ours.
    if (!pending || pending.expiry <= Date.now() / 1000) throw new AppError('AUTH_006');
    if (recoverSigner(pending.message, parsed) !== pending.address) throw new AppError('AUTH_008', 'signature is not by the address the message was issued for');
    this.requireOwnOrigin(pending.message);
    const account = await this.accounts.getByAddress(pending.address);
    if (account.disabled) throw new AppError('USER_002');
    const { token, expiresAt } = await this.tokens.issue(account);
    return { token, expiresAt, userId: account.id, address: account.address };
  }

  /**
   * A signature over a message naming another domain or URI (issued before PUBLIC_ORIGIN changed,
   * or by an instance configured otherwise) logs no one in: the wallet showed the user that
   * other site as the one asking.
   */
  private requireOwnOrigin(message: string): void {
    const named = siweOriginOf(message);
    if (named?.domain !== this.origin.domain || named.uri !== this.origin.uri) {
      throw new AppError('AUTH_008', `the signed message names ${named ? `${named.domain} (${named.uri})` : 'no domain'}, not this service (${this.origin.domain})`);
    }
  }
}

function parseSignature(signature: string): Signature {
  try {
    return Signature.from(signature);
  } catch {
    throw new AppError('AUTH_008', 'signature does not parse');
  }
}

/** EIP-191 personal_sign signer, lowercase. */
function recoverSigner(message: string, signature: Signature): string {
  try {
    return verifyMessage(message, signature).toLowerCase();
  } catch {
    throw new AppError('AUTH_008', 'signature does not recover to an address');
  }
}
