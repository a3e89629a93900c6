import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppError } from '../../../common/errors/app-error';
import { AppConfig } from '../../../config/app-config';
import type { Account } from '../../accounts';
import { SecretBox } from '../../../common/crypto/secret-box';
import { RegisteredWebhooksDto, RegisterWebhookDto, WebhookViewDto } from '../dto/register-webhook.dto';
import { WebhookEntity } from '../entities/webhook.entity';
import { newSigningSecret } from '../signing/standard-webhooks';
import { WebhookSigningKeyStore } from '../store/webhook-signing-key.store';
import { WebhookStore } from '../store/webhook.store';
import { NonPublicTargetError, resolvePublic } from '../ssrf/public-resolver';
import { authSecretContext, signingSecretContext } from './secret-contexts';

/** Headers the service sets itself; an api-key header by one of these names would clobber them. */
const RESERVED_HEADERS = new Set(['host', 'content-type', 'content-length', 'transfer-encoding', 'connection', 'user-agent', 'webhook-id', 'webhook-timestamp', 'webhook-signature']);

/** How the caller authenticated: an API key, or a wallet-login JWT (a session). */
export type RegistrationCredential = 'api-key' | 'session';

/**
 * Registration replaces an account's whole webhook set in one transaction. A webhook sent
 * again unchanged (same URL, auth type, key name and placement) keeps its identity, so its
 * pending retries and dead letters survive re-registration; webhooks left out are deleted
 * with their deliveries.
 */
@Injectable()
export class WebhookRegistry {
  private readonly logger = new Logger(WebhookRegistry.name);

  constructor(
    private readonly webhooks: WebhookStore,
    private readonly signingKeys: WebhookSigningKeyStore,
    private readonly box: SecretBox,
    private readonly config: AppConfig,
  ) {}

  /**
   * Where the account's events go and what signs them is the team's backend's business: a
   * wallet-login session (a browser token) may make the first set, but replacing a registered
   * set or rotating the signing secret needs an API key (AUTH_007), so a leaked or phished
   * token cannot redirect or cut off the team's webhooks.
   */
  async register(account: Account, items: RegisterWebhookDto[], rotateSigningSecret: boolean, credential: RegistrationCredential): Promise<RegisteredWebhooksDto> {
    if (!this.box.enabled) throw new AppError('SYSTEM_002', 'webhooks are disabled: WEBHOOK_ENCRYPTION_KEY is not set');
    if (credential === 'session' && rotateSigningSecret) throw new AppError('AUTH_007', 'rotating the webhook signing secret needs an API key');
    for (const [index, item] of items.entries()) await this.checkTarget(index, item);

    const { webhooks, signingSecret } = await this.webhooks.transaction(async (em) => {
      await this.webhooks.lockSetOf(account.id, em);
      const webhooks = await this.replaceSet(em, account.id, items, credential);
      const signingSecret = await this.issueSigningSecret(em, account.id, rotateSigningSecret);
      return { webhooks, signingSecret };
    });
    this.logger.log(`account ${account.id} registered ${webhooks.length} webhook(s)${signingSecret ? ', signing secret issued' : ''}`);
    return {
      userId: account.id,
      address: account.address,
      webhooks: webhooks.map(toView),
      ...(signingSecret ? { signingSecret } : {}),
    };
  }

  private async checkTarget(index: number, item: RegisterWebhookDto): Promise<void> {
    let url: URL;
    try {
      url = new URL(item.url);
    } catch {
      throw new AppError('VALIDATION_001', `[${index}].url is not a valid URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AppError('VALIDATION_001', `[${index}].url must start with http:// or https://`);
    if (url.username || url.password) throw new AppError('VALIDATION_001', `[${index}].url must not carry credentials; use authType and secret`);
    if (item.authType === 'basic' && !item.secret?.includes(':')) throw new AppError('VALIDATION_001', `[${index}].secret must be user:password for basic auth`);
    if (item.authType === 'api-key' && RESERVED_HEADERS.has(item.apiKeyVar!.toLowerCase())) {
      throw new AppError('VALIDATION_001', `[${index}].apiKeyVar ${item.apiKeyVar} is a header the service sets itself`);
    }
    try {
      await resolvePublic(url.hostname, this.config.WEBHOOK_ALLOW_PRIVATE);
    } catch (err) {
      if (err instanceof NonPublicTargetError) {
        // What a name resolves to stays in the log: telling the caller would map internal DNS for them.
        this.logger.warn(`[${index}].url refused: ${err.message}`);
        throw new AppError('VALIDATION_001', `[${index}].url refused: address not allowed`);
      }
      throw err;
    }
  }

  private async replaceSet(em: EntityManager, userId: string, items: RegisterWebhookDto[], credential: RegistrationCredential): Promise<WebhookEntity[]> {
    const existing = await this.webhooks.listOf(userId, em);
    // Read under the set's lock, so a session cannot slip in beside a concurrent first registration.
    if (credential === 'session' && existing.length > 0) throw new AppError('AUTH_007', 'replacing registered webhooks needs an API key');
    const unclaimed = new Map<string, WebhookEntity[]>();
    for (const row of existing) unclaimed.set(identity(row), [...(unclaimed.get(identity(row)) ?? []), row]);

    const saved: WebhookEntity[] = [];
    for (const [position, item] of items.entries()) {
      const fields = {
        userId,
        position,
        url: item.url,
        authType: item.authType,
        apiKeyVar: item.authType === 'api-key' ? item.apiKeyVar! : null,
        apiKeyPlacement: item.apiKeyPlacement ?? 'header',
        enabled: item.enabled ?? true,
        // Not part of the identity: narrowing what a webhook receives keeps its pending retries.
        events: item.events ? [...new Set(item.events)] : null,
      } as const;
      const reused = unclaimed.get(identity(fields))?.shift();
      const row = this.webhooks.build({ ...reused, ...fields });
      if (!reused) row.id = randomUUID();
      row.secretSealed = item.authType === 'none' ? null : this.box.seal(item.secret!, authSecretContext(row.id));
      saved.push(row);
    }
    const dropped = [...unclaimed.values()].flat().map((r) => r.id);
    await this.webhooks.remove(dropped, em);
    await this.webhooks.saveAll(saved, em);
    return saved;
  }

  /** Issued on the account's first registration and on request; otherwise the existing one stays (and is not returned). */
  private async issueSigningSecret(em: EntityManager, userId: string, rotate: boolean): Promise<string | null> {
    const current = await this.signingKeys.find(userId, em);
    if (current && !rotate) return null;
    const secret = newSigningSecret();
    const sealed = this.box.seal(secret, signingSecretContext(userId));
    if (current) await this.signingKeys.rotate(userId, sealed, em);
    else await this.signingKeys.insert(userId, sealed, em);
    return secret;
  }
}

function identity(w: Pick<WebhookEntity, 'url' | 'authType' | 'apiKeyVar' | 'apiKeyPlacement'>): string {
  return JSON.stringify([w.url, w.authType, w.apiKeyVar ?? null, w.apiKeyPlacement]);
}

function toView(w: WebhookEntity): WebhookViewDto {
  return {
    url: w.url,
    authType: w.authType,
    ...(w.apiKeyVar ? { apiKeyVar: w.apiKeyVar } : {}),
    apiKeyPlacement: w.apiKeyPlacement,
    enabled: w.enabled,
    ...(w.events ? { events: w.events } : {}),
  };
}
