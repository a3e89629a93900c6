import { AppError } from '../../../common/errors/app-error';
import { normalizeAddress } from '../../../common/evm/address';
import { type Account, selectorOf, targetAllowed } from '../../accounts';

/**
 * The account's allowedTargets (extensions.md, "Account policy") for a call it submits itself:
 * `to` and the first 4 bytes of the call data, on the chain, and every EIP-7702 delegate of
 * `authorizationList` (by address and chain; a delegation runs any method of the delegate, so
 * selectors do not apply to it). Checked before anything is estimated or reserved; features
 * relaying on the account's behalf (gasless, vault) skip it.
 */
export function checkAllowedTarget(
  account: Account,
  call: { chainId: number; to?: string | null; callData?: string | null; authorizationList?: ReadonlyArray<{ address: string }> | null },
): void {
  if (account.allowedTargets.length === 0) return;
  if (!call.to) throw new AppError('TRANSACTION_007', "contract creation is not in the account's allowedTargets");
  const callData = call.callData ?? '0x';
  const listed = (address: string) => account.allowedTargets.some((t) => t.address === address && (t.chainId === undefined || t.chainId === call.chainId));
  if (!targetAllowed(account.allowedTargets, { chainId: call.chainId, to: call.to, callData })) {
    const selector = selectorOf(callData);
    throw new AppError(
      'TRANSACTION_007',
      listed(call.to.toLowerCase())
        ? `method ${selector ?? '(none: no 4-byte selector)'} of ${call.to} is not in the account's allowedTargets`
        : `target ${call.to} on chain ${call.chainId} is not in the account's allowedTargets`,
    );
  }
  (call.authorizationList ?? []).forEach((auth, i) => {
    // Not an address at all: the request's own validation refuses it (400) right after.
    const delegate = normalizeAddress(auth.address);
    if (delegate && !listed(delegate)) {
      throw new AppError('TRANSACTION_007', `authorizationList[${i}].address ${delegate} (an EIP-7702 delegate) on chain ${call.chainId} is not in the account's allowedTargets`);
    }
  });
}
