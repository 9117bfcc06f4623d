/**
 * The local server's API Gateway adapter: the event a request becomes, and the route it goes
 * to. Under `npm start` this is what API Gateway does deployed, so it must give the same event.
 */
import type { IncomingMessage } from 'node:http';
import fc from 'fast-check';
import { matchPath, routeFor, routes, routesOn } from '../../functions/routes.js';
import { clfTime, requestTarget, toHttpApiEvent } from '../../local/http-adapter.js';

/** What toHttpApiEvent reads of a request: its line, raw headers and socket. */
const requestOf = (url: string, rawHeaders: string[], method = 'GET') =>
  ({ url, rawHeaders, method, httpVersion: '1.1', socket: { remoteAddress: '127.0.0.1' } }) as unknown as IncomingMessage;

const NOW = new Date('2026-11-25T09:20:47.123Z');

describe('toHttpApiEvent', () => {
  test('names in lower case, repeated headers and parameters joined with commas, in order', () => {
    const event = toHttpApiEvent(
      requestOf('/api/studio/knap-tools?limit=5&tag=a&tag=b', [
        'Authorization',
        'Bearer one',
        'X-Thing',
        '1',
        'authorization',
        'Bearer two',
        'Host',
        'api.example.com',
      ]),
      Buffer.alloc(0),
      'GET /api/studio/knap-tools',
      {},
      NOW,
    );
    expect(event.headers).toEqual({ authorization: 'Bearer one,Bearer two', 'x-thing': '1', host: 'api.example.com' });
    expect(event.queryStringParameters).toEqual({ limit: '5', tag: 'a,b' });
    expect(event.rawQueryString).toBe('limit=5&tag=a&tag=b');
    expect(event.requestContext.domainName).toBe('api.example.com');
    expect(event.requestContext.time).toBe('25/Nov/2026:09:20:47 +0000');
    expect(event.requestContext.timeEpoch).toBe(NOW.getTime());
  });

  test('a header or parameter named like an Object property is a name like any other', () => {
    const event = toHttpApiEvent(
      requestOf('/x?constructor=c&toString=t&__proto__=p&__proto__=q', [
        'constructor',
        'a',
        'Constructor',
        'b',
        '__proto__',
        'p',
      ]),
      Buffer.alloc(0),
      'GET /x',
    );
    expect(Object.entries(event.headers)).toEqual([
      ['constructor', 'a,b'],
      ['__proto__', 'p'],
    ]);
    expect(Object.getPrototypeOf(event.headers)).toBe(Object.prototype);
    expect(Object.entries(event.queryStringParameters ?? {})).toEqual([
      ['constructor', 'c'],
      ['toString', 't'],
      ['__proto__', 'p,q'],
    ]);
  });

  test('cookies move out of the headers, path parameters come along, as API Gateway gives them', () => {
    const event = toHttpApiEvent(
      requestOf('/api/studio/knap-tools/k1', ['Cookie', 'a=1; b=2', 'Accept', '*/*']),
      Buffer.alloc(0),
      'GET /api/studio/knap-tools/{uuid}',
      { uuid: 'k1' },
    );
    expect(event.cookies).toEqual(['a=1', 'b=2']);
    expect(event.headers).toEqual({ accept: '*/*' });
    expect(event.pathParameters).toEqual({ uuid: 'k1' });
    const bare = toHttpApiEvent(requestOf('/x', []), Buffer.alloc(0), 'GET /x');
    expect('cookies' in bare || 'pathParameters' in bare).toBe(false);
  });

  test('no query string: no parameters', () => {
    const event = toHttpApiEvent(requestOf('/x', []), Buffer.alloc(0), 'GET /x');
    expect(event.queryStringParameters).toBeUndefined();
    expect(event.rawQueryString).toBe('');
  });

  test('the time of each second, also when requests in one second share it', () => {
    const at = (iso: string) =>
      toHttpApiEvent(requestOf('/x', []), Buffer.alloc(0), 'GET /x', {}, new Date(iso)).requestContext.time;
    expect(at('2026-11-25T09:20:47.001Z')).toBe('25/Nov/2026:09:20:47 +0000');
    expect(at('2026-11-25T09:20:47.999Z')).toBe('25/Nov/2026:09:20:47 +0000');
    expect(at('2026-11-25T09:20:48.000Z')).toBe('25/Nov/2026:09:20:48 +0000');
    expect(at('2027-01-01T00:00:00.000Z')).toBe(clfTime(new Date('2027-01-01T00:00:00.000Z')));
  });
});

describe('requestTarget', () => {
  const asUrl = (target: string) => {
    try {
      const { pathname, search } = new URL(target, 'http://localhost');
      return { pathname, search };
    } catch {
      return null; // `/\\` is `//` with no host
    }
  };

  test('gives the path and query URL gives, for plain targets and every kind URL rewrites', () => {
    for (const target of [
      '/',
      '/api/studio/knap-tools',
      '/api/studio/knap-tools/0b7c0f0e-6d3c-4a8e-9f1e-2b8f5f0c6a11',
      '/api/studio/knap-tools?limit=5&tag=a&tag=b',
      '/a?',
      '/a?b?c',
      '/a?x=%zz&y=%41',
      '/a/../b',
      '/a/%2e%2e/b',
      '/a/./b',
      '//evil.example/a',
      '/a b?c d',
      '/a"b?c"d#e',
      "/a?b='c'",
      '/caf\u00e9?q=\u00e9',
      '/a\\b',
      'http://other.example/a?b',
      '*',
      '/\\',
      '/\\x/y',
    ]) {
      expect(requestTarget(target)).toEqual(asUrl(target));
    }
  });

  test('equals URL on any target of path and query characters (property)', () => {
    const character = fc.constantFrom(...'aZ09-_~!$&()*+,;=:@/?%.#\'" <>`{}|^[]\\\u00e9\t'.split(''));
    fc.assert(
      fc.property(fc.array(character, { maxLength: 24 }), (characters) => {
        const target = `/${characters.join('')}`;
        expect(requestTarget(target)).toEqual(asUrl(target));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('routeFor and routesOn', () => {
  /** Every route's template, filled with sample segments, and some paths no route has. */
  const paths = [
    ...routes.map((route) => route.path.replace(/\{[A-Za-z_]+\}/g, 'abc')),
    '/',
    '/api',
    '/api/studio/knap-tools/',
    '/api/studio/knap-tools/a/b',
    '/api/studio/knap-tools/%E2%82%AC',
    '/api/studio/knap-tools/%ZZ',
    '/docs/',
  ];

  test.each(paths)('%s: the same routes, in the same order, as trying every template, and the first of each method', (path) => {
    const everyTemplate = routes.flatMap((route) => {
      const parameters = matchPath(route, path);
      return parameters ? [{ route, parameters }] : [];
    });
    expect(routesOn(path)).toEqual(everyTemplate);
    for (const method of ['GET', 'POST', 'PATCH', 'DELETE', 'PUT']) {
      expect(routeFor(method, path)).toEqual(everyTemplate.find(({ route }) => route.method === method));
    }
  });

  test('a path fits a template as a regular expression of it would say (property)', () => {
    // The rule written the other way: `{name}` is `[^/]+`, handed over decoded.
    const oracle = (template: string, path: string): Record<string, string> | null => {
      const names: string[] = [];
      const pattern = template
        .split(/(\{[A-Za-z_]+\})/)
        .map((part) => {
          if (!/^\{[A-Za-z_]+\}$/.test(part)) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
          names.push(part.slice(1, -1));
          return '([^/]+)';
        })
        .join('');
      const match = new RegExp(`^${pattern}$`).exec(path);
      if (!match) return null;
      try {
        return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1] as string)]));
      } catch {
        return null;
      }
    };
    const segment = fc.stringMatching(/^[a-z0-9%€./]{0,6}$/);
    fc.assert(
      fc.property(
        fc.constantFrom(...routes),
        fc.array(segment, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        (route, values, filled) => {
          let index = 0;
          const path = filled
            ? route.path.replace(/\{[A-Za-z_]+\}/g, () => values[index++ % values.length] as string)
            : `/${values.join('/')}`;
          expect(matchPath(route, path)).toEqual(oracle(route.path, path));
        },
      ),
      { numRuns: 5000 },
    );
  });

  test('a Knap path gives its routes by method, with the decoded id', () => {
    const found = routesOn('/api/studio/knap-tools/%E2%82%AC');
    expect(found.map(({ route }) => route.method).sort()).toEqual(['DELETE', 'GET', 'PATCH', 'PUT']);
    expect(found.every(({ parameters }) => Object.values(parameters).includes('€'))).toBe(true);
  });
});
