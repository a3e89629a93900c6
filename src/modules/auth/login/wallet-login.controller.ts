import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Public } from '../../../common/http/public.decorator';
import { ApiEnvelopedResponse } from '../../../common/swagger/api-enveloped-response';
import { RateLimitedPerIp } from '../../rate-limit';
import { LoginMessageDto, LoginMessageRequestDto } from './dto/login-message.dto';
import { LoginTokenDto, VerifyLoginRequestDto } from './dto/verify-login.dto';
import { loginOriginOf } from './login-origin';
import { WalletLoginService } from './wallet-login.service';

/**
 * Wallet login needs no API key (decisions.md): it is how a wallet without one gets credentials.
 * Being public, it is limited per client IP instead (each message is a Redis write).
 */
@ApiTags('auth')
@Public()
@RateLimitedPerIp()
@Controller('api/auth')
export class WalletLoginController {
  constructor(private readonly login: WalletLoginService) {}

  @Post('message')
  @HttpCode(200)
  @ApiOperation({ summary: 'One-time EIP-4361 login message for a wallet (valid 5 minutes)', description: 'Errors: 400 USER_003 (address does not parse); 500 SYSTEM_001.' })
  @ApiEnvelopedResponse(LoginMessageDto)
  message(@Body() body: LoginMessageRequestDto, @Req() req: Request): Promise<LoginMessageDto> {
    return this.login.createMessage(body.address, loginOriginOf(req));
  }

  @Post('verify')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Exchange the signed login message for a JWT',
    description:
      'Errors: 400 AUTH_008 (signature does not parse or is by another address); 401 AUTH_006 (message unknown, expired or already used); ' +
      '404 USER_001 (no account for the wallet); 403 USER_002 (account disabled).',
  })
  @ApiEnvelopedResponse(LoginTokenDto)
  verify(@Body() body: VerifyLoginRequestDto): Promise<LoginTokenDto> {
    return this.login.verify(body.messageId, body.signature);
  }
}
