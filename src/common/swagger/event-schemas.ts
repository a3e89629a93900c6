import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EX } from './examples';

/**
 * The bodies the service pushes rather than answers: webhook POSTs and Socket.IO `/tx` events.
 * They are component schemas of the OpenAPI document (so openapi-typescript types them for the
 * SDK) and are listed under `x-webhooks` and `x-socket-events` (docs/decisions.md, "OpenAPI
 * examples, servers, 429 headers and event schemas"). test/openapi-events.e2e-spec.ts validates
 * real deliveries and socket events against them, so these classes follow the code that builds
 * the bodies (tx-events/tx-notification.ts, tx-events/account-event.ts, webhook-test.service.ts,
 * relay/intake/approval-gate.ts, events/socket/tx-socket.events.ts), not the other way round.
 */
const TX_STATUSES = ['PENDING', 'EXECUTED', 'FAILED'];
const FAILURE_REASONS = ['reverted', 'simulation_reverted', 'expired', 'cancelled', 'not_sent', 'exchange_rejected'];
const nullableTime = (description: string) => ({ type: String, format: 'date-time', nullable: true, description, example: EX.timestamp });

export class TxEventStagesDto {
  @ApiProperty({ format: 'date-time', description: 'accepted: reserved and queued', example: '2026-11-23T11:59:57.860Z' }) acceptedAt: string;
  @ApiProperty(nullableTime('signed with its nonce')) signedAt: string | null;
  @ApiProperty(nullableTime('a node accepted it')) broadcastAt: string | null;
  @ApiProperty(nullableTime('its block was seen')) minedAt: string | null;
  @ApiProperty(nullableTime('terminal status written and the cost settled')) settledAt: string | null;
}

/** `tx.status`: one per status change of a transaction, to the account's webhooks and the `/tx` socket rooms of the account and the transaction. */
export class TxStatusEventDto {
  @ApiProperty({ enum: ['tx.status'] }) event: 'tx.status';
  @ApiProperty({ format: 'uuid', example: EX.txId }) txId: string;
  @ApiProperty({ format: 'uuid', example: EX.userId }) userId: string;
  @ApiProperty({ enum: TX_STATUSES, example: 'EXECUTED' }) status: string;
  @ApiProperty({ enum: TX_STATUSES, nullable: true, example: 'PENDING', description: 'null on the first event (acceptance)' }) previousStatus: string | null;
  @ApiProperty({ example: EX.chainId }) chainId: number;
  @ApiProperty({ type: String, nullable: true, example: EX.txHash }) executionTxHash: string | null;
  @ApiProperty({ type: Number, nullable: true, example: 0.063, description: 'USD; null until settled' }) costUSD: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 3000, description: 'the native USD price the settled cost was converted at' }) nativePriceUsd: number | null;
  @ApiProperty({ example: 0 }) retries: number;
  @ApiProperty({ format: 'date-time', example: EX.timestamp }) timestamp: string;
  @ApiProperty({ enum: FAILURE_REASONS, nullable: true, example: 'reverted', description: 'null unless FAILED' }) failureReason: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Error(insufficient allowance)', description: 'null unless FAILED' }) revertReason: string | null;
  @ApiProperty({ type: TxEventStagesDto }) stages: TxEventStagesDto;
  @ApiProperty({ type: String, nullable: true, example: EX.policyId }) policyId: string | null;
}

/** `account.low_balance`: availableBalance fell below the account's lowBalanceThresholdUsd. */
export class AccountLowBalanceEventDto {
  @ApiProperty({ enum: ['account.low_balance'] }) event: 'account.low_balance';
  @ApiProperty({ format: 'uuid', example: EX.userId }) userId: string;
  @ApiProperty({ example: 18.4, description: 'USD' }) availableBalance: number;
  @ApiProperty({ example: 20, description: 'USD' }) threshold: number;
  @ApiProperty({ format: 'date-time', example: EX.timestamp }) timestamp: string;
}

/** `account.deposit`: a transfer to the account's deposit address was credited at its depth. */
export class AccountDepositEventDto {
  @ApiProperty({ enum: ['account.deposit'] }) event: 'account.deposit';
  @ApiProperty({ format: 'uuid', example: EX.userId }) userId: string;
  @ApiProperty({ example: EX.chainId }) chainId: number;
  @ApiProperty({ example: EX.txHash }) txHash: string;
  @ApiProperty({ example: EX.token, description: 'the token address; the zero address for the native currency' }) token: string;
  @ApiProperty({ example: '25000000', description: "in the token's smallest unit" }) amount: string;
  @ApiProperty({ example: 25, description: 'USD' }) creditedUsd: number;
  @ApiProperty({ format: 'date-time', example: EX.timestamp }) timestamp: string;
}

/** `webhook.test`: sent by POST /api/webhooks/test. */
export class WebhookTestEventDto {
  @ApiProperty({ enum: ['webhook.test'] }) event: 'webhook.test';
  @ApiProperty({ format: 'uuid', example: EX.userId }) userId: string;
  @ApiProperty({ format: 'date-time', example: EX.timestamp }) timestamp: string;
}

export class ApprovalAuthorizationDto {
  @ApiProperty({ example: EX.chainId }) chainId: number;
  @ApiProperty({ example: EX.contract }) address: string;
  @ApiProperty({ example: 0 }) nonce: number;
  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'integer' }], example: '0x0' }) yParity: string | number;
  @ApiProperty({ example: EX.r }) r: string;
  @ApiProperty({ example: EX.s }) s: string;
}

/** `sponsorship.request`: asked of the account's approval webhook before a submission is accepted; answer 2xx `{"approve": true}`. */
export class SponsorshipRequestEventDto {
  @ApiProperty({ enum: ['sponsorship.request'] }) event: 'sponsorship.request';
  @ApiProperty({ format: 'uuid', example: EX.userId }) userId: string;
  @ApiProperty({ example: EX.chainId }) chainId: number;
  @ApiProperty({ type: String, nullable: true, example: EX.contract }) to: string | null;
  @ApiProperty({ example: EX.callData }) callData: string;
  @ApiProperty({ type: String, nullable: true, example: '0' }) value: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'checkout' }) label: string | null;
  @ApiProperty({ type: String, nullable: true, example: "m/44'/60'/0'/0/7" }) derivationPath: string | null;
  @ApiProperty({ example: 0.063, description: 'USD, worst case' }) estimatedCostUSD: number;
  @ApiProperty({ type: [ApprovalAuthorizationDto], nullable: true }) authorizationList: ApprovalAuthorizationDto[] | null;
  @ApiProperty({ type: String, nullable: true, example: '21000' }) gasLimit: string | null;
  @ApiProperty({ type: String, nullable: true, example: '1500000000' }) maxFeePerGas: string | null;
  @ApiProperty({ type: String, nullable: true, example: '100000000' }) maxPriorityFeePerGas: string | null;
  @ApiProperty({ type: String, nullable: true, example: '1200000000' }) gasPrice: string | null;
}

/** The answer the approval webhook must give. */
export class SponsorshipApprovalDto {
  @ApiProperty({ example: true, description: 'only true approves; anything else, a non-2xx or no answer within APPROVAL_TIMEOUT_MS refuses (403 TRANSACTION_008)' })
  approve: boolean;
}

/** `subscribe` (client to server on `/tx`): `{all: true}` for the account's room, or `{txId}` for one of its transactions. */
export class SocketSubscribeDto {
  @ApiPropertyOptional({ example: true, description: "every event of the account's transactions and account events" }) all?: boolean;
  @ApiPropertyOptional({ format: 'uuid', example: EX.txId, description: 'one transaction of the account' }) txId?: string;
}

export class SocketErrorDto {
  @ApiProperty({ example: 'AUTH_002', description: 'catalog code' }) code: string;
  @ApiProperty({ example: 'invalid API key' }) message: string;
}

/** The acknowledgement of `subscribe`. */
export class SocketSubscribeAckDto {
  @ApiProperty({ example: true }) ok: boolean;
  @ApiPropertyOptional({ type: SocketErrorDto, description: 'present when ok is false' }) error?: SocketErrorDto;
}

export const EVENT_SCHEMAS = [
  TxStatusEventDto,
  AccountLowBalanceEventDto,
  AccountDepositEventDto,
  WebhookTestEventDto,
  SponsorshipRequestEventDto,
  SponsorshipApprovalDto,
  SocketSubscribeDto,
  SocketSubscribeAckDto,
  SocketErrorDto,
];

const ref = (model: { name: string }) => ({ $ref: `#/components/schemas/${model.name}` });
const SIGNATURE_HEADERS = {
  'webhook-id': { description: 'unique id of the message (the same on every retry of it)', schema: { type: 'string', example: 'msg_2b7c9d1e4f6a' } },
  'webhook-timestamp': { description: 'Unix seconds when it was signed', schema: { type: 'string', example: '1795435200' } },
  'webhook-signature': {
    description: 'Standard Webhooks: `v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>`, space-separated while a secret rotates',
    schema: { type: 'string', example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=' },
  },
};

function webhook(summary: string, model: { name: string }, answer: string, answerSchema?: { name: string }) {
  return {
    post: {
      summary,
      parameters: Object.entries(SIGNATURE_HEADERS).map(([name, h]) => ({ name, in: 'header', required: true, ...h })),
      requestBody: { required: true, content: { 'application/json': { schema: ref(model) } } },
      responses: { '2XX': { description: answer, ...(answerSchema ? { content: { 'application/json': { schema: ref(answerSchema) } } } : {}) } },
    },
  };
}

/**
 * `x-webhooks`: the OpenAPI 3.1 `webhooks` object in a 3.0 document (the shape Redoc reads), one
 * entry per event, each the POST the service makes to a registered URL.
 */
export const X_WEBHOOKS = {
  'tx.status': webhook("A transaction's status changed", TxStatusEventDto, 'delivered; anything else is retried (WEBHOOK_RETRY_SCHEDULE_MS) and then dead-lettered'),
  'account.low_balance': webhook('availableBalance fell below lowBalanceThresholdUsd', AccountLowBalanceEventDto, 'delivered'),
  'account.deposit': webhook('A deposit was credited', AccountDepositEventDto, 'delivered'),
  'webhook.test': webhook('POST /api/webhooks/test', WebhookTestEventDto, 'reported back as the status of that URL'),
  'sponsorship.request': webhook('Approval webhook: may this submission be sponsored?', SponsorshipRequestEventDto, 'approves only with {"approve": true}', SponsorshipApprovalDto),
};

/** `x-socket-events`: the Socket.IO namespace `/tx` (path /socket.io), what the server emits and what it accepts. */
export const X_SOCKET_EVENTS = {
  namespace: '/tx',
  path: '/socket.io',
  auth: 'handshake `auth: {apiKey}` or `auth: {token}` (wallet-login JWT); refused connections get `error` and are disconnected',
  serverEvents: {
    'tx.status': ref(TxStatusEventDto),
    'account.low_balance': ref(AccountLowBalanceEventDto),
    'account.deposit': ref(AccountDepositEventDto),
    error: ref(SocketErrorDto),
  },
  clientEvents: {
    subscribe: { payload: ref(SocketSubscribeDto), ack: ref(SocketSubscribeAckDto) },
  },
};
