import { RelayTimeoutError } from './errors';
import { data, type ApiClient, type Credentials } from './http';
import { connectTxSocket, subscribe } from './socket';
import { isFinal, type RelayQuote, type SubmitSignedTx, type SubmitSignedTxResult, type SubmitTx, type SubmitTxResult, type SubmitTxSync, type TxList, type TxRecord, type TxStatus } from './types';

export interface WaitOptions {
  /** Give up after this long (default 60 s): RelayTimeoutError. */
  timeoutMs?: number;
  /** Polling interval of GET /api/tx (default 1 s). */
  pollIntervalMs?: number;
  /** Resolve once an execution hash is known instead of at a final status. */
  untilHash?: boolean;
  /** Listen on Socket.IO as well as polling (default true when the client has credentials). */
  socket?: boolean;
}

export interface SubmitOptions {
  region?: string;
  /** Idempotency-Key: the same key and body within 24 h answer the first answer again. */
  idempotencyKey?: string;
}

function submitHeaders(options: SubmitOptions): { 'X-Relay-Region'?: string; 'Idempotency-Key'?: string } {
  return { ...(options.region ? { 'X-Relay-Region': options.region } : {}), ...(options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : {}) };
}

export type TxListQuery = { status?: TxStatus; chainId?: number; label?: string; limit?: number; cursor?: string };

export class RelayApi {
  constructor(
    private readonly api: ApiClient,
    private readonly baseUrl: string,
    private readonly credentials: Credentials,
  ) {}

  /** POST /api/submit-tx: queued; follow it with `waitFor`. With `idempotencyKey`, a retry never relays twice. */
  submit(tx: SubmitTx, options: SubmitOptions = {}): Promise<SubmitTxResult> {
    return data(this.api.POST('/api/submit-tx', { body: tx, params: { header: submitHeaders(options) } }));
  }

  /** POST /api/submit-tx-sync: the record at a final status, at a hash (returnOnTxHash), or with `timedOut: true` (HTTP 202). */
  submitSync(request: SubmitTxSync, options: SubmitOptions = {}): Promise<TxRecord> {
    return data(this.api.POST('/api/submit-tx-sync', { body: request, params: { header: submitHeaders(options) } }));
  }

  /** POST /api/tx/{id}/cancel: unsent → FAILED cancelled; sent → a cancellation at its nonce, whichever is mined decides. */
  cancel(txId: string): Promise<TxRecord> {
    return data(this.api.POST('/api/tx/{id}/cancel', { params: { path: { id: txId } } }));
  }

  /** POST /api/tx/{id}/speed-up: a replacement with higher fees (`bumpPercent`, default 20, or the explicit pair). */
  speedUp(txId: string, fees: { bumpPercent?: number } | { maxFeePerGas: string; maxPriorityFeePerGas: string } = {}): Promise<TxRecord> {
    return data(this.api.POST('/api/tx/{id}/speed-up', { params: { path: { id: txId } }, body: fees }));
  }

  /** POST /api/quote: the cost in USD and `minBalanceRequired`, nothing queued or charged. */
  quote(tx: SubmitTx): Promise<RelayQuote> {
    return data(this.api.POST('/api/quote', { body: tx }));
  }

  /**
   * POST /api/submit-signed-tx (funding-signed): the service tops the signer of `signedTx` up to
   * the native balance it needs, broadcasts it and tracks it like any relayed transaction.
   */
  submitSigned(request: SubmitSignedTx): Promise<SubmitSignedTxResult> {
    return data(this.api.POST('/api/submit-signed-tx', { body: request }));
  }

  /** GET /api/tx (public). */
  get(txId: string, options: { includeReceipt?: boolean; includeRevertInfo?: boolean } = {}): Promise<TxRecord> {
    const query = { id: txId, ...(options.includeReceipt ? { includeReceipt: 'true' } : {}), ...(options.includeRevertInfo ? { includeRevertInfo: 'true' } : {}) };
    return data(this.api.GET('/api/tx', { params: { query } }));
  }

  /** GET /api/txs: the account's transactions, newest first; pass `nextCursor` as `cursor` for the next page. */
  list(query: TxListQuery = {}): Promise<TxList> {
    return data(this.api.GET('/api/txs', { params: { query } }));
  }

  /**
   * Resolves with the record once it is final (EXECUTED or FAILED) or, with `untilHash`, has an
   * execution hash. Socket.IO and polling race: whichever sees it first answers, so a blocked
   * WebSocket costs at most one polling interval and a slow poll never delays a pushed status.
   */
  waitFor(txId: string, options: WaitOptions = {}): Promise<TxRecord> {
    const timeoutMs = options.timeoutMs ?? 60_000;
    const pollIntervalMs = options.pollIntervalMs ?? 1_000;
    const useSocket = (options.socket ?? true) && Boolean(this.credentials.apiKey || this.credentials.jwt);
    const done = (record: TxRecord): boolean => isFinal(record.status) || (options.untilHash === true && record.executionTxHash !== null);

    return new Promise<TxRecord>((resolve, reject) => {
      let settled = false;
      let lastSeen: TxRecord | undefined;
      let pollTimer: ReturnType<typeof setTimeout> | undefined;
      const socket = useSocket ? connectTxSocket(this.baseUrl, this.credentials) : undefined;
      const finish = (outcome: { record: TxRecord } | { error: Error }): void => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        clearTimeout(pollTimer);
        socket?.close();
        if ('record' in outcome) resolve(outcome.record);
        else reject(outcome.error);
      };
      const check = async (): Promise<void> => {
        try {
          const record = await this.get(txId);
          lastSeen = record;
          if (done(record)) finish({ record });
        } catch (err) {
          // 404 right after submission cannot happen (the row is written before the answer); anything else is worth reporting.
          finish({ error: err instanceof Error ? err : new Error(String(err)) });
        }
      };
      const poll = async (): Promise<void> => {
        await check();
        if (!settled) pollTimer = setTimeout(() => void poll(), pollIntervalMs);
      };
      const deadline = setTimeout(() => finish({ error: new RelayTimeoutError(`transaction ${txId} not ${options.untilHash ? 'hashed' : 'final'} after ${timeoutMs} ms`, lastSeen) }), timeoutMs);

      if (socket) {
        socket.on('tx.status', (n) => {
          if (n.txId === txId && (isFinal(n.status) || (options.untilHash === true && n.executionTxHash !== null))) void check();
        });
        // A refused or failing socket just leaves polling to answer.
        socket.on('connect', () => {
          subscribe(socket, { txId })
            .then(() => check())
            .catch(() => socket.close());
        });
      }
      void poll();
    });
  }
}
