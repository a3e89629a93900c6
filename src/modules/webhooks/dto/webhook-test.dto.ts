import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class WebhookTestResultDto {
  @ApiProperty() url: string;
  @ApiProperty({ type: Number, nullable: true, description: "The endpoint's HTTP status; null when it gave none (refused address, connection error, timeout)" }) status: number | null;
  @ApiProperty({ description: 'Milliseconds until the answer or the failure' }) ms: number;
  @ApiPropertyOptional({ description: 'Why it failed (not a 2xx)' }) error?: string;
}
