/**
 * The SDK in a browser, bundled by Vite: public reads, wallet login with a viem wallet, then the
 * account's transactions with the session JWT. No API key ever reaches the page.
 *
 * Query parameters: `api` (the relay's base URL, default http://localhost:3000) and, with no
 * injected wallet, `key` (a private key for a throwaway viem local account; a random one
 * otherwise). With a browser wallet (window.ethereum) the page signs through it instead.
 */
import { RelayApiError, RelayClient, type WalletSigner } from '@gas-relay/sdk';
import { createWalletClient, custom, isHex, type EIP1193Provider } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

declare global {
  interface Window {
    ethereum?: EIP1193Provider;
  }
}

const params = new URLSearchParams(window.location.search);
const client = new RelayClient({ baseUrl: params.get('api') ?? 'http://localhost:3000' });

function byTestId(id: string): HTMLElement {
  const element = document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
  if (!element) throw new Error(`no [data-testid=${id}] on the page`);
  return element;
}

/** Login and gasless signing work with any wallet; a first vault deposit needs one that signs EIP-7702 authorizations (a local account). */
function wallet(): WalletSigner {
  if (window.ethereum) return createWalletClient({ transport: custom(window.ethereum) });
  const key = params.get('key');
  return privateKeyToAccount(key !== null && isHex(key) ? key : generatePrivateKey());
}

async function main(): Promise<void> {
  const status = byTestId('status');
  const chains = await client.chains();
  byTestId('chains').replaceChildren(
    ...chains.map((chain) => {
      const item = document.createElement('li');
      item.textContent = `${chain.name} (${chain.id})`;
      return item;
    }),
  );
  status.textContent = 'Signing in…';
  const login = await client.auth.login(wallet());
  const session = client.withCredentials({ jwt: login.token });
  const txs = await session.relay.list({ limit: 5 });
  status.textContent = 'Done';
  byTestId('result').textContent = `Signed in as ${login.address}: ${chains.length} chains, ${txs.items.length} recent transactions`;
}

main().catch((err: unknown) => {
  const result = byTestId('result');
  result.className = 'error';
  result.textContent = err instanceof RelayApiError ? `${err.code ?? err.status}: ${err.message}` : String(err);
});
