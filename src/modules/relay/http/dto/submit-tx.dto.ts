import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEvmAddress } from '../../../../common/evm/is-evm-address';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { TRANSACTION_TYPES, TransactionType } from '../../store/relay-transaction.entity';

/** One EIP-7702 authorization tuple, signed by the authority's key. */
export class AuthorizationDto {
  @ApiProperty({ description: "chain id the authorization is valid on: the transaction's chain (0, any chain, is refused)", example: 31337 })
  @IsInt() chainId: number;

  @ApiProperty({ description: 'delegate contract address' })
  @IsString() address: string;

  @ApiProperty({ description: "the authority's account nonce", example: 0 })
  @IsInt() nonce: number;

  @ApiProperty({ description: '0 or 1 (hex string or number)', example: '0x0', oneOf: [{ type: 'string' }, { type: 'integer', enum: [0, 1] }] })
  @IsOptional() yParity: string | number;

  @ApiProperty() @IsString() r: string;
  @ApiProperty() @IsString() s: string;
}

/** The transaction submission fields of interface.md (POST /api/submit-tx, /api/quote, submit-tx-sync `tx`). */
export class SubmitTxDto {
  @ApiPropertyOptional({ description: 'target of the call (absent on exchange-action chains)' })
  @IsOptional() @IsString()
  to?: string;

  @ApiProperty({ description: '0x hex calldata; base64 signed exchange request on exchange-action chains', example: '0x' })
  @IsString() @MaxLength(262_144)
  callData: string;

  @ApiProperty({ example: 84532 })
  @Type(() => Number) @IsInt() @IsPositive()
  chainId: number;

  @ApiPropertyOptional({ description: 'wei, base-10 integer string', example: '0' })
  @IsOptional() @IsString()
  value?: string;

  @ApiPropertyOptional({ description: 'gas override, base-10 integer string' })
  @IsOptional() @IsString()
  gasLimit?: string;

  @ApiPropertyOptional({ description: 'legacy gas price (wei); not with the EIP-1559 pair' })
  @IsOptional() @IsString()
  gasPrice?: string;

  @ApiPropertyOptional({ description: 'EIP-1559, with maxPriorityFeePerGas' })
  @IsOptional() @IsString()
  maxFeePerGas?: string;

  @ApiPropertyOptional({ description: 'EIP-1559, with maxFeePerGas' })
  @IsOptional() @IsString()
  maxPriorityFeePerGas?: string;

  @ApiPropertyOptional({ description: 'refuse (TRANSACTION_001) when the worst-case cost in USD exceeds this' })
  @IsOptional() @IsNumber() @IsPositive()
  maxUSD?: number;

  @ApiPropertyOptional({ maxLength: 256 })
  @IsOptional() @IsString() @MaxLength(256)
  label?: string;

  @ApiPropertyOptional({ enum: TRANSACTION_TYPES })
  @IsOptional() @IsIn(TRANSACTION_TYPES)
  transactionType?: TransactionType;

  @ApiPropertyOptional({ description: 'region pin; the X-Relay-Region header takes precedence' })
  @IsOptional() @IsString() @MaxLength(32)
  region?: string;

  @ApiPropertyOptional({ default: false })
  @IsOptional() @IsBoolean()
  isAuthenticatedTx?: boolean;

  @ApiPropertyOptional({ description: "BIP-32 path of the derived sender, e.g. m/44'/60'/0'/0/7" })
  @IsOptional() @IsString() @MaxLength(128)
  derivationPath?: string;

  @ApiPropertyOptional({
    description:
      'Unix seconds: a transaction not mined by then is cancelled by the service (not yet sent: FAILED at once; sent: a 0-value self-transfer at its nonce, ' +
      'and whichever is mined decides; failureReason expired). Must be in the future and at most 30 days ahead.',
    example: 1767225600,
  })
  @IsOptional() @IsInt() @IsPositive()
  validUntil?: number;

  @ApiPropertyOptional({
    description: "The team's user this transaction is sponsored for (sponsorship policies count per end user); absent: the derived sender of an authenticated transaction",
    example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  })
  @IsOptional() @IsEvmAddress({ context: { code: 'VALIDATION_002' } })
  endUser?: string;

  @ApiPropertyOptional({ type: [AuthorizationDto] })
  @IsOptional() @IsArray() @ArrayMaxSize(16) @ValidateNested({ each: true }) @Type(() => AuthorizationDto)
  authorizationList?: AuthorizationDto[];
}

export class SubmitTxResultDto {
  @ApiProperty() txId: string;
  @ApiProperty() estimatedCostUSD: number;
}

export class QuoteResultDto {
  @ApiProperty() costUSD: number;
  @ApiProperty({ description: "worst-case native cost plus the 8% funding fee, in the chain's smallest unit" })
  minBalanceRequired: string;
}
