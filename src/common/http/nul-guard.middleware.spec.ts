import express from 'express';
import request from 'supertest';
import { jsonBodyMiddleware } from './json-body.middleware';
import { nulGuardMiddleware } from './nul-guard.middleware';

/** The NUL guard walks only what may hold U+0000; whatever the encoding or escape, one still gets a 400. */
describe('nulGuardMiddleware after jsonBodyMiddleware', () => {
  const app = express();
  app.use(jsonBodyMiddleware({ limit: '64kb', maxDepth: 32 }));
  app.use(nulGuardMiddleware);
  app.all('/echo', (req, res) => res.json({ body: req.body ?? null, query: req.query }));
  // As sent: superagent would serialize a Buffer given with a JSON type.
  const post = (body: string | Buffer, type = 'application/json') => request(app).post('/echo').set('content-type', type).serialize((b: unknown) => b as string).send(body);

  it.each([
    ['a value', '{"a":"x\\u0000y"}'],
    ['a key', '{"a\\u0000":1}'],
    ['a nested array', '{"a":[{"b":["\\u0000"]}]}'],
  ])('refuses U+0000 in %s of the body', async (_, body) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_004');
    expect(res.body.error.message).toMatch(/contains a NUL character/);
  });

  it('refuses U+0000 in a body of another charset (its bytes do not spell the escape in UTF-8)', async () => {
    const res = await post(Buffer.from('{"a":"\\u0000"}', 'utf16le'), 'application/json; charset=utf-16le');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/body.a contains a NUL character/);
  });

  it('lets an escaped backslash followed by u0000 through (no NUL in it)', async () => {
    const res = await post('{"a":"\\\\u0000"}');
    expect(res.status).toBe(200);
    expect(res.body.body).toEqual({ a: '\\u0000' });
  });

  it.each([['/echo?a=%00'], ['/echo?a%00=1'], ['/echo?a=1&b=x%00y']])('refuses U+0000 in the query string %s', async (path) => {
    const res = await request(app).get(path);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/query.* contains a NUL character/);
  });

  it('passes bodies and queries without one, and a GET without a body', async () => {
    expect((await post('{"a":"x","b":[1,2]}')).body.body).toEqual({ a: 'x', b: [1, 2] });
    const get = await request(app).get('/echo?a=%01b');
    expect(get.status).toBe(200);
    expect(get.body).toEqual({ body: null, query: { a: '\u0001b' } });
  });
});
