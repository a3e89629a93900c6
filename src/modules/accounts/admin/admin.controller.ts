import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiContract } from '../../../common/swagger/api-contract';
import { AccountView, toAccountView } from '../domain/account-view';
import { AccountsService } from '../domain/accounts.service';
import { LedgerService } from '../domain/ledger.service';
import { AccountViewDto } from '../dto/account-view.dto';
import { AccountAuditDto, AccountLimitsDto, AccountListQueryDto, CreateAccountDto, CreatedAccountDto, CreatedKeyDto, CreditDto, KeyRateLimitDto, RevokedKeyDto, RevokeKeyDto } from '../dto/admin.dto';
import { AdminApi } from './admin-api.decorator';

@ApiTags('admin')
@AdminApi()
@Controller('admin')
export class AdminController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly ledger: LedgerService,
  ) {}

  @Post('accounts')
  @ApiContract({ summary: 'Create an account with its first API key (shown once)', auth: 'admin', envelope: 'success', status: 201, type: CreatedAccountDto, errors: ['USER_003', 'VALIDATION_001', 'RESOURCE_001'] })
  create(@Body() body: CreateAccountDto): Promise<CreatedAccountDto> {
    return this.accounts.create(body.address, body.creditUsd ?? 0);
  }

  @Get('accounts')
  @ApiContract({ summary: 'Accounts, newest first', auth: 'admin', envelope: 'success', type: [AccountViewDto] })
  async list(@Query() query: AccountListQueryDto): Promise<AccountView[]> {
    const accounts = await this.accounts.list({ limit: query.limit ?? 50, offset: query.offset ?? 0 });
    return accounts.map((a) => toAccountView(a));
  }

  @Get('accounts/:address')
  @ApiContract({ summary: 'Show an account', auth: 'admin', envelope: 'success', type: AccountViewDto, errors: ['USER_003', 'USER_001', 'RESOURCE_001'] })
  async show(@Param('address') address: string): Promise<AccountView> {
    return toAccountView(await this.accounts.getByAddress(address));
  }

  @Get('accounts/:address/audit')
  @ApiContract({ summary: 'Compare the cached balances with the ledger sums', auth: 'admin', envelope: 'success', type: AccountAuditDto, errors: ['USER_003', 'USER_001', 'RESOURCE_001'] })
  async audit(@Param('address') address: string): Promise<AccountAuditDto> {
    const account = await this.accounts.getByAddress(address);
    const audit = await this.ledger.audit(account.id);
    return {
      userId: account.id,
      reconciles: audit.reconciles,
      availableMicro: audit.availableMicro.toString(),
      pendingMicro: audit.pendingMicro.toString(),
      ledgerAvailableMicro: audit.ledgerAvailableMicro.toString(),
      ledgerPendingMicro: audit.ledgerPendingMicro.toString(),
    };
  }

  @Post('accounts/:address/credit')
  @HttpCode(200)
  @ApiContract({ summary: 'Credit USD to an account', auth: 'admin', envelope: 'success', type: AccountViewDto, errors: ['USER_003', 'VALIDATION_001', 'USER_001', 'RESOURCE_001'] })
  async credit(@Param('address') address: string, @Body() body: CreditDto): Promise<AccountView> {
    return toAccountView(await this.accounts.credit(address, body.usd));
  }

  @Patch('accounts/:address/limits')
  @ApiContract({
    summary: 'Set spend limits, retry policy, breaker, disabled chains and the account policy (IP and domain lists, allowed targets, low-balance threshold, approval webhook); a partial body changes only what it names, at once on every instance',
    auth: 'admin',
    envelope: 'success',
    type: AccountViewDto,
    errors: ['USER_003', 'VALIDATION_001', 'USER_001', 'RESOURCE_001'],
  })
  async limits(@Param('address') address: string, @Body() body: AccountLimitsDto): Promise<AccountView> {
    return toAccountView(await this.accounts.setLimits(address, body));
  }

  @Post('accounts/:address/keys')
  @ApiContract({ summary: 'Issue another API key (shown once)', auth: 'admin', envelope: 'success', status: 201, type: CreatedKeyDto, errors: ['USER_003', 'USER_001', 'RESOURCE_001'] })
  issueKey(@Param('address') address: string): Promise<CreatedKeyDto> {
    return this.accounts.issueKey(address);
  }

  @Patch('keys/:keyId/rate-limit')
  @ApiContract({ summary: "Set an API key's requests per minute (null: the deployment default); effective at once on every instance", auth: 'admin', envelope: 'success', type: KeyRateLimitDto, errors: ['RESOURCE_001'] })
  async keyRateLimit(@Param('keyId') keyId: string, @Body() body: KeyRateLimitDto): Promise<KeyRateLimitDto> {
    await this.accounts.setKeyRateLimit(keyId, body.rateLimitPerMinute);
    return { rateLimitPerMinute: body.rateLimitPerMinute };
  }

  @Post('keys/revoke')
  @HttpCode(200)
  @ApiContract({ summary: 'Revoke an API key', auth: 'admin', envelope: 'success', type: RevokedKeyDto, errors: ['RESOURCE_001'] })
  async revoke(@Body() body: RevokeKeyDto): Promise<RevokedKeyDto> {
    await this.accounts.revokeKey(body.key);
    return { revoked: true };
  }
}
