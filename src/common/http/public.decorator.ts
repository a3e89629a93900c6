import { applyDecorators, SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'auth:public';
export const IDENTIFIES_CALLER = 'auth:identifies-caller';
/** The route needs no api-key (interface.md, Authentication 2), or guards itself. */
export const Public = (): ClassDecorator & MethodDecorator => SetMetadata(IS_PUBLIC, true);
/**
 * A public route that tells its caller apart: an api-key or wallet-login JWT that authenticates
 * (the account's IP and Origin lists included) sets `req.caller`; anything else, a bad credential
 * too, is an anonymous request and never refused.
 */
export const PublicIdentified = (): ClassDecorator & MethodDecorator => applyDecorators(Public(), SetMetadata(IDENTIFIES_CALLER, true));
