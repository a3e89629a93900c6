import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, validateSync } from 'class-validator';

// Reads the raw value: implicit conversion would already have turned 'false' into true.
const toBool = ({ obj, key }: { obj: Record<string, unknown>; key: string }) => {
  const raw = obj[key];
  return typeof raw === 'string' ? ['1', 'true', 'yes'].includes(raw.toLowerCase()) : raw;
};

/**
 * Every environment variable the service reads, validated once at startup. `.env.example`
 * documents each of them; a bad or missing value stops the process naming the variable.
 */
export class AppConfig {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  /** 0 picks a free port (tests). */
  @IsInt() @Min(0) @Max(65535)
  PORT: number = 3000;

  /** api: HTTP + WebSocket; worker: queue processors and reconciler; all: both (local stack). */
  @IsIn(['api', 'worker', 'all'])
  APP_ROLE: 'api' | 'worker' | 'all' = 'all';

  @IsIn(['text', 'json'])
  LOG_FORMAT: 'text' | 'json' = 'text';

  /** One log line per HTTP request. */
  @Transform(toBool) @IsBoolean()
  ACCESS_LOG: boolean = true;

  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL: string;

  @Transform(toBool) @IsBoolean()
  DB_RUN_MIGRATIONS: boolean = true;

  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL: string;

  /** Prefix for every BullMQ queue and Redis key, so several deployments can share one Redis. */
  @IsString() @Matches(/^[a-z0-9-]+$/)
  REDIS_PREFIX: string = 'relay';

  /** JSON file describing the chains (see docs/configuration.md). */
  @IsString() @MinLength(1)
  CHAINS_FILE: string;

  /** Bearer token for /admin/*; the admin API is off when unset. */
  @IsOptional() @IsString() @MinLength(16, { message: 'ADMIN_TOKEN must be at least 16 characters' })
  ADMIN_TOKEN?: string;

  @IsString() @Matches(/^\d+(kb|mb)$/)
  BODY_LIMIT: string = '256kb';

  @IsInt() @Min(1000)
  CHAIN_HEALTH_INTERVAL_MS: number = 10_000;

  @IsInt() @Min(100)
  RPC_TIMEOUT_MS: number = 5_000;

  @IsInt() @Min(0)
  PRICE_CACHE_MS: number = 5_000;
}

export function validateConfig(env: Record<string, unknown>): AppConfig {
  // Empty strings in .env files mean "not set", so defaults apply.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const config = plainToInstance(AppConfig, present, { enableImplicitConversion: true, exposeDefaultValues: true });
  const errors = validateSync(config, { skipMissingProperties: false, whitelist: false });
  if (errors.length > 0) {
    const lines = errors.map((e) => `  ${e.property}: ${Object.values(e.constraints ?? {}).join(', ') || 'invalid'}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return config;
}
