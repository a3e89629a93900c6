/**
 * Wire format of exchange actions, the "transactions" of exchange-action chains (10200000 mainnet,
 * 10200001 testnet).
 *
 * A signed request is one JSON object with exactly three fields:
 *
 *   {
 *     "action": {"type": "order", "asset": "ETH", "isBuy": true, "price": "3012.5", "size": "0.25"},
 *     "nonce": 1763700000000,
 *     "signature": "0x<r: 32 bytes><s: 32 bytes><v: 1 byte>"
 *   }
 *
 * - action: a JSON object with a non-empty string `type`; every other field is up to the exchange.
 *   Numbers must be safe integers, so decimals (prices, sizes) are strings (canonical-json.ts).
 * - nonce: positive safe integer, by convention the signing time in milliseconds (as Hyperliquid
 *   does); an exchange accepts each nonce once per trader and only within a freshness window.
 * - signature: 65 bytes r ‖ s ‖ v as 0x hex (132 chars), v = 27 or 28, low s. It is the trader's
 *   EIP-712 signature of
 *     domain  {name: "Exchange", version: "1", chainId}
 *     type    Action(bytes32 actionHash,uint64 nonce)
 *     message {actionHash: keccak256(utf8(canonicalJson(action))), nonce}
 *   where canonical JSON sorts object keys recursively and has no whitespace. The trader is the
 *   address the signature recovers to; there is no separate sender field.
 *
 * Through the relay (POST /api/submit-tx) the request travels as `callData` = standard padded
 * base64 of the UTF-8 request JSON, at most MAX_EXCHANGE_REQUEST_BYTES before encoding. The exchange
 * receives the decoded object as the body of `POST <exchange url>/exchange`.
 */
import { ExchangeRequest, ExchangeRequestResult, MAX_EXCHANGE_REQUEST_BYTES, parseExchangeRequest } from './exchange-request';
import { InvalidExchangeRequestError } from './exchange-signature';

export { MAX_EXCHANGE_REQUEST_BYTES, parseExchangeRequest } from './exchange-request';
export type { ExchangeAction, ExchangeRequest, ExchangeRequestResult } from './exchange-request';
export {
  exchangeActionHash,
  exchangeDigest,
  exchangeDomain,
  EXCHANGE_EIP712_NAME,
  EXCHANGE_EIP712_TYPES,
  EXCHANGE_EIP712_VERSION,
  InvalidExchangeRequestError,
  recoverExchangeSigner,
  signExchangeAction,
} from './exchange-signature';
export { canonicalJson } from './canonical-json';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const MAX_BASE64_LENGTH = Math.ceil(MAX_EXCHANGE_REQUEST_BYTES / 3) * 4;
// fatal: invalid UTF-8 is an error, not U+FFFD; ignoreBOM: a BOM is kept, so JSON.parse rejects it.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Strictly decodes submit-tx callData for an exchange-action chain. Never throws. */
export function decodeExchangeCallData(base64: string): ExchangeRequestResult {
  if (typeof base64 !== 'string' || base64.length === 0) return { ok: false, reason: 'callData must be a non-empty base64 string' };
  if (base64.length > MAX_BASE64_LENGTH) return { ok: false, reason: `callData exceeds ${MAX_EXCHANGE_REQUEST_BYTES} bytes` };
  if (/^0x[0-9a-fA-F]*$/.test(base64)) return { ok: false, reason: 'callData must be base64 of the signed request JSON, not hex' };
  if (!BASE64.test(base64)) return { ok: false, reason: 'callData is not valid padded base64' };
  const bytes = Buffer.from(base64, 'base64');
  // Non-zero padding bits decode "successfully" but mean the client encoded something else.
  if (bytes.toString('base64') !== base64) return { ok: false, reason: 'callData is not canonical base64' };
  if (bytes.length > MAX_EXCHANGE_REQUEST_BYTES) return { ok: false, reason: `callData exceeds ${MAX_EXCHANGE_REQUEST_BYTES} bytes` };

  let json: unknown;
  try {
    json = JSON.parse(UTF8.decode(bytes));
  } catch {
    return { ok: false, reason: 'callData does not decode to UTF-8 JSON' };
  }
  return parseExchangeRequest(json);
}

/** Base64 callData for submit-tx. Throws InvalidExchangeRequestError for a request the relay would refuse. */
export function encodeExchangeCallData(request: ExchangeRequest): string {
  const parsed = parseExchangeRequest(request);
  if (!parsed.ok) throw new InvalidExchangeRequestError(parsed.reason);
  const { action, nonce, signature } = parsed.request;
  const bytes = Buffer.from(JSON.stringify({ action, nonce, signature }), 'utf8');
  if (bytes.length > MAX_EXCHANGE_REQUEST_BYTES) throw new InvalidExchangeRequestError(`request exceeds ${MAX_EXCHANGE_REQUEST_BYTES} bytes`);
  return bytes.toString('base64');
}
