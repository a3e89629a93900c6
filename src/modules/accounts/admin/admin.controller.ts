import { Body, Controller, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../../common/http/public.decorator';
import { AccountView, toAccountView } from '../domain/account-view';
import { AccountsService } from '../domain/accounts.service';
import { LedgerService } from '../domain/ledger.service';
import { AccountLimitsDto, CreateAccountDto, CreatedAccountDto, CreatedKeyDto, CreditDto, RevokeKeyDto } from '../dto/admin.dto';
import { AdminGuard } from './admin.guard';

@ApiTags('admin')
@ApiBearerAuth('admin')
@Public()
@UseGuards(AdminGuard)
@Controller('admin')
export class AdminController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly ledger: LedgerService,
  ) {}

  @Post('accounts')
  @ApiOperation({ summary: 'Create an account with its first API key (shown once)' })
  @ApiOkResponse({ type: CreatedAccountDto })
  create(@Body() body: CreateAccountDto): Promise<CreatedAccountDto> {
    return this.accounts.create(body.address, body.creditUsd ?? 0);
  }

  @Get('accounts/:address')
  @ApiOperation({ summary: 'Show an account' })
  async show(@Param('address') address: string): Promise<AccountView> {
    return toAccountView(await this.accounts.getByAddress(address));
  }

  @Get('accounts/:address/audit')
  @ApiOperation({ summary: 'Compare the cached balances with the ledger sums' })
  async audit(@Param('address') address: string) {
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
  @ApiOperation({ summary: 'Credit USD to an account' })
  async credit(@Param('address') address: string, @Body() body: CreditDto): Promise<AccountView> {
    return toAccountView(await this.accounts.credit(address, body.usd));
  }

  @Patch('accounts/:address/limits')
  @ApiOperation({ summary: 'Set spend limits, retry policy, breaker and disabled chains' })
  async limits(@Param('address') address: string, @Body() body: AccountLimitsDto): Promise<AccountView> {
    return toAccountView(await this.accounts.setLimits(address, body));
  }

  @Post('accounts/:address/keys')
  @ApiOperation({ summary: 'Issue another API key (shown once)' })
  @ApiOkResponse({ type: CreatedKeyDto })
  issueKey(@Param('address') address: string): Promise<CreatedKeyDto> {
    return this.accounts.issueKey(address);
  }

  @Post('keys/revoke')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke an API key' })
  async revoke(@Body() body: RevokeKeyDto): Promise<{ revoked: true }> {
    await this.accounts.revokeKey(body.key);
    return { revoked: true };
  }
}
