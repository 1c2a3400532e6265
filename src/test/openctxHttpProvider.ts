// OpenCtx providers over HTTP on loopback, for the tests (plain Node and the extension host): a
// module provider served at a path, plus broken endpoints (malformed JSON, a protocol error, a
// request that is never answered). Records every request so tests can check what was sent.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProviderModule {
  [method: string]: ((params: unknown, settings: unknown) => unknown) | undefined;
}

export interface RecordedRequest {
  path: string;
  body: { method?: string; params?: unknown; settings?: unknown };
}

export interface HttpProviders {
  /** `http://127.0.0.1:<port>` */
  base: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * Routes: `/<name>` serves `modules[name]`; `/malformed` answers `{not json`; `/error` answers a
 * JSON-RPC-style error; `/hang` never answers (until close).
 */
export async function startHttpProviders(modules: Record<string, ProviderModule>): Promise<HttpProviders> {
  const requests: RecordedRequest[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => {
      void (async () => {
        let body: RecordedRequest['body'] = {};
        try {
          body = JSON.parse(text) as RecordedRequest['body'];
        } catch {
          // recorded as empty
        }
        const path = req.url ?? '/';
        requests.push({ path, body });
        const reply = (status: number, payload: string): void => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(payload);
        };
        if (path === '/malformed') return reply(200, '{not json');
        if (path === '/error') return reply(200, JSON.stringify({ error: { code: -32000, message: 'the error provider refuses' } }));
        if (path === '/hang') {
          hanging.add(res);
          return;
        }
        const mod = modules[path.slice(1)];
        const fn = body.method ? mod?.[body.method] : undefined;
        if (!mod) return reply(404, '{}');
        if (!fn) return reply(200, JSON.stringify({ result: body.method === 'meta' ? {} : [] }));
        try {
          reply(200, JSON.stringify({ result: await fn(body.params ?? {}, body.settings ?? {}) }));
        } catch (e) {
          reply(200, JSON.stringify({ error: { code: -32603, message: e instanceof Error ? e.message : String(e) } }));
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
