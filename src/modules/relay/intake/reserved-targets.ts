import { Injectable } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import { normalizeAddress } from '../../../common/evm/address';
import { AppConfig } from '../../../config/app-config';
import { ChainRegistry } from '../../chains';
import { SignerPool } from '../core/signer-pool.service';

/** Permit2's address wherever it is deployed (CREATE2, same on every chain). */
const CANONICAL_PERMIT2 = '0x000000000022d473030f116ddee9f6b43ac78ba3';

/**
 * The chains file's `contracts` entries that are the service's own (or that its flows give
 * authority to): gasless settler, swap executor, EIP-7702 settlement delegate, Permit2, bridge spoke.
 */
const OWN_CONTRACTS: Readonly<Record<string, string>> = {
  gaslessSettler: "the relay's own gasless settler",
  swapExecutor: "the relay's own swap executor",
  settlementDelegate: "the relay's own settlement delegate",
  permit2: 'Permit2',
  bridgeSpoke: "the relay's own bridge spoke",
};

/**
 * What a team's own submission may not reach (docs/security.md, "What team submissions may
 * target"): the relayer keys sign every team's calldata, so a call from them to a contract that
 * trusts them, to Permit2, to the treasury or to a relayer key itself, or a delegation to one of
 * those contracts, would borrow the service's authority. Refused as `to` and as an EIP-7702
 * delegate before anything is estimated or reserved; the service's own features (gasless, vault)
 * relay to these contracts through SubmissionService with an origin and are not checked here.
 */
@Injectable()
export class ReservedTargets {
  private readonly keys = new Map<string, string>();
  private readonly perChain = new Map<number, Map<string, string>>();

  constructor(
    private readonly config: AppConfig,
    private readonly chains: ChainRegistry,
    private readonly signers: SignerPool,
  ) {
    for (const address of signers.poolAddresses()) this.keys.set(address.toLowerCase(), 'a relayer key');
    const treasury = signers.treasury()?.address.toLowerCase() ?? null;
    if (treasury && this.keys.has(treasury)) {
      // The treasury would then sign team calldata as a pool key. A pool path is refused earlier by
      // the config's key separation; this catches a RELAYER_TREASURY_KEY that is a pool key.
      const variable = config.RELAYER_SIGNER === 'pkcs11' ? 'PKCS11 relayer-treasury' : config.RELAYER_TREASURY_KEY ? 'RELAYER_TREASURY_KEY' : 'RELAYER_TREASURY_PATH';
      throw new Error(`Invalid configuration:\n  ${variable}: the treasury ${treasury} is one of the relayer pool keys; use a key apart from the relayer pool`);
    }
    if (treasury) this.keys.set(treasury, "the relay's treasury");
  }

  /** TRANSACTION_007 when `to` or a delegate of `authorizationList` is reserved on the chain. */
  refuse(chainId: number, call: { to?: string | null; authorizationList?: ReadonlyArray<{ address: string }> | null }): void {
    const reserved = this.of(chainId);
    const to = normalizeAddress(call.to);
    const role = to ? (reserved.get(to) ?? this.joined(to)) : undefined;
    if (to && role) throw new AppError('TRANSACTION_007', `target ${to} is ${role} on chain ${chainId}: team submissions may not call the relay's own contracts, Permit2, the treasury or a relayer key`);
    (call.authorizationList ?? []).forEach((auth, i) => {
      const delegate = normalizeAddress(auth.address);
      const delegateRole = delegate ? (reserved.get(delegate) ?? this.joined(delegate)) : undefined;
      if (delegate && delegateRole) {
        throw new AppError('TRANSACTION_007', `authorizationList[${i}].address ${delegate} is ${delegateRole} on chain ${chainId}: an EIP-7702 delegation may not point at the relay's own contracts, Permit2, the treasury or a relayer key`);
      }
    });
  }

  /** A relayer key that joined the pool after startup (a token's new label). */
  private joined(address: string): string | undefined {
    return this.signers.byAddress(address) ? 'a relayer key' : undefined;
  }

  private of(chainId: number): Map<string, string> {
    let reserved = this.perChain.get(chainId);
    if (reserved) return reserved;
    reserved = new Map([[CANONICAL_PERMIT2, 'Permit2']]);
    const contracts = this.chains.get(chainId).contracts ?? {};
    for (const [key, role] of Object.entries(OWN_CONTRACTS)) {
      const address = normalizeAddress(contracts[key]);
      if (address) reserved.set(address, role);
    }
    const delegate = normalizeAddress(this.config.SETTLEMENT_DELEGATES[chainId]);
    if (delegate) reserved.set(delegate, OWN_CONTRACTS.settlementDelegate);
    for (const [address, role] of this.keys) reserved.set(address, role);
    this.perChain.set(chainId, reserved);
    return reserved;
  }
}

