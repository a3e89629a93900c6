import { BrowserProvider, getBytes, verifyMessage, verifyTypedData, Wallet } from 'ethers';
import { createWalletClient, custom } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { formatSiweMessage } from '../../../src/modules/auth/login/siwe-message';
import { permitTypedData, signingTypes } from '../../../src/modules/gasless/domain/permit-typed-data';
import { PlanExecutionService } from '../../../src/modules/vault/domain/plan-execution.service';
import { depositCalls, executeDigest, newExecuteNonce } from '../../../src/modules/vault/domain/settlement-plan';
import { fromEthers, fromViem, RelayClient, type DepositQuote, type ExecutePlan, type GaslessQuote, type WalletSigner } from '../src';

/**
 * The same key behind every kind of wallet the SDK takes: an ethers Wallet, a viem local
 * account, a viem WalletClient on that account, and a viem WalletClient over EIP-1193 (what a
 * browser extension is), whose provider signs with ethers. Each signature is checked with the
 * service's own verification code, no network.
 */
const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const ethersWallet = new Wallet(KEY);
const USER = ethersWallet.address;
const DELEGATE = '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707';
const CHAIN = 31337;

/** An EIP-1193 wallet that, like an extension, signs messages and typed data but has no method for EIP-7702 authorizations. */
function extensionWallet(code: () => string) {
  const calls: string[] = [];
  const request = async ({ method, params }: { method: string; params?: unknown }): Promise<unknown> => {
    calls.push(method);
    const p = Array.isArray(params) ? params : [];
    switch (method) {
      case 'eth_accounts':
      case 'eth_requestAccounts':
        return [USER];
      case 'eth_chainId':
        return `0x${CHAIN.toString(16)}`;
      case 'personal_sign':
        return ethersWallet.signMessage(getBytes(String(p[0])));
      case 'eth_signTypedData_v4': {
        const typed = JSON.parse(String(p[1])) as { domain: Record<string, unknown>; types: Record<string, Array<{ name: string; type: string }>>; message: Record<string, unknown> };
        const { EIP712Domain: _domain, ...types } = typed.types;
        return ethersWallet.signTypedData(typed.domain, types, typed.message);
      }
      case 'eth_getCode':
        return code();
      default:
        throw new Error(`the wallet does not support ${method}`);
    }
  };
  return { client: createWalletClient({ transport: custom({ request }) }), request, calls };
}

const viemAccount = privateKeyToAccount(KEY);
const noNode = async ({ method }: { method: string }): Promise<unknown> => {
  throw new Error(`no node behind this client (${method})`);
};
const viemClient = createWalletClient({ account: viemAccount, transport: custom({ request: noNode }) });

function wallets(code = () => '0x'): Array<[string, WalletSigner]> {
  return [
    ['ethers Wallet', ethersWallet],
    ['viem local account', viemAccount],
    ['viem WalletClient (local account)', viemClient],
    ['viem WalletClient (EIP-1193 extension)', extensionWallet(code).client],
  ];
}

/** A client whose fetch answers wallet login like the service, recording what it was sent. */
function loginStub() {
  const message = formatSiweMessage({
    domain: 'relay.example',
    address: USER,
    statement: 'Sign in to the gas relay.',
    uri: 'https://relay.example',
    chainId: 1,
    nonce: 'n0nce1234567',
    issuedAt: new Date('2026-01-01T00:00:00Z'),
    expirationTime: new Date('2026-01-01T00:05:00Z'),
  });
  const signatures: string[] = [];
  const fetchStub: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const json = (value: unknown) => new Response(JSON.stringify({ code: 200, data: value }), { status: 200, headers: { 'content-type': 'application/json' } });
    if (request.url.endsWith('/api/auth/message')) return json({ message, messageId: 'm1' });
    const { signature } = (await request.json()) as { signature: string };
    signatures.push(signature);
    return json({ token: 'jwt', expiresAt: 0, userId: 'u1', address: USER });
  };
  return { client: new RelayClient({ baseUrl: 'http://relay.test', fetch: fetchStub }), message, signatures };
}

describe('SDK signing: ethers and viem produce what the service accepts', () => {
  it('wallet login: every wallet kind signs the SIWE message; the signature recovers to the address (the service’s check)', async () => {
    const { client, message, signatures } = loginStub();
    for (const [, wallet] of wallets()) await client.auth.login(wallet);
    expect(signatures).toHaveLength(4);
    for (const signature of signatures) expect(verifyMessage(message, signature)).toBe(USER);
    // RFC 6979: the same key signs the same message the same way whatever the library.
    expect(new Set(signatures).size).toBe(1);
  });

  it('gasless: the Permit2 witness typed data signed by each wallet verifies as the service verifies it', async () => {
    const eip712 = permitTypedData({
      chainId: CHAIN,
      permit2: '0x000000000022D473030F116dDEE9F6B43aC78BA3',
      spender: '0xa513E6E4b8f2a923D98304ec87F64353C4D5C853',
      token: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
      amount: '1000000',
      nonce: '7',
      deadline: '1795000000',
      witness: { tokenOut: '0x5FbDB2315678afecb367f032d93F642f64180aa3', minAmountOut: '990000', receiver: USER, feeAmount: '25000' },
    });
    const quote = { eip712 } as unknown as GaslessQuote;
    const client = new RelayClient({ baseUrl: 'http://relay.test' });
    const signatures: string[] = [];
    for (const [, wallet] of wallets()) signatures.push(await client.gasless.sign(quote, wallet));
    for (const signature of signatures) expect(verifyTypedData(eip712.domain, signingTypes(eip712), eip712.message, signature)).toBe(USER);
    expect(new Set(signatures).size).toBe(1);
    // A wrong field changes the digest: the check above can fail.
    const other = { ...eip712, message: { ...eip712.message, nonce: '8' } };
    expect(verifyTypedData(other.domain, signingTypes(other), other.message, signatures[0])).not.toBe(USER);
  });

  describe('vault plans (EIP-7702 authorization + Execute)', () => {
    const calls = depositCalls('0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512', USER.toLowerCase(), [{ venueId: 'v1', vault: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0', amount: '1000000', shareBps: 10_000 } as never]);
    const nonce = newExecuteNonce();
    const deadline = 1_795_000_000;
    const digest = executeDigest(CHAIN, USER, calls, nonce, BigInt(deadline));
    const quote = {
      quoteId: '3f1c2d4e-0000-4000-8000-000000000001',
      txPayload: { authorization: { chainId: CHAIN, address: DELEGATE, nonce: 5 }, executeDigest: digest, calls, executeNonce: nonce.toString(), deadline },
    } as unknown as DepositQuote;

    /** The service's POST /v1/deposits with its stores, relay and chain reads faked; returns the type-4 transaction it would relay. */
    async function serviceAccepts(plan: ExecutePlan, onChain: { nonce: number; code: string }) {
      let relayed: { authorizationList?: unknown[] } | undefined;
      const entity = {
        id: quote.quoteId,
        accountId: 'acc',
        kind: 'deposit',
        userAddress: USER.toLowerCase(),
        chainId: CHAIN,
        asset: calls[0].target,
        amount: '1000000',
        allocation: [{ venueId: 'v1', vault: calls[1].target, amount: '1000000', shareBps: 10_000 }],
        calls,
        executeNonce: nonce.toString(),
        deadline: String(deadline),
        executeDigest: digest,
        expiresAt: new Date(Date.now() + 60_000),
        consumedAt: null,
      };
      const service = new PlanExecutionService(
        { findOfAccount: async () => entity, consume: async () => true } as never,
        { open: async (row: Record<string, unknown>) => ({ id: 'order-1', ...row }) } as never,
        {
          submit: async (s: { tx: { authorizationList?: unknown[] }; within: (em: unknown, tx: { id: string }) => Promise<void> }) => {
            relayed = s.tx;
            await s.within({}, { id: 'relay-tx-1' });
          },
        } as never,
        { get: () => DELEGATE.toLowerCase() } as never,
        { accountNonce: async () => onChain.nonce, code: async () => onChain.code } as never,
        { schedule: async () => undefined } as never,
      );
      const order = await service.execute({ account: { id: 'acc' } } as never, plan as never, {} as never);
      return { order, relayed };
    }

    it('each wallet that holds the key signs the same plan, with an authorization the service accepts', async () => {
      const client = new RelayClient({ baseUrl: 'http://relay.test' });
      const holders: Array<[string, WalletSigner]> = [
        ['ethers Wallet', ethersWallet],
        ['viem local account', viemAccount],
        ['viem WalletClient (local account)', viemClient],
      ];
      const plans: ExecutePlan[] = [];
      for (const [, wallet] of holders) plans.push(await client.vault.sign(quote, wallet));
      expect(plans[1]).toEqual(plans[0]);
      expect(plans[2]).toEqual(plans[0]);
      expect(plans[0].authorization).toMatchObject({ chainId: CHAIN, address: DELEGATE, nonce: 5 });
      const { order, relayed } = await serviceAccepts(plans[0], { nonce: 5, code: '0x' });
      expect(order).toMatchObject({ orderId: 'order-1', status: 'relaying', relayTxId: 'relay-tx-1' });
      expect(relayed?.authorizationList).toHaveLength(1);
      // The service's checks can refuse: a stale nonce is refused with the same signature.
      await expect(serviceAccepts(plans[0], { nonce: 6, code: '0x' })).rejects.toThrow(/nonce must be the EOA's current nonce 6/);
    });

    it('a browser (EIP-1193) wallet signs the Execute message of a delegated EOA, and refuses plainly when an authorization is needed', async () => {
      const client = new RelayClient({ baseUrl: 'http://relay.test' });
      const delegated = extensionWallet(() => `0xef0100${DELEGATE.slice(2).toLowerCase()}`);
      const plan = await client.vault.sign(quote, delegated.client);
      expect(plan.authorization).toBeUndefined();
      expect(delegated.calls).toEqual(expect.arrayContaining(['eth_getCode', 'eth_signTypedData_v4']));
      const { relayed } = await serviceAccepts(plan, { nonce: 5, code: `0xef0100${DELEGATE.slice(2).toLowerCase()}` });
      expect(relayed?.authorizationList).toBeUndefined();

      const fresh = extensionWallet(() => '0x');
      await expect(client.vault.sign(quote, fresh.client)).rejects.toThrow(/needs an EIP-7702 authorization, and this viem wallet cannot sign one/);
      // ethers' JsonRpcSigner (a browser wallet through BrowserProvider) has `authorize` but cannot sign one either.
      const provider = new BrowserProvider({ request: extensionWallet(() => '0x').request });
      const jsonRpcSigner = await provider.getSigner(USER);
      await expect(client.vault.sign(quote, jsonRpcSigner)).rejects.toThrow(/needs an EIP-7702 authorization, and this ethers wallet cannot sign one \(authorization not implemented/);
    });

    it('a publicClient tells a local account that the EOA already delegates (no authorization signed)', async () => {
      const client = new RelayClient({ baseUrl: 'http://relay.test' });
      const plan = await client.vault.sign(quote, viemAccount, { publicClient: { getCode: async () => `0xef0100${DELEGATE.slice(2)}` } });
      expect(plan.authorization).toBeUndefined();
      expect((await client.vault.sign(quote, fromEthers(ethersWallet))).authorization).toBeDefined();
      expect((await client.vault.sign(quote, fromViem(viemAccount))).authorization).toEqual((await client.vault.sign(quote, ethersWallet)).authorization);
    });

    it('refuses to sign a plan whose executeDigest is not its Execute message', async () => {
      const client = new RelayClient({ baseUrl: 'http://relay.test' });
      const forged = { ...quote, txPayload: { ...quote.txPayload, executeNonce: (nonce + 1n).toString() } } as DepositQuote;
      for (const [, wallet] of wallets()) await expect(client.vault.sign(forged, wallet)).rejects.toThrow(/is not the Execute message/);
    });
  });
});
