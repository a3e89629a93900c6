import { subscribe, type RelayClient, type TxNotification, type TxRecord } from '@gas-relay/sdk';
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText } from '../api';

export interface TxFilter {
  status: '' | 'PENDING' | 'EXECUTED' | 'FAILED';
  chainId: string;
  label: string;
}

export interface LiveTxs {
  items: TxRecord[];
  nextCursor: string | null;
  error: string | null;
  connected: boolean;
  loadMore: () => void;
}

const PAGE = 25;

const isFinal = (tx: TxRecord) => tx.status !== 'PENDING';

/** Answers can arrive out of order: a final row never goes back to PENDING. */
function merge(current: TxRecord, next: TxRecord): TxRecord {
  return isFinal(current) && !isFinal(next) ? current : next;
}

function matches(tx: TxRecord, filter: TxFilter): boolean {
  return (!filter.status || tx.status === filter.status) && (!filter.chainId || tx.chainId === Number(filter.chainId)) && (!filter.label || tx.label === filter.label);
}

/**
 * The account's transactions (GET /api/txs with the filter) kept current by the Socket.IO push:
 * a known row takes the new status at once, an unknown one is read and put on top. A
 * (re)connection reloads the page of rows, so nothing said while disconnected is missed.
 */
export function useLiveTxs(client: RelayClient, filter: TxFilter, onChange: (n: TxNotification) => void, onDeposit?: () => void): LiveTxs {
  const [items, setItems] = useState<TxRecord[]>([]);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [connected, setConnected] = useState(false);
  const filterRef = useRef(filter);
  filterRef.current = filter;
  const changed = useRef(onChange);
  changed.current = onChange;
  const deposited = useRef(onDeposit);
  deposited.current = onDeposit;
  const shown = useRef(items);
  shown.current = items;

  const query = (cursor?: string) => ({
    limit: PAGE,
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.chainId ? { chainId: Number(filter.chainId) } : {}),
    ...(filter.label ? { label: filter.label } : {}),
    ...(cursor ? { cursor } : {}),
  });

  const reload = () =>
    client.relay
      .list(query())
      .then((page) => {
        setItems(page.items);
        setNextCursor(page.nextCursor);
        setError(null);
      })
      .catch((err: unknown) => setError(errorText(err)));

  useEffect(() => {
    void reload();
  }, [client, filter.status, filter.chainId, filter.label]);

  useEffect(() => {
    const socket = client.socket();
    socket.on('connect', () => {
      subscribe(socket, { all: true })
        .then(() => {
          setConnected(true);
          void reload();
        })
        .catch((err: unknown) => setError(`live updates refused: ${errorText(err)}`));
    });
    socket.on('disconnect', () => setConnected(false));
    // A credited deposit moves the balance: the view refreshes it and the deposits list.
    socket.on('account.deposit', () => deposited.current?.());
    socket.on('tx.status', (n: TxNotification) => {
      changed.current(n);
      const known = shown.current.some((row) => row.id === n.txId);
      setItems((rows) => rows.map((row) => (row.id === n.txId ? merge(row, { ...row, status: n.status, executionTxHash: n.executionTxHash ?? row.executionTxHash, costUSD: n.costUSD ?? row.costUSD, retries: n.retries }) : row)));
      // Read the whole record: a new row, or the final fields (latency, reasons) of a known one.
      if (!known || n.status !== 'PENDING') {
        client.relay
          .get(n.txId)
          .then((tx) =>
            setItems((rows) => {
              const rest = rows.filter((r) => r.id !== tx.id);
              if (!matches(tx, filterRef.current)) return rest;
              const at = rows.findIndex((r) => r.id === tx.id);
              if (at >= 0) return rows.map((r) => (r.id === tx.id ? merge(r, tx) : r));
              return [tx, ...rest];
            }),
          )
          .catch(() => undefined);
      }
    });
    return () => {
      socket.close();
    };
  }, [client]);

  const loadMore = () => {
    if (!nextCursor) return;
    client.relay
      .list(query(nextCursor))
      .then((page) => {
        setItems((rows) => [...rows, ...page.items.filter((tx) => !rows.some((r) => r.id === tx.id))]);
        setNextCursor(page.nextCursor);
      })
      .catch((err: unknown) => setError(errorText(err)));
  };

  return { items, nextCursor, error, connected, loadMore };
}
