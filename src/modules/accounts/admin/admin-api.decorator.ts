import { applyDecorators, UseGuards, UseInterceptors } from '@nestjs/common';
import { Public } from '../../../common/http/public.decorator';
import { RateLimitedPerIp } from '../../rate-limit';
import { AdminGuard } from './admin.guard';
import { AdminAuditInterceptor } from './audit/admin-audit.interceptor';

/**
 * The whole admin surface of a controller, in this order: no api-key (the admin token instead),
 * the per-IP admin window (counted before the token is checked, so guessing it is slow too), the
 * admin token, and the audit log of every mutating request.
 */
export const AdminApi = (): ClassDecorator => applyDecorators(Public(), RateLimitedPerIp('admin'), UseGuards(AdminGuard), UseInterceptors(AdminAuditInterceptor));
