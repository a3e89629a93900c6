import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '../../../common/http/public.decorator';
import { ApiContract } from '../../../common/swagger/api-contract';
import { RateLimitedPerIp } from '../../rate-limit';
import { LoginMessageDto, LoginMessageRequestDto } from './dto/login-message.dto';
import { LoginTokenDto, VerifyLoginRequestDto } from './dto/verify-login.dto';
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
    description: 'Sign `message` with EIP-191 personal_sign and send the signature to POST /api/auth/verify. The message names the service’s configured public origin (PUBLIC_ORIGIN) as its domain and URI, whatever Host the request was sent to.',
    auth: 'public',
    envelope: 'success',
    type: LoginMessageDto,
    errors: ['USER_003'],
  })
  message(@Body() body: LoginMessageRequestDto): Promise<LoginMessageDto> {
    return this.login.createMessage(body.address);
  }

  @Post('verify')
  @HttpCode(200)
  @ApiContract({
    summary: 'Exchange the signed login message for a JWT',
    description:
      'The JWT (HS256, 1 hour, `aud` JWT_AUDIENCE) authenticates the api-key-or-JWT routes (GET /api/txs, /api/account, /api/user/webhooks, ...) and the Socket.IO namespace /tx, from inside the account’s ipWhitelist and domainWhitelist like an API key. On POST /api/user/register-webhooks it can only make the account’s first webhook set: replacing a set or rotating the signing secret needs an API key (403 AUTH_007). A signed message naming another domain or URI than this service’s PUBLIC_ORIGIN is refused (AUTH_008).',
    auth: 'public',
    envelope: 'success',
    type: LoginTokenDto,
    errors: ['AUTH_006', 'AUTH_008', 'USER_001', 'USER_002'],
  })
  verify(@Body() body: VerifyLoginRequestDto): Promise<LoginTokenDto> {
    return this.login.verify(body.messageId, body.signature);
  }
}
