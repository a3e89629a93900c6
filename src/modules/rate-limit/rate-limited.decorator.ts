import { UseGuards } from '@nestjs/common';
import { RateLimitGuard } from './rate-limit.guard';

/** Counts each request against the caller's per-key window (submit and quote endpoints). */
export const RateLimited = (): ClassDecorator & MethodDecorator => UseGuards(RateLimitGuard);
