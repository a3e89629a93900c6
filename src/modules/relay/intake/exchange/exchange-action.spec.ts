import { Signature, Wallet } from 'ethers';
import {
  canonicalJson,
  decodeExchangeCallData,
  encodeExchangeCallData,
  exchangeActionHash,
  exchangeDigest,
  ExchangeRequest,
  InvalidExchangeRequestError,
  MAX_EXCHANGE_REQUEST_BYTES,
  parseExchangeRequest,
  recoverExchangeSigner,
  signExchangeAction,
} from './exchange-action';

// anvil account 0: a fixed key makes the signature (RFC 6979) and so the whole vector deterministic.
const wallet = new Wallet('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
const CHAIN = 10200001;
const ACTION = { type: 'order', asset: 'ETH', isBuy: true, price: '3012.5', size: '0.25' };
const NONCE = 1763700000000;
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const reasonOf = (callData: string): string => {
  const result = decodeExchangeCallData(callData);
  if (result.ok) throw new Error('expected a rejection');
  return result.reason;
};

let signed: ExchangeRequest;
beforeAll(async () => {
  signed = await signExchangeAction(wallet, CHAIN, ACTION, NONCE);
});

describe('exchange action wire format', () => {
  it('matches the documented test vector, so clients in other languages can check themselves', () => {
    expect(canonicalJson(ACTION)).toBe('{"asset":"ETH","isBuy":true,"price":"3012.5","size":"0.25","type":"order"}');
    expect(exchangeActionHash(ACTION)).toBe('0xa20d3039f2bdadb473ff15ab8d1dfbc78b9c3635c256794d66f5abdd75310420');
    expect(exchangeDigest(CHAIN, ACTION, NONCE)).toBe('0xaad6d6b2d6c1a7d066d65eee46476ad4010ed096ba00ca978508deb90e41c5cd');
    expect(signed.signature).toBe(
      '0x3c926363608c090543ff8f1ce877a606f744b962171dc1e29ec468d49404b050242db8afbfd261c0505910666b95de4fd2c416e50363ebb29956dad475546f0d1b',
    );
  });

  it('round-trips sign → encode → decode → recover', () => {
    const decoded = decodeExchangeCallData(encodeExchangeCallData(signed));
    expect(decoded).toEqual({ ok: true, request: { action: ACTION, nonce: NONCE, signature: signed.signature } });
    if (!decoded.ok) return;
    expect(recoverExchangeSigner(CHAIN, decoded.request)).toBe(wallet.address.toLowerCase());
  });

  it('hashes the action independently of key order and whitespace', () => {
    const reordered = JSON.parse('{ "size": "0.25", "type": "order", "price": "3012.5", "isBuy": true, "asset": "ETH" }');
    expect(recoverExchangeSigner(CHAIN, { ...signed, action: reordered })).toBe(wallet.address.toLowerCase());
  });

  it('binds chain, action and nonce: changing any recovers a different address', () => {
    const trader = wallet.address.toLowerCase();
    expect(recoverExchangeSigner(10200000, signed)).not.toBe(trader);
    expect(recoverExchangeSigner(CHAIN, { ...signed, nonce: NONCE + 1 })).not.toBe(trader);
    expect(recoverExchangeSigner(CHAIN, { ...signed, action: { ...ACTION, size: '25' } })).not.toBe(trader);
  });

  it('accepts mixed-case hex and nested actions', async () => {
    const nested = { type: 'batch', orders: [{ a: 1, b: [null, false, 'x'] }], meta: { z: {}, a: [] } };
    const request = await signExchangeAction(wallet, CHAIN, nested, NONCE);
    const upper = { ...request, signature: `0x${request.signature.slice(2).toUpperCase()}` };
    const decoded = decodeExchangeCallData(b64(JSON.stringify(upper)));
    expect(decoded.ok).toBe(true);
    expect(recoverExchangeSigner(CHAIN, upper)).toBe(wallet.address.toLowerCase());
  });
});

describe('canonicalJson', () => {
  it('sorts keys recursively and drops whitespace', () => {
    expect(canonicalJson({ b: [{ d: 1, c: 'é"' }], a: null })).toBe('{"a":null,"b":[{"c":"é\\"","d":1}]}');
  });

  it.each([
    ['a float', { type: 't', price: 1.5 }],
    ['an unsafe integer', { type: 't', n: 2 ** 53 }],
    ['NaN', { type: 't', n: NaN }],
    ['undefined', { type: 't', u: undefined }],
    ['a bigint', { type: 't', n: 1n }],
    ['a Date', { type: 't', d: new Date(0) }],
    ['a function', { type: 't', f: () => 1 }],
    ['a sparse array', { type: 't', a: [1, , 3] }],
  ])('rejects %s', (_name, value) => {
    expect(() => canonicalJson(value)).toThrow();
  });

  it('rejects nesting beyond the depth cap', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 40; i++) deep = [deep];
    expect(() => canonicalJson({ type: 't', deep })).toThrow(/deeper/);
  });
});

describe('decodeExchangeCallData rejects', () => {
  const field = (overrides: Record<string, unknown>): string => b64(JSON.stringify({ ...signed, ...overrides }));

  it.each<[string, () => string, RegExp]>([
    ['an empty string', () => '', /non-empty/],
    ['a non-string', () => 42 as unknown as string, /non-empty/],
    ['hex callData', () => '0xdeadbeef', /not hex/],
    ['characters outside base64', () => 'eyJh!A==', /base64/],
    ['base64url', () => '-_8=', /base64/],
    ['missing padding', () => 'e30', /base64/],
    ['embedded whitespace', () => 'e3 0=', /base64/],
    ['non-zero padding bits', () => 'e31=', /canonical base64/],
    ['an oversize payload', () => b64(JSON.stringify({ ...signed, action: { type: 'x', pad: 'a'.repeat(MAX_EXCHANGE_REQUEST_BYTES) } })), /exceeds/],
    ['invalid UTF-8', () => Buffer.from([0x7b, 0xff, 0x7d]).toString('base64'), /UTF-8 JSON/],
    ['a UTF-8 BOM', () => b64(`\uFEFF${JSON.stringify(signed)}`), /UTF-8 JSON/],
    ['truncated JSON', () => b64(JSON.stringify(signed).slice(0, -1)), /UTF-8 JSON/],
    ['a JSON array', () => b64('[]'), /JSON object/],
    ['JSON null', () => b64('null'), /JSON object/],
    ['a JSON string', () => b64('"x"'), /JSON object/],
    ['an extra field', () => field({ vaultAddress: null }), /unexpected field "vaultAddress"/],
    ['a missing field', () => b64(JSON.stringify({ action: ACTION, nonce: NONCE })), /missing field "signature"/],
    ['an action that is not an object', () => field({ action: ['order'] }), /action must be a JSON object/],
    ['an action without type', () => field({ action: { asset: 'ETH' } }), /action.type/],
    ['an action with an empty type', () => field({ action: { type: '' } }), /action.type/],
    ['an action with a numeric type', () => field({ action: { type: 1 } }), /action.type/],
    ['an action holding a float', () => field({ action: { type: 'order', price: 3012.5 } }), /action.price: numbers must be safe integers/],
    ['a string nonce', () => field({ nonce: String(NONCE) }), /nonce/],
    ['a zero nonce', () => field({ nonce: 0 }), /nonce/],
    ['a negative nonce', () => field({ nonce: -1 }), /nonce/],
    ['a fractional nonce', () => field({ nonce: 1.5 }), /nonce/],
    ['an unsafe nonce', () => b64(JSON.stringify(signed).replace(String(NONCE), '9007199254740993')), /nonce/],
    ['a signature object', () => field({ signature: Signature.from(signed.signature).toJSON() }), /65 bytes/],
    ['a short signature', () => field({ signature: signed.signature.slice(0, -2) }), /65 bytes/],
    ['a signature without 0x', () => field({ signature: signed.signature.slice(2) + '00' }), /65 bytes/],
    ['a signature with v = 0', () => field({ signature: signed.signature.slice(0, -2) + '00' }), /v must be 27 or 28/],
    ['a zero r', () => field({ signature: `0x${'0'.repeat(64)}${signed.signature.slice(66)}` }), /r is out of range/],
    ['an r at the curve order', () => field({ signature: `0x${SECP256K1_N.toString(16)}${signed.signature.slice(66)}` }), /r is out of range/],
    ['a high s', () => field({ signature: highS(signed.signature) }), /low-s/],
  ])('%s', (_name, make, reason) => {
    expect(reasonOf(make())).toMatch(reason);
  });
});

describe('signing and recovery refuse malformed input', () => {
  it('signExchangeAction throws before signing', async () => {
    await expect(signExchangeAction(wallet, CHAIN, { type: 'order', price: 1.5 }, NONCE)).rejects.toThrow(InvalidExchangeRequestError);
    await expect(signExchangeAction(wallet, CHAIN, ACTION, 0)).rejects.toThrow(/nonce/);
    await expect(signExchangeAction(wallet, 0, ACTION, NONCE)).rejects.toThrow(/chain id/);
  });

  it('recoverExchangeSigner throws on malformed signatures', () => {
    expect(() => recoverExchangeSigner(CHAIN, { ...signed, signature: '0x1234' })).toThrow(InvalidExchangeRequestError);
    expect(() => recoverExchangeSigner(CHAIN, { ...signed, signature: highS(signed.signature) })).toThrow(/low-s/);
    // In range but not the x coordinate of any curve point, so nothing recovers.
    const offCurve = `0x${'0'.repeat(63)}5${signed.signature.slice(66)}`;
    expect(() => recoverExchangeSigner(CHAIN, { ...signed, signature: offCurve })).toThrow(/does not recover/);
  });

  it('encodeExchangeCallData refuses what decode would refuse', () => {
    expect(() => encodeExchangeCallData({ ...signed, nonce: -1 })).toThrow(InvalidExchangeRequestError);
    const big = { ...signed, action: { type: 'x', pad: 'a'.repeat(MAX_EXCHANGE_REQUEST_BYTES) } };
    expect(() => encodeExchangeCallData(big)).toThrow(/exceeds/);
  });

  it('parseExchangeRequest returns a fresh object with only the three fields', () => {
    const parsed = parseExchangeRequest(JSON.parse(JSON.stringify(signed)));
    expect(parsed.ok && Object.keys(parsed.request)).toEqual(['action', 'nonce', 'signature']);
  });
});

/** The malleable twin (n - s, flipped v): a valid ECDSA signature the format refuses. */
function highS(signature: string): string {
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  const v = signature.endsWith('1b') ? '1c' : '1b';
  return `${signature.slice(0, 66)}${(SECP256K1_N - s).toString(16).padStart(64, '0')}${v}`;
}
