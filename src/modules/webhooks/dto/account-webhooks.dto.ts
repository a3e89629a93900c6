import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { WEBHOOK_EVENTS, WebhookEvent } from '../entities/webhook.entity';

export class AccountWebhooksQueryDto {
  @ApiPropertyOptional({ description: 'How many recent deliveries to list', default: 20, maximum: 100 })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100)
  deliveries?: number;
}

export class AccountWebhookDto {
  @ApiProperty() id: string;
  @ApiProperty() url: string;
  @ApiProperty({ enum: ['none', 'bearer', 'basic', 'api-key'] }) authType: string;
  @ApiProperty() enabled: boolean;
  @ApiPropertyOptional({ enum: WEBHOOK_EVENTS, isArray: true, description: 'The events it receives; absent: all' }) events?: WebhookEvent[];
  @ApiProperty() createdAt: string;
}

export class WebhookDeliveryDto {
  @ApiProperty({ description: 'Delivery id (the dead-letter id when dead)' }) id: string;
  @ApiProperty() webhookId: string;
  @ApiProperty() url: string;
  @ApiProperty() txId: string;
  @ApiProperty({ description: 'The status the notification announces' }) txStatus: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'dead', 'cancelled'] }) status: string;
  @ApiProperty() attempts: number;
  @ApiProperty({ nullable: true, type: Number }) lastStatusCode: number | null;
  @ApiProperty({ nullable: true, type: String }) lastError: string | null;
  @ApiProperty() createdAt: string;
  @ApiProperty({ nullable: true, type: String }) deliveredAt: string | null;
  @ApiProperty({ nullable: true, type: String }) deadAt: string | null;
}

export class AccountWebhooksDto {
  @ApiProperty({ type: [AccountWebhookDto] }) webhooks: AccountWebhookDto[];
  @ApiProperty({ type: [WebhookDeliveryDto], description: 'Latest deliveries of every status, newest first; dead ones can be replayed' })
  deliveries: WebhookDeliveryDto[];
}
