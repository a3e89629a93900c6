import { Injectable } from '@nestjs/common';
import { WebhookDeadLetters } from '../admin/dead-letters.service';
import { AccountWebhooksDto, WebhookDeliveryDto } from '../dto/account-webhooks.dto';
import { ReplayedDto } from '../dto/dead-letter.dto';
import { RecentDeliveryRow } from '../store/webhook-delivery.store';
import { WebhookDeliveryStore } from '../store/webhook-delivery.store';
import { WebhookStore } from '../store/webhook.store';

/** A team's own webhooks, their latest deliveries and the replay of its dead letters. */
@Injectable()
export class AccountWebhooks {
  constructor(
    private readonly webhooks: WebhookStore,
    private readonly deliveries: WebhookDeliveryStore,
    private readonly deadLetters: WebhookDeadLetters,
  ) {}

  async overview(userId: string, deliveries: number): Promise<AccountWebhooksDto> {
    const [hooks, recent] = await Promise.all([this.webhooks.listOf(userId), this.deliveries.recentOf(userId, deliveries)]);
    return {
      webhooks: hooks.map((w) => ({ id: w.id, url: w.url, authType: w.authType, enabled: w.enabled, ...(w.events ? { events: w.events } : {}), createdAt: w.createdAt.toISOString() })),
      deliveries: recent.map(toDeliveryDto),
    };
  }

  replay(userId: string, id: string): Promise<ReplayedDto> {
    return this.deadLetters.replay(id, userId);
  }
}

function toDeliveryDto(r: RecentDeliveryRow): WebhookDeliveryDto {
  return {
    ...r,
    createdAt: r.createdAt.toISOString(),
    deliveredAt: r.deliveredAt?.toISOString() ?? null,
    deadAt: r.deadAt?.toISOString() ?? null,
  };
}
