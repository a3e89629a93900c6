import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { API_KEY_HEADER } from '../modules/auth/api-key.guard';

/** Swagger UI at /docs and the OpenAPI JSON at /docs-json. */
export function setupSwagger(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Gas relay, swap routing and vault API')
    .setDescription(
      'Gas-sponsored EVM transaction relay with swap routing, gasless swaps and vault deposits. ' +
        'Send the `api-key` header on every endpoint except the public ones (GET /api/tx, GET /api/user, GET /api/supported-chains).',
    )
    .setVersion('1.0')
    .addApiKey({ type: 'apiKey', in: 'header', name: API_KEY_HEADER }, API_KEY_HEADER)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'jwt')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' }, 'admin')
    .addSecurityRequirements(API_KEY_HEADER)
    .build();
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json' });
}
