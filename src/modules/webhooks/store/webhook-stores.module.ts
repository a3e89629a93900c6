import { Module } from '@nestjs/common';
import { WebhookDeliveryStore } from './webhook-delivery.store';
import { WebhookSigningKeyStore } from './webhook-signing-key.store';
import { WebhookStore } from './webhook.store';

/** The webhooks module's tables, shared by registration, delivery and the dead letters (API and CLI). */
@Module({
  providers: [WebhookStore, WebhookSigningKeyStore, WebhookDeliveryStore],
  exports: [WebhookStore, WebhookSigningKeyStore, WebhookDeliveryStore],
})
export class WebhookStoresModule {}
