import { Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, isAbsolute, join } from 'node:path';
import { AppConfig } from '../../../config/app-config';

export interface DashboardFile {
  body: Buffer;
  contentType: string;
  /** A strong validator of the body, computed once: the page is `no-cache`, so a browser revalidates it on every load. */
  etag: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json; charset=utf-8',
};

/** A file name the build writes (hashed bundle names); anything else, paths included, is not served. */
const ASSET_NAME = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.(js|css|svg|png|map)$/;

/**
 * The built page, read from DASHBOARD_DIR on first use and kept in memory: a handful of small
 * files, and a lookup by exact name means no path from a request ever reaches the filesystem.
 */
@Injectable()
export class DashboardAssets {
  private readonly logger = new Logger(DashboardAssets.name);
  private files: Map<string, DashboardFile> | null = null;

  constructor(private readonly config: AppConfig) {}

  get dir(): string {
    const dir = this.config.DASHBOARD_DIR;
    return isAbsolute(dir) ? dir : join(process.cwd(), dir);
  }

  index(): DashboardFile | undefined {
    return this.load().get('index.html');
  }

  asset(name: string): DashboardFile | undefined {
    return ASSET_NAME.test(name) ? this.load().get(`assets/${name}`) : undefined;
  }

  private load(): Map<string, DashboardFile> {
    if (this.files && this.files.size > 0) return this.files;
    const files = new Map<string, DashboardFile>();
    try {
      files.set('index.html', fileOf(readFileSync(join(this.dir, 'index.html')), TYPES['.html']));
      for (const name of readdirSync(join(this.dir, 'assets'))) {
        const type = TYPES[extname(name)];
        if (type && ASSET_NAME.test(name)) files.set(`assets/${name}`, fileOf(readFileSync(join(this.dir, 'assets', name)), type));
      }
    } catch (err) {
      // Not built: /dashboard answers 404 until `npm run build:dashboard` has run; the next request looks again.
      this.logger.warn(`dashboard not built in ${this.dir}: ${(err as Error).message}`);
      files.clear();
    }
    this.files = files;
    return files;
  }
}

function fileOf(body: Buffer, contentType: string): DashboardFile {
  return { body, contentType, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}
