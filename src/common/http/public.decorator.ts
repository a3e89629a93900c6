import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'auth:public';
/** The route needs no api-key (interface.md, Authentication 2), or guards itself. */
export const Public = (): ClassDecorator & MethodDecorator => SetMetadata(IS_PUBLIC, true);
