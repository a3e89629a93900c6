import { Module } from '@nestjs/common';
import { QUEUES } from '../../queue/queue-names';
import { registerQueues } from '../../queue/register-queues';
import { TxEventsModule } from '../tx-events';
import { SecretBox } from '../../common/crypto/secret-box';
import { WebhookAttemptService } from './delivery/webhook-attempt.service';
import { WebhookDeliveryProcessor } from './delivery/webhook-delivery.processor';
import { WebhookDispatcher } from './delivery/webhook-dispatcher.service';
import { WebhookQueue } from './delivery/webhook-queue';
import { WebhookStoresModule } from './store/webhook-stores.module';

/** Dispatcher and delivery processor: loaded by APP_ROLE worker and all, like the relay's worker side. */
@Module({
  imports: [registerQueues(QUEUES.webhooks), TxEventsModule, WebhookStoresModule],
  providers: [SecretBox, WebhookQueue, WebhookAttemptService, WebhookDeliveryProcessor, WebhookDispatcher],
})
export class WebhooksWorkerModule {}
