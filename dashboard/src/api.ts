import { RelayApiError, type components } from '@gas-relay/sdk';

export type Schemas = components['schemas'];

interface Answer<B> {
  data?: B;
  error?: unknown;
  response: Response;
}

/** `data` of a success-envelope answer, or the API's error as a readable Error. */
export async function unwrap<D>(call: Promise<Answer<{ data: D }>>): Promise<D> {
  const answer = await call;
  if (answer.response.ok && answer.data !== undefined) return answer.data.data;
  const body = answer.error as { error?: { code?: string; message?: string } } | undefined;
  const code = body?.error?.code ?? String(answer.response.status);
  throw new RelayApiError(`${code}: ${body?.error?.message ?? answer.response.statusText}`, answer.response.status, code, undefined, undefined);
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
