import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { AppError } from '../../../common/errors/app-error';
import { Public } from '../../../common/http/public.decorator';
import { RateLimitedPerIp } from '../../rate-limit';
import { DashboardAssets, DashboardFile } from './dashboard-assets';
import { setDashboardHeaders } from './dashboard-headers';

/** The dashboard page and its bundle; the data comes from the API with the viewer's own credentials. */
@ApiExcludeController()
@Public()
@RateLimitedPerIp('public')
@Controller('dashboard')
export class DashboardPageController {
  constructor(private readonly assets: DashboardAssets) {}

  @Get()
  page(@Res() res: Response): void {
    send(res, this.assets.index(), 'no-cache', 'dashboard is not built (npm run build:dashboard)');
  }

  @Get('assets/:name')
  asset(@Param('name') name: string, @Res() res: Response): void {
    send(res, this.assets.asset(name), 'immutable', `no dashboard asset ${name}`);
  }
}

function send(res: Response, file: DashboardFile | undefined, cache: 'no-cache' | 'immutable', missing: string): void {
  if (!file) throw new AppError('RESOURCE_001', missing);
  setDashboardHeaders(res, cache);
  // The API sends no ETags (app-wide setting); the page's own, computed at load, still answers a revalidation with 304.
  res.setHeader('ETag', file.etag);
  res.type(file.contentType).send(file.body);
}
