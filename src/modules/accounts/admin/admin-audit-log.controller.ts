import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiContract } from '../../../common/swagger/api-contract';
import { AdminAuditPageDto, AdminAuditQueryDto } from '../dto/admin-audit.dto';
import { AdminApi } from './admin-api.decorator';
import { AdminAuditLog } from './audit/admin-audit-log.service';

@ApiTags('admin')
@AdminApi()
@Controller('admin/audit-log')
export class AdminAuditLogController {
  constructor(private readonly log: AdminAuditLog) {}

  @Get()
  @ApiContract({ summary: 'Mutating admin actions (REST and CLI), newest first: who, what, from where, when, outcome', auth: 'admin', envelope: 'success', type: AdminAuditPageDto, rateLimited: true })
  async list(@Query() query: AdminAuditQueryDto): Promise<AdminAuditPageDto> {
    const page = await this.log.page(query.limit ?? 50, query.cursor ?? null);
    return {
      entries: page.entries.map((e) => ({ ...e, summary: e.summary as Record<string, unknown> | null, at: e.at.toISOString(), finishedAt: e.finishedAt?.toISOString() ?? null })),
      nextCursor: page.nextCursor,
    };
  }
}
