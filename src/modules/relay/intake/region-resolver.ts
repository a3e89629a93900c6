import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { RegionHints } from './relay-command';
import { AppConfig } from '../../../config/app-config';

/** Continent defaults for countries the operator did not map (ISO 3166-1 alpha-2). */
const DEFAULT_COUNTRY_REGIONS: Record<string, string> = {
  US: 'us-east', CA: 'us-east', MX: 'us-east', BR: 'us-east', AR: 'us-east', CL: 'us-east', CO: 'us-east',
  GB: 'eu-west', IE: 'eu-west', FR: 'eu-west', DE: 'eu-west', NL: 'eu-west', BE: 'eu-west', ES: 'eu-west', PT: 'eu-west',
  IT: 'eu-west', CH: 'eu-west', AT: 'eu-west', PL: 'eu-west', SE: 'eu-west', NO: 'eu-west', DK: 'eu-west', FI: 'eu-west',
  IN: 'ap-south', SG: 'ap-south', JP: 'ap-south', KR: 'ap-south', AU: 'ap-south', ID: 'ap-south', TH: 'ap-south',
  VN: 'ap-south', PH: 'ap-south', MY: 'ap-south', HK: 'ap-south', TW: 'ap-south', AE: 'ap-south',
};

/**
 * interface.md: the X-Relay-Region header wins over the body's region; with neither (or an
 * inactive name) the caller's country decides, falling back to the default region. The
 * country comes from the CDN's trusted header; no GeoIP database ships with the service.
 */
@Injectable()
export class RegionResolver {
  readonly regions: string[];
  private readonly active: Set<string>;
  private readonly countries: Record<string, string>;

  constructor(private readonly config: AppConfig) {
    this.regions = config.RELAY_REGIONS.split(',');
    this.active = new Set(this.regions);
    if (!this.active.has(config.RELAY_DEFAULT_REGION)) {
      throw new Error(`RELAY_DEFAULT_REGION ${config.RELAY_DEFAULT_REGION} is not one of RELAY_REGIONS (${config.RELAY_REGIONS})`);
    }
    const custom = Object.fromEntries(
      config.RELAY_COUNTRY_REGIONS.split(',')
        .filter(Boolean)
        .map((pair) => pair.split(':').map((s) => s.trim()) as [string, string])
        .map(([country, region]) => [country.toUpperCase(), region]),
    );
    this.countries = { ...DEFAULT_COUNTRY_REGIONS, ...custom };
  }

  /** The region hints of an HTTP request, read once at the edge so services never see the request. */
  hintsOf(req: Pick<Request, 'header'>): RegionHints {
    return { header: req.header('x-relay-region'), country: req.header(this.config.RELAY_COUNTRY_HEADER) };
  }

  resolve(hints: RegionHints, bodyRegion: string | undefined): string {
    const header = hints.header?.trim().toLowerCase();
    if (header && this.active.has(header)) return header;
    const body = bodyRegion?.trim().toLowerCase();
    if (body && this.active.has(body)) return body;
    const country = hints.country?.trim().toUpperCase();
    const byCountry = country ? this.countries[country] : undefined;
    if (byCountry && this.active.has(byCountry)) return byCountry;
    return this.config.RELAY_DEFAULT_REGION;
  }
}
