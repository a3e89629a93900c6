import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts';
import { WebhookDeadLetters } from './admin/dead-letters.service';
import { WebhookStoresModule } from './store/webhook-stores.module';

/** Dead-letter listing and replay: used by the admin REST API and the admin CLI (which has no HTTP or queues). */
@Module({
  imports: [AccountsModule, WebhookStoresModule],
  providers: [WebhookDeadLetters],
  exports: [WebhookDeadLetters],
})
export class WebhookDeadLettersModule {}
