import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class AllocationDto {
  @ApiProperty() venueId: string;
  @ApiProperty() vault: string;
  @ApiProperty() shareBps: number;
}

export class CallDto {
  @ApiProperty() target: string;
  @ApiProperty() value: string;
  @ApiProperty() data: string;
}

export class AuthorizationRequestDto {
  @ApiProperty() chainId: number;
  @ApiProperty({ description: 'the settlement delegate' }) address: string;
  @ApiProperty({ description: "the EOA's current account nonce" }) nonce: number;
}

export class TxPayloadDto {
  @ApiProperty({ type: AuthorizationRequestDto }) authorization: AuthorizationRequestDto;
  @ApiProperty() executeDigest: string;
  @ApiProperty({ type: [CallDto] }) calls: CallDto[];
  @ApiProperty() executeNonce: string;
  @ApiProperty({ description: 'Unix seconds; part of the signed Execute message, so a client can recompute executeDigest' }) deadline: number;
}

export class DepositQuoteDto {
  @ApiProperty() quoteId: string;
  @ApiProperty({ description: 'percent, after fees and the deposit’s dilution' }) netApy: number;
  @ApiProperty({ description: 'percent, before fees' }) grossApy: number;
  @ApiProperty() feeBps: number;
  @ApiProperty({ type: [AllocationDto] }) allocation: AllocationDto[];
  @ApiProperty() solverId: string;
  @ApiProperty() riskScore: number;
  @ApiProperty({ type: TxPayloadDto }) txPayload: TxPayloadDto;
  @ApiProperty({ description: 'Unix seconds' }) expiresAt: number;
}

export class WithdrawalQuoteDto {
  @ApiProperty() quoteId: string;
  @ApiProperty({ example: 'withdraw' }) kind: 'withdraw';
  @ApiProperty() shares: string;
  @ApiProperty({ type: TxPayloadDto }) txPayload: TxPayloadDto;
  @ApiProperty() expiresAt: number;
}

export class OrderDto {
  @ApiProperty() orderId: string;
  @ApiProperty({ enum: ['relaying', 'confirmed', 'failed'] }) status: string;
  @ApiProperty({ enum: ['deposit', 'withdraw'] }) kind: string;
  @ApiProperty() chain: number;
  @ApiProperty() asset: string;
  @ApiProperty() amount: string;
  @ApiProperty() venueId: string;
  @ApiProperty() relayTxId: string;
  @ApiPropertyOptional({ type: String, nullable: true }) executionTxHash?: string | null;
  @ApiPropertyOptional({ type: [AllocationDto] }) allocation?: AllocationDto[];
}
