import { existsSync, readFileSync } from 'node:fs';
import { writeSecretFile } from './secret-file';
import { Wallet } from 'ethers';

/** anvil's default mnemonic, account #1: a funded wallet everyone running the stack can use. */
const DEMO_PRIVATE_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
/** The demo account's address (anvil account 1); the local stack charges the bridge's own transactions to it. */
export const DEMO_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const DEMO_CREDIT_USD = 1000;

export interface DemoAccount {
  address: string;
  privateKey: string;
  apiKey: string;
  userId: string;
}

async function admin(apiUrl: string, token: string, method: string, path: string, body?: unknown): Promise<{ status: number; data: Record<string, unknown> }> {
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data?: Record<string, unknown> };
  return { status: res.status, data: json.data ?? {} };
}

/**
 * Creates the demo account once (the API key is shown once, so it is kept in stateFile) and
 * keeps its balance topped up. Survives restarts of the stack with the same database.
 */
export async function seedDemoAccount(apiUrl: string, adminToken: string, stateFile: string): Promise<DemoAccount> {
  const wallet = new Wallet(DEMO_PRIVATE_KEY);
  const address = wallet.address;
  const saved = existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as Partial<DemoAccount>) : {};

  const existing = await admin(apiUrl, adminToken, 'GET', `/admin/accounts/${address}`);
  let userId: string;
  let apiKey: string;
  if (existing.status === 404) {
    const created = await admin(apiUrl, adminToken, 'POST', '/admin/accounts', { address, creditUsd: DEMO_CREDIT_USD });
    if (created.status !== 201) throw new Error(`could not create the demo account (HTTP ${created.status})`);
    userId = String(created.data.userId);
    apiKey = String(created.data.apiKey);
  } else if (existing.status === 200) {
    userId = String(existing.data.userId);
    if (saved.apiKey && saved.userId === userId) {
      apiKey = saved.apiKey;
    } else {
      const issued = await admin(apiUrl, adminToken, 'POST', `/admin/accounts/${address}/keys`);
      apiKey = String(issued.data.apiKey);
    }
    if (Number(existing.data.availableBalance) < DEMO_CREDIT_USD / 10) {
      await admin(apiUrl, adminToken, 'POST', `/admin/accounts/${address}/credit`, { usd: DEMO_CREDIT_USD });
    }
  } else {
    throw new Error(`admin API answered HTTP ${existing.status} for the demo account`);
  }
  const demo = { address, privateKey: DEMO_PRIVATE_KEY, apiKey, userId };
  writeSecretFile(stateFile, JSON.stringify(demo, null, 2));
  return demo;
}
