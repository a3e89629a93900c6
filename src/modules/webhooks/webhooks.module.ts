import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts';
import { AdminGuard } from '../accounts';
import { AccountWebhooksController } from './account/account-webhooks.controller';
import { AccountWebhooks } from './account/account-webhooks.service';
import { WebhookTestController } from './account/webhook-test.controller';
import { WebhookTestService } from './account/webhook-test.service';
import { AdminWebhooksController } from './admin/admin-webhooks.controller';
import { SecretBox } from '../../common/crypto/secret-box';
import { RegisterWebhooksPipe } from './registration/register-webhooks.pipe';
import { WebhookRegistry } from './registration/webhook-registry.service';
import { WebhooksController } from './registration/webhooks.controller';
import { WebhookStoresModule } from './store/webhook-stores.module';
import { WebhookDeadLettersModule } from './webhook-dead-letters.module';

/** Registration (POST /api/user/register-webhooks), the team's view (/api/user/webhooks) and the operator's dead letters (/admin/webhooks/*). */
@Module({
  imports: [AccountsModule, WebhookDeadLettersModule, WebhookStoresModule],
  controllers: [WebhooksController, AccountWebhooksController, WebhookTestController, AdminWebhooksController],
  providers: [AccountWebhooks, WebhookTestService, SecretBox, WebhookRegistry, RegisterWebhooksPipe, AdminGuard],
})
export class WebhooksModule {}
