import { INestApplication } from '@nestjs/common';
import { SwaggerModule } from '@nestjs/swagger';
import { AppConfig } from '../config/app-config';
import { buildOpenApiDocument } from './openapi-document';

/** Swagger UI at /docs and the OpenAPI JSON at /docs-json; `servers` is PUBLIC_ORIGIN, so Try-it-out calls this deployment. */
export function setupSwagger(app: INestApplication): void {
  SwaggerModule.setup('docs', app, buildOpenApiDocument(app, app.get(AppConfig).PUBLIC_ORIGIN), { jsonDocumentUrl: 'docs-json' });
}
