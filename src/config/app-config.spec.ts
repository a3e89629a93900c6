import { validateConfig } from './app-config';

const mnemonic = 'test test test test test test test test test test test junk';
const base = {
  DATABASE_URL: 'postgres://u@h:5432/db',
  REDIS_URL: 'redis://h:6379',
  CHAINS_FILE: 'chains.json',
  RELAYER_MNEMONIC: mnemonic,
  AUTH_MNEMONIC: 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
  JWT_SECRET: 'x'.repeat(32),
};

describe('validateConfig', () => {
  it('applies defaults and converts types', () => {
    const config = validateConfig({ ...base, PORT: '4100', DB_RUN_MIGRATIONS: 'false' });
    expect(config.PORT).toBe(4100);
    expect(config.DB_RUN_MIGRATIONS).toBe(false);
    expect(config.APP_ROLE).toBe('all');
    expect(config.ADMIN_TOKEN).toBeUndefined();
  });

  it('collects SETTLEMENT_DELEGATE_<chainId> per chain and refuses a value that is not an address', () => {
    const delegate = '0x' + 'Ab'.repeat(20);
    expect(validateConfig({ ...base, SETTLEMENT_DELEGATE_31337: delegate, SETTLEMENT_DELEGATE_84532: '' }).SETTLEMENT_DELEGATES).toEqual({ 31337: delegate.toLowerCase() });
    expect(() => validateConfig({ ...base, SETTLEMENT_DELEGATE_1: '0x1234' })).toThrow('SETTLEMENT_DELEGATE_1');
  });

  it('validates the relayer wallet settings at startup', () => {
    expect(validateConfig(base).RELAYER_MIN_BALANCE_WEI).toBe('10000000000000000');
    expect(validateConfig({ ...base, RELAYER_TREASURY_PATH: "m/44'/60'/99'/0/0", OPERATOR_WEBHOOK_URL: 'http://127.0.0.1:9/a' }).RELAYER_TREASURY_PATH).toBe("m/44'/60'/99'/0/0");
    expect(() => validateConfig({ ...base, RELAYER_MIN_BALANCE_WEI: '0.5' })).toThrow('RELAYER_MIN_BALANCE_WEI');
    expect(() => validateConfig({ ...base, RELAYER_MIN_BALANCE_WEI: '100', RELAYER_TARGET_BALANCE_WEI: '100' })).toThrow('RELAYER_TARGET_BALANCE_WEI');
    expect(() => validateConfig({ ...base, RELAYER_TREASURY_KEY: '0x' + '1'.repeat(64), RELAYER_TREASURY_PATH: "m/44'/60'/99'/0/0" })).toThrow('set one, not both');
    expect(() => validateConfig({ ...base, RELAYER_TREASURY_KEY: '0x1234' })).toThrow('RELAYER_TREASURY_KEY');
    expect(() => validateConfig({ ...base, OPERATOR_WEBHOOK_URL: 'ftp://x' })).toThrow('OPERATOR_WEBHOOK_URL');
  });

  it('takes PUBLIC_ORIGIN as an origin, defaults it to localhost off production and requires it in production', () => {
    expect(validateConfig(base).PUBLIC_ORIGIN).toBe('http://localhost:3000');
    expect(validateConfig({ ...base, PORT: '4100' }).PUBLIC_ORIGIN).toBe('http://localhost:4100');
    expect(validateConfig({ ...base, PUBLIC_ORIGIN: 'https://Relay.Example.com:443' }).PUBLIC_ORIGIN).toBe('https://relay.example.com');
    expect(validateConfig({ ...base, NODE_ENV: 'production', PUBLIC_ORIGIN: 'https://relay.example.com' }).PUBLIC_ORIGIN).toBe('https://relay.example.com');
    expect(() => validateConfig({ ...base, NODE_ENV: 'production' })).toThrow(/PUBLIC_ORIGIN: required in production/);
    for (const bad of ['relay.example.com', 'https://relay.example.com/', 'https://relay.example.com/login', 'ftp://relay.example.com', 'https://user@relay.example.com']) {
      expect(() => validateConfig({ ...base, PUBLIC_ORIGIN: bad })).toThrow(/PUBLIC_ORIGIN/);
    }
  });

  it('gives JWTs the audience gas-relay unless JWT_AUDIENCE names another', () => {
    expect(validateConfig(base).JWT_AUDIENCE).toBe('gas-relay');
    expect(validateConfig({ ...base, JWT_AUDIENCE: 'relay-eu' }).JWT_AUDIENCE).toBe('relay-eu');
    expect(() => validateConfig({ ...base, JWT_AUDIENCE: 'two words' })).toThrow(/JWT_AUDIENCE/);
  });

  it('refuses AUTH_MNEMONIC equal to RELAYER_MNEMONIC and a treasury path that is a relayer key', () => {
    expect(() => validateConfig({ ...base, AUTH_MNEMONIC: mnemonic })).toThrow('AUTH_MNEMONIC: must differ from RELAYER_MNEMONIC');
    expect(() => validateConfig({ ...base, RELAYER_TREASURY_PATH: "m/44'/60'/1'/0/0" })).toThrow('is relayer key 0 of region 1');
    expect(() => validateConfig({ ...base, NODE_ENV: 'production', PUBLIC_ORIGIN: 'https://relay.example.com', RELAYER_TREASURY_PATH: "m/44'/60'/99'/0/0" })).toThrow('RELAYER_TREASURY_PATH: not allowed in production');
  });

  it('treats empty strings as unset', () => {
    expect(validateConfig({ ...base, PORT: '', ADMIN_TOKEN: '' }).PORT).toBe(3000);
  });

  it.each([
    ['DATABASE_URL', { ...base, DATABASE_URL: undefined }],
    ['DATABASE_URL', { ...base, DATABASE_URL: 'mysql://x' }],
    ['REDIS_URL', { ...base, REDIS_URL: 'http://x' }],
    ['CHAINS_FILE', { ...base, CHAINS_FILE: undefined }],
    ['PORT', { ...base, PORT: 'seventy' }],
    ['APP_ROLE', { ...base, APP_ROLE: 'everything' }],
    ['ADMIN_TOKEN', { ...base, ADMIN_TOKEN: 'short' }],
    ['RELAYER_MNEMONIC', { ...base, RELAYER_MNEMONIC: 'not a mnemonic' }],
    ['RELAY_REGIONS', { ...base, RELAY_REGIONS: 'us east' }],
  ])('names %s when it is bad or missing', (name, env) => {
    expect(() => validateConfig(env)).toThrow(new RegExp(`^Invalid configuration:[\\s\\S]*\\b${name}\\b`));
  });
});
