import type { components } from './generated/api';

/** Resource types, straight from the OpenAPI document. */
type Schemas = components['schemas'];
export type SubmitTx = Schemas['SubmitTxDto'];
export type SubmitTxSync = Schemas['SubmitTxSyncDto'];
export type SubmitTxResult = Schemas['SubmitTxResultDto'];
export type SubmitSignedTx = Schemas['SubmitSignedTxDto'];
export type SubmitSignedTxResult = Schemas['SubmitSignedTxResultDto'];
export type RelayQuote = Schemas['QuoteResultDto'];
export type TxRecord = Schemas['TxRecordDto'];
export type TxList = Schemas['TxListDto'];
export type Account = Schemas['AccountViewDto'];
export type Chain = Schemas['ChainViewDto'];
export type Route = Schemas['RouteDto'];
export type SwapTx = Schemas['SwapTxDto'];
export type BestPath = Schemas['BestPathDto'];
export type Token = Schemas['TokenDto'];
export type SwapStatus = Schemas['SwapStatusDto'];
export type GaslessQuote = Schemas['GaslessQuoteDto'];
export type GaslessSwap = Schemas['GaslessSwapDto'];
export type DepositQuote = Schemas['DepositQuoteDto'];
export type WithdrawalQuote = Schemas['WithdrawalQuoteDto'];
export type ExecutePlan = Schemas['ExecutePlanRequestDto'];
export type Order = Schemas['OrderDto'];
export type Position = Schemas['PositionDto'];
export type WebhookRegistration = Schemas['RegisterWebhookDto'];
export type RegisteredWebhooks = Schemas['RegisteredWebhooksDto'];
export type LoginToken = Schemas['LoginTokenDto'];
export type Policy = Schemas['PolicyDto'];
export type PolicyInput = Schemas['PolicyInputDto'];
export type PolicyUsage = Schemas['PolicyUsageDto'];
export type WebhookTestResult = Schemas['WebhookTestResultDto'];
export type ErrorEnvelope = Schemas['ErrorEnvelope'];
export type Funding = Schemas['FundingDto'];
export type FundingDeposit = Schemas['DepositDto'];
export type FundingDepositList = Schemas['DepositListDto'];
export type ChargeAudit = Schemas['ChargeAuditDto'];
export type ChargeAuditRow = Schemas['ChargeAuditRowDto'];
export type TxStatus = TxRecord['status'];

/** Socket.IO `tx.status` event and webhook body (decisions.md "TxNotification"); not part of the HTTP document. */
export interface TxNotification {
  event: 'tx.status';
  txId: string;
  userId: string;
  status: TxStatus;
  previousStatus: TxStatus | null;
  chainId: number;
  executionTxHash: string | null;
  costUSD: number | null;
  retries: number;
  timestamp: string;
  /** The sponsorship policy that sponsored it; null without one. */
  policyId: string | null;
}

export const isFinal = (status: TxStatus): boolean => status === 'EXECUTED' || status === 'FAILED';
