import { TransportFailure } from './http-transport';

export type RpcErrorBody = { code: number; message: string; data?: unknown };
export type RpcReply = { result: unknown } | { error: RpcErrorBody };

/** A provider's answer as JSON; unparsable is no answer. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new TransportFailure('bad response');
  }
}

/** One call's answer (a JSON-RPC response object): its result or error; anything else is no answer. */
export function parseReply(value: unknown): RpcReply {
  const body = value as { result?: unknown; error?: RpcErrorBody } | null | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new TransportFailure('bad response');
  if (body.error && typeof body.error === 'object') return { error: { code: Number(body.error.code), message: String(body.error.message ?? ''), data: body.error.data } };
  if (!('result' in body)) throw new TransportFailure('bad response');
  return { result: body.result };
}
