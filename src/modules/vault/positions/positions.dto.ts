import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsPositive, IsString } from 'class-validator';

/** GET /v1/positions (extensions.md "Lists for clients and the dashboard"). */
export class PositionsQueryDto {
  @ApiProperty({ description: "the user's EOA", example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' })
  @IsString({ context: { code: 'USER_003' } })
  userAddress: string;

  @ApiPropertyOptional({ description: 'only this chain', example: 31337 })
  @IsOptional() @Type(() => Number) @IsInt({ context: { code: 'VALIDATION_003' } }) @IsPositive({ context: { code: 'VALIDATION_003' } })
  chain?: number;
}

/** A position recorded from confirmed orders, valued at the vault's current share price (asset units). */
export class PositionDto {
  @ApiProperty({ example: 31337 }) chain: number;
  @ApiProperty({ example: '0x8A791620dd6260079BF849Dc5567aDC3F2FdC318' }) vault: string;
  @ApiProperty({ example: 'usdc-core' }) venueId: string;
  @ApiProperty({ example: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512' }) asset: string;
  @ApiProperty({ description: 'base-10 integer string', example: '998000000' }) shares: string;
  @ApiProperty({ description: 'what the shares redeem for now, asset units', example: '1000400000' }) assets: string;
  @ApiProperty({ description: 'asset units paid for the shares (average cost)', example: '1000000000' }) costBasis: string;
  @ApiProperty({ description: 'assets − costBasis, asset units (negative for a loss)', example: '400000' }) pnl: string;
}
