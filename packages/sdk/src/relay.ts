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

export type TxListQuery = { status?: TxStatus; chainId?: number; label?: string; limit?: number; cursor?: string };

export class RelayApi {
  constructor(
    private readonly api: ApiClient,
    private readonly baseUrl: string,
    private readonly credentials: Credentials,
  ) {}

  /** POST /api/submit-tx: queued; follow it with `waitFor`. */
  submit(tx: SubmitTx, options: { region?: string } = {}): Promise<SubmitTxResult> {
    return data(this.api.POST('/api/submit-tx', { body: tx, params: { header: options.region ? { 'X-Relay-Region': options.region } : {} } }));
  }

  /** POST /api/submit-tx-sync: the record at a final status, at a hash (returnOnTxHash), or with `timedOut: true` (HTTP 202). */
  submitSync(request: SubmitTxSync, options: { region?: string } = {}): Promise<TxRecord> {
    return data(this.api.POST('/api/submit-tx-sync', { body: request, params: { header: options.region ? { 'X-Relay-Region': options.region } : {} } }));
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
      let pollTimer: NodeJS.Timeout | undefined;
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
