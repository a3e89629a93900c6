import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { AppError } from '../errors/app-error';
import { AppConfig } from '../../config/app-config';

const VERSION = 'v1';

/** The 32-byte key of WEBHOOK_ENCRYPTION_KEY (hex or base64, validated at startup). */
export function encryptionKey(text: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error('WEBHOOK_ENCRYPTION_KEY must be 32 bytes');
  return key;
}

export function seal(key: Buffer, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
}

export function open(key: Buffer, sealed: string, context: string): string {
  const [version, iv, tag, body] = sealed.split(':');
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('unrecognised sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
}

/**
 * AES-256-GCM for secrets at rest (webhook and approval-webhook secrets). The context (which account, which field) is
 * bound in as associated data, so a ciphertext copied onto another row does not decrypt.
 */
@Injectable()
export class SecretBox {
  private readonly key: Buffer | null;

  constructor(config: AppConfig) {
    this.key = config.WEBHOOK_ENCRYPTION_KEY ? encryptionKey(config.WEBHOOK_ENCRYPTION_KEY) : null;
  }

  get enabled(): boolean {
    return this.key !== null;
  }

  seal(plaintext: string, context: string): string {
    return seal(this.requireKey(), plaintext, context);
  }

  open(sealed: string, context: string): string {
    return open(this.requireKey(), sealed, context);
  }

  private requireKey(): Buffer {
    if (!this.key) throw new AppError('SYSTEM_002', 'webhooks are disabled: WEBHOOK_ENCRYPTION_KEY is not set');
    return this.key;
  }
}
