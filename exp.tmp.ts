import { Contract, Interface, JsonRpcProvider, Wallet, TypedDataEncoder, toQuantity, parseUnits } from 'ethers';
import { bringUpDevnet } from './scripts/devnet';
async function main() {
  const t0 = Date.now();
  const devnet = await bringUpDevnet({ chains: [{ chainId: 31337, name: 'Devnet', port: 48545 }], stateDir: '/tmp/vexp', log: console.log });
  console.log('up', Date.now() - t0);
  const c = devnet.chains[0];
  const p = new JsonRpcProvider(c.rpcUrl, 31337, { staticNetwork: true });
  const vault = new Contract(c.contracts['vault:usdc-steady'], ['function totalAssets() view returns (uint256)', 'function convertToAssets(uint256) view returns (uint256)', 'function maxDeposit(address) view returns (uint256)', 'function paused() view returns (bool)'], p);
  const b = await p.getBlock('latest');
  console.log('block', b!.number, b!.timestamp, Math.floor(Date.now() / 1000), await vault.totalAssets());
  await new Promise((r) => setTimeout(r, 2100));
  console.log('latest call after 2s no block', await vault.totalAssets(), 'pending:', await p.call({ to: vault.target as string, data: vault.interface.encodeFunctionData('totalAssets'), blockTag: 'pending' }));
  await p.send('evm_mine', []);
  const b2 = await p.getBlock('latest');
  console.log('after mine', b2!.number, b2!.timestamp, await vault.totalAssets());
  const full = new Contract(c.contracts['vault:usdc-full'], vault.interface, p);
  const paused = new Contract(c.contracts['vault:usdc-paused'], vault.interface, p);
  console.log('full maxDeposit', await full.maxDeposit(c.contracts.weth), 'paused', await paused.paused());
  // 7702 estimate
  const user = Wallet.createRandom();
  const usdc = c.tokens.find((x) => x.symbol === 'USDC')!.address;
  const minter = new Wallet('0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6', p);
  const erc = new Interface(['function mint(address,uint256)', 'function approve(address,uint256)']);
  await (await minter.sendTransaction({ to: usdc, data: erc.encodeFunctionData('mint', [user.address, 1000000n]) })).wait();
  const viface = new Interface(['function deposit(uint256,address) returns (uint256)']);
  const calls = [{ target: usdc, value: 0n, data: erc.encodeFunctionData('approve', [vault.target, 1000000n]) }, { target: vault.target as string, value: 0n, data: viface.encodeFunctionData('deposit', [1000000n, user.address]) }];
  const deadline = BigInt(Math.floor(Date.now() / 1000) + 600);
  const nonce = 12345n;
  const types = { Execute: [{ name: 'calls', type: 'Call[]' }, { name: 'nonce', type: 'uint256' }, { name: 'deadline', type: 'uint256' }], Call: [{ name: 'target', type: 'address' }, { name: 'value', type: 'uint256' }, { name: 'data', type: 'bytes' }] };
  const domain = { name: 'SettlementDelegate', version: '1', chainId: 31337, verifyingContract: user.address };
  const sig = await user.signTypedData(domain, types, { calls, nonce, deadline });
  const d = new Interface(['function execute((address target,uint256 value,bytes data)[] calls,uint256 nonce,uint256 deadline,bytes signature)', 'function executeDigest((address target,uint256 value,bytes data)[] calls,uint256 nonce,uint256 deadline) view returns (bytes32)']);
  const data = d.encodeFunctionData('execute', [calls, nonce, deadline, sig]);
  const auth = await user.authorize({ address: c.contracts.settlementDelegate, nonce: 0n, chainId: 31337n });
  const rpcAuth = { chainId: '0x7a69', address: c.contracts.settlementDelegate, nonce: '0x0', yParity: toQuantity(auth.signature.yParity), r: auth.signature.r, s: auth.signature.s };
  const from = minter.address;
  try { console.log('estimate with auth', await p.send('eth_estimateGas', [{ from, to: user.address, data, authorizationList: [rpcAuth] }, 'latest'])); } catch (e) { console.log('est err', (e as Error).message.slice(0, 300)); }
  try { console.log('call with auth', await p.send('eth_call', [{ from, to: user.address, data, authorizationList: [rpcAuth] }, 'latest'])); } catch (e) { console.log('call err', (e as Error).message.slice(0, 300)); }
  console.log('estimate without auth', await p.send('eth_estimateGas', [{ from, to: user.address, data }, 'latest']));
  const digestTs = TypedDataEncoder.hash(domain, types, { calls, nonce, deadline });
  const tx = await minter.sendTransaction({ to: user.address, data, authorizationList: [auth], type: 4, gasLimit: 500000 });
  const rc = await tx.wait();
  console.log('status', rc!.status, 'gas', rc!.gasUsed, 'code', await p.getCode(user.address));
  const asDelegate = new Contract(user.address, d, p);
  console.log('digest match', (await asDelegate.executeDigest(calls, nonce, deadline)) === digestTs);
  await devnet.stop();
}
main().catch((e) => { console.error(e); process.exit(1); });
