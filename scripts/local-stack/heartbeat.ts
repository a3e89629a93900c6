/**
 * The local chains mine a block per transaction and nothing in between; a real chain's clock
 * keeps moving. An empty block every few seconds lets time-based state advance while the stack
 * is idle (vault yields accrue, share-price samples differ, so APYs exist); transactions are
 * still mined on arrival. Only while the chain automines: a client that switched automine off
 * (to hold a transaction unmined for cancel, speed-up or expiry) decides when blocks come.
 */
export function startHeartbeat(rpcUrls: string[], everySec: number): NodeJS.Timeout | undefined {
  if (!(everySec > 0)) return undefined;
  const timer = setInterval(() => {
    for (const url of rpcUrls) void heartbeat(url).catch(() => undefined);
  }, everySec * 1000);
  timer.unref();
  return timer;
}

async function rpc(url: string, method: string): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }) });
  return ((await res.json()) as { result?: unknown }).result;
}

/** One empty block, only when the chain automines (`anvil_getAutomine`). */
export async function heartbeat(url: string): Promise<boolean> {
  if ((await rpc(url, 'anvil_getAutomine')) !== true) return false;
  await rpc(url, 'evm_mine');
  return true;
}
