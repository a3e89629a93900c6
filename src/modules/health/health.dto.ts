import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

// ---- public: GET /health (status only) ----

export class ComponentStatusDto {
  @ApiProperty() ok: boolean;
}

/** One RPC provider of a chain (docs/spec/extensions.md, "RPC providers"): never its path, query or key. */
export class ProviderHealthDto {
  @ApiProperty({ example: 'https://mainnet.example.io/***', description: 'redacted: scheme, host and port; path and query replaced by *** (#n added when two providers share a host)' }) url: string;
  @ApiProperty({ description: 'takes calls now (circuit closed)' }) healthy: boolean;
  @ApiProperty({ type: Number, nullable: true, example: 1234 }) headBlock: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 0, description: 'blocks behind the best head any provider reported' }) lagBlocks: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 12 }) latencyMsP50: number | null;
  @ApiProperty({ example: 0, description: 'share of the last 100 calls that failed (0..1)' }) errorRate: number;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'set while the provider is backed off' }) backedOffUntil: string | null;
}

export class ChainStatusDto {
  @ApiProperty({ example: 31337 }) chainId: number;
  @ApiProperty() healthy: boolean;
  @ApiProperty({ type: [ProviderHealthDto], description: 'each RPC provider of the chain, URL redacted (empty for exchange-action chains)' }) providers: ProviderHealthDto[];
}

export class HealthChecksDto {
  @ApiProperty({ type: ComponentStatusDto }) database: ComponentStatusDto;
  @ApiProperty({ type: ComponentStatusDto }) redis: ComponentStatusDto;
  @ApiProperty({ type: [ChainStatusDto] }) chains: ChainStatusDto[];
}

export class HealthDto {
  @ApiProperty({ enum: ['ok', 'degraded', 'down'] }) status: 'ok' | 'degraded' | 'down';
  @ApiProperty({ type: HealthChecksDto }) checks: HealthChecksDto;
  @ApiProperty({ format: 'date-time' }) timestamp: string;
}

// ---- operators: GET /admin/health (the detail) ----

export class ProbeDto {
  @ApiProperty() ok: boolean;
  @ApiProperty({ example: 2 }) latencyMs: number;
  @ApiPropertyOptional({ example: 'timed out' }) error?: string;
}

export class RelayerKeyDto {
  @ApiProperty({ example: 'us-east' }) region: string;
  @ApiProperty({ example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }) address: string;
  @ApiProperty({ type: String, nullable: true, description: 'wei (integer string); null until first read', example: '9999871234000000000' }) balanceWei: string | null;
  @ApiProperty({ enum: ['ok', 'low', 'empty', 'unknown'], description: 'ok: at or above the floor; low: under it (no new work, topped up); empty: under a tenth of it; unknown: not read yet' })
  state: 'ok' | 'low' | 'empty' | 'unknown';
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) checkedAt: string | null;
}

export class TreasuryDto {
  @ApiProperty() address: string;
  @ApiProperty({ type: String, nullable: true, description: 'wei (integer string)' }) balanceWei: string | null;
}

export class RelayerWalletsDto {
  @ApiProperty({ description: 'balance floor of each key (wei)', example: '10000000000000000' }) floorWei: string;
  @ApiProperty({ description: 'balance a treasury top-up brings a key to (wei)', example: '50000000000000000' }) targetWei: string;
  @ApiProperty({ type: TreasuryDto, nullable: true, description: 'null when no treasury is configured' }) treasury: TreasuryDto | null;
  @ApiProperty({ type: [RelayerKeyDto] }) keys: RelayerKeyDto[];
}

export class ChainHealthDto {
  @ApiProperty({ example: 31337 }) chainId: number;
  @ApiProperty() healthy: boolean;
  @ApiProperty({ type: Number, nullable: true, example: 42 }) blockNumber: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 3 }) latencyMs: number | null;
  @ApiProperty({ type: String, nullable: true, example: 'http 429', description: 'short code of the last probe failure (timeout, http 429, connection refused, rpc -32000, wrong chain id...)' }) error: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) checkedAt: string | null;
  @ApiProperty({ type: [ProviderHealthDto], description: 'each RPC provider of the chain, URL redacted' }) providers: ProviderHealthDto[];
  @ApiPropertyOptional({ type: RelayerWalletsDto, description: 'relayer keys of the chain (EVM chains only)' }) relayers?: RelayerWalletsDto;
}

export class HealthDetailChecksDto {
  @ApiProperty({ type: ProbeDto }) database: ProbeDto;
  @ApiProperty({ type: ProbeDto }) redis: ProbeDto;
  @ApiProperty({ type: [ChainHealthDto] }) chains: ChainHealthDto[];
}

export class HealthDetailDto {
  @ApiProperty({ enum: ['ok', 'degraded', 'down'] }) status: 'ok' | 'degraded' | 'down';
  @ApiProperty({ type: HealthDetailChecksDto }) checks: HealthDetailChecksDto;
  @ApiProperty({ format: 'date-time' }) timestamp: string;
}
