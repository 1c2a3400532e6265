// The extension's ACP client and the IDE operations, over real pipes with an SDK agent on the other
// end: `initialize` advertises `clientCapabilities._meta.symposium.ide` with every operation only
// when IDE handlers exist, and a `_symposium/ide/*` request reaches the handler with its params
// and where it came from; an editor without them answers method not found.
import * as assert from 'node:assert/strict';
import { PassThrough, Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { AcpClient } from '../agents/acpClient';
import type { ClientRequestContext } from '../agents/clientHandlers';
import { IDE_OPERATIONS, ideCapabilityOf, ideMethod } from '../protocol/ideOperations';
import type { IdeHandlers } from '../agents/clientHandlers';
import { loadAcpSdk } from '../agents/acpSdk';

const quiet = { trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

async function connect(ide?: IdeHandlers): Promise<{ caps: acp.ClientCapabilities; agent: acp.AgentContext; close(): void }> {
  const toAgent = new PassThrough();
  const toClient = new PassThrough();
  let caps: acp.ClientCapabilities | undefined;
  let agent: acp.AgentContext | undefined;
  const app = acp.agent({ name: 'fake' }).onRequest('initialize', ({ params, client }) => {
    caps = params.clientCapabilities;
    agent = client;
    return { protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {}, authMethods: [] };
  });
  const conn = app.connect(
    acp.ndJsonStream(Writable.toWeb(toClient) as WritableStream<Uint8Array>, Readable.toWeb(toAgent) as ReadableStream<Uint8Array>),
  );
  const client = new AcpClient(
    { stdin: toAgent, stdout: toClient },
    {
      actorKey: 'actor-1',
      agentName: 'Fake',
      log: quiet,
      clientInfo: { name: 'test', version: '0' },
      guard: (p) => p,
      onSessionUpdate: () => undefined,
      onPermissionRequest: () => Promise.reject(new Error('no')),
      client: ide ? { ide } : {},
    },
  );
  await client.initialize();
  return {
    caps: caps!,
    agent: agent!,
    close: () => {
      client.close();
      conn.close();
    },
  };
}

describe('ACP client: IDE operations', () => {
  before(() => loadAcpSdk()); // the agent actor loads it before connecting; here the client is made directly

  it('advertises _meta.symposium.ide with every operation and routes _symposium/ide/* to the handler', async () => {
    const seen: { operation: string; params: unknown; ctx: Omit<ClientRequestContext, 'signal'> }[] = [];
    const ide: IdeHandlers = {
      answer: async (operation, params, ctx) => {
        seen.push({ operation, params, ctx: { actorKey: ctx.actorKey, agentName: ctx.agentName } });
        return { items: [], total: 0 } as never;
      },
    };
    const c = await connect(ide);
    try {
      assert.deepEqual(ideCapabilityOf(c.caps), { operations: [...IDE_OPERATIONS] });
      const params = { sessionId: 's1', position: { file: 'a.ts', line: 1, column: 2 } };
      assert.deepEqual(await c.agent.request(ideMethod('references'), params), { items: [], total: 0 });
      assert.deepEqual(seen, [{ operation: 'references', params, ctx: { actorKey: 'actor-1', agentName: 'Fake' } }]);
    } finally {
      c.close();
    }
  });

  it('without IDE handlers: no capability, and the requests are method not found', async () => {
    const c = await connect();
    try {
      assert.equal(ideCapabilityOf(c.caps), undefined);
      await assert.rejects(
        c.agent.request(ideMethod('hover'), { sessionId: 's1' }),
        (e: unknown) => (e as { code?: number }).code === -32601,
      );
    } finally {
      c.close();
    }
  });
});
