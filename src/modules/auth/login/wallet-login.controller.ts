import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Public } from '../../../common/http/public.decorator';
import { ApiContract } from '../../../common/swagger/api-contract';
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
  @ApiContract({
    summary: 'One-time EIP-4361 login message for a wallet (valid 5 minutes)',
    description: 'Sign `message` with EIP-191 personal_sign and send the signature to POST /api/auth/verify.',
    auth: 'public',
    envelope: 'success',
    type: LoginMessageDto,
    errors: ['USER_003'],
  })
  message(@Body() body: LoginMessageRequestDto, @Req() req: Request): Promise<LoginMessageDto> {
    return this.login.createMessage(body.address, loginOriginOf(req));
  }

  @Post('verify')
  @HttpCode(200)
  @ApiContract({
    summary: 'Exchange the signed login message for a JWT',
    description: 'The JWT (HS256, 1 hour) authenticates POST /api/user/register-webhooks, GET /api/txs and the Socket.IO namespace /tx.',
    auth: 'public',
    envelope: 'success',
    type: LoginTokenDto,
    errors: ['AUTH_006', 'AUTH_008', 'USER_001', 'USER_002'],
  })
  verify(@Body() body: VerifyLoginRequestDto): Promise<LoginTokenDto> {
    return this.login.verify(body.messageId, body.signature);
  }
}
