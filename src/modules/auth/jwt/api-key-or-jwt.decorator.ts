import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiSecurity } from '@nestjs/swagger';
import { Public } from '../../../common/http/public.decorator';
import { API_KEY_HEADER } from '../api-key-header';
import { ApiKeyOrJwtGuard } from './api-key-or-jwt.guard';

/**
 * The route accepts the api-key header or a wallet-login JWT. It is @Public() only so the
 * global api-key guard steps aside; ApiKeyOrJwtGuard then requires one of the two.
 */
export const ApiKeyOrJwt = (): ClassDecorator & MethodDecorator =>
  applyDecorators(Public(), UseGuards(ApiKeyOrJwtGuard), ApiSecurity(API_KEY_HEADER), ApiBearerAuth('jwt'));
