import { AppError } from '../../../common/errors/app-error';
import { AccountEntity, selectorOf, targetAllowed } from '../../accounts';

/**
 * The account's allowedTargets (extensions.md, "Account policy") for a call it submits itself:
 * `to` and the first 4 bytes of the call data, on the chain. Checked before anything is
 * estimated or reserved; features relaying on the account's behalf (gasless, vault) skip it.
 */
export function checkAllowedTarget(account: AccountEntity, call: { chainId: number; to?: string | null; callData?: string | null }): void {
  if (account.allowedTargets.length === 0) return;
  if (!call.to) throw new AppError('TRANSACTION_007', "contract creation is not in the account's allowedTargets");
  const callData = call.callData ?? '0x';
  if (targetAllowed(account.allowedTargets, { chainId: call.chainId, to: call.to, callData })) return;
  const selector = selectorOf(callData);
  const onTarget = account.allowedTargets.some((t) => t.address === call.to!.toLowerCase() && (t.chainId === undefined || t.chainId === call.chainId));
  throw new AppError(
    'TRANSACTION_007',
    onTarget
      ? `method ${selector ?? '(none: no 4-byte selector)'} of ${call.to} is not in the account's allowedTargets`
      : `target ${call.to} on chain ${call.chainId} is not in the account's allowedTargets`,
  );
}
