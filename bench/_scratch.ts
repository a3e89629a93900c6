import { HDNodeWallet, Interface, JsonRpcProvider, Mnemonic, Wallet } from 'ethers';
import { bringUpDevnet } from '../scripts/devnet';
import { ANVIL_MNEMONIC } from '../scripts/devnet/accounts';
import { join } from 'node:path';
const erc20 = new Interface(['function mint(address to, uint256 amount)']);
const mintCall = (): string => erc20.encodeFunctionData('mint', ['0x' + randomBytes(20).toString('hex'), 1_000n]);
import { randomBytes } from 'node:crypto';
const now = () => performance.now();
async function main() {
  const devnet = await bringUpDevnet({ chains: [{ chainId: 31337, name: 'Devnet', port: 28545 }], stateDir: join(__dirname, '..', '.local', 'bench') });
  try {
    const chain = devnet.chains[0];
    const usdc = chain.tokens.find((t) => t.symbol === 'USDC')!.address;
    const provider = new JsonRpcProvider(chain.rpcUrl, 31337, { staticNetwork: true, batchMaxCount: 1 });
    const m = Mnemonic.fromPhrase(ANVIL_MNEMONIC);
    const wallets = Array.from({ length: 8 }, (_, i) => new Wallet(HDNodeWallet.fromMnemonic(m, `m/44'/60'/0'/0/${i}`).privateKey, provider));
    const fee = await provider.getFeeData();
    const gas = await provider.estimateGas({ from: wallets[0].address, to: usdc, data: mintCall() });
    // sign timing
    let t = now();
    for (let i = 0; i < 50; i++) await wallets[0].signTransaction({ type: 2, chainId: 31337, nonce: i, to: usdc, data: mintCall(), gasLimit: gas, maxFeePerGas: fee.maxFeePerGas! * 2n, maxPriorityFeePerGas: fee.maxPriorityFeePerGas! });
    console.log('sign ms', (now() - t) / 50);
    // sequential send+receipt
    let nonce = await provider.getTransactionCount(wallets[1].address, 'pending');
    const lat: number[] = []; const rlat: number[] = [];
    for (let i = 0; i < 30; i++) {
      const raw = await wallets[1].signTransaction({ type: 2, chainId: 31337, nonce: nonce++, to: usdc, data: mintCall(), gasLimit: gas * 2n, maxFeePerGas: fee.maxFeePerGas! * 2n, maxPriorityFeePerGas: fee.maxPriorityFeePerGas! });
      t = now();
      const hash = await provider.send('eth_sendRawTransaction', [raw]);
      lat.push(now() - t);
      let polls = 0;
      while (!(await provider.send('eth_getTransactionReceipt', [hash]))) { polls++; await new Promise((r) => setTimeout(r, 1)); }
      rlat.push(now() - t);
      if (i < 5) console.log('polls', polls);
    }
    lat.sort((a, b) => a - b); rlat.sort((a, b) => a - b);
    console.log('send p50', lat[15], 'receipt p50', rlat[15], 'p max', rlat[29]);
    for (const c of [1, 8, 32]) {
      const nonces = await Promise.all(wallets.map((w) => provider.getTransactionCount(w.address, 'pending')));
      const N = 300; let next = 0;
      t = now();
      await Promise.all(Array.from({ length: c }, async () => {
        for (;;) { const i = next++; if (i >= N) return; const w = i % 8; const raw = await wallets[w].signTransaction({ type: 2, chainId: 31337, nonce: nonces[w]++, to: usdc, data: mintCall(), gasLimit: gas * 2n, maxFeePerGas: fee.maxFeePerGas! * 2n, maxPriorityFeePerGas: fee.maxPriorityFeePerGas! });
          const hash = await provider.send('eth_sendRawTransaction', [raw]);
          while (!(await provider.send('eth_getTransactionReceipt', [hash]))) await new Promise((r) => setTimeout(r, 20)); }
      }));
      console.log(`c=${c}`, (N / (now() - t)) * 1000, 'tx/s', 'block', await provider.getBlockNumber());
    }
  } finally { await devnet.stop(); }
}
main().catch((e) => { console.error(e); process.exit(1); });
