// npm run bench, the chain's own cost per hop: messages dispatched through an in-process Chain
// (no pipes, no parsing) with 0, 1 and 7 pass-through components and with the default chain's
// MCP-serving components, timed per notification (an agent's streamed update) and per request +
// response (a prompt). What a component costs on the hot path, apart from I/O.
import { Chain } from '../chain/chain';
import type { Component, ComponentContext } from '../chain/component';
import { isRequest, type RpcMessage } from '../jsonrpc/message';
import { loadComponents } from '../components/registry';
import { createLogger } from '../log';

const N = Number(process.env.BENCH_CHAIN_MESSAGES ?? 200_000);
const CHAINS: string[][] = [
  [],
  ['passthrough'],
  Array<string>(7).fill('passthrough'),
  ['symposium-info', 'sparkle', 'crate-sources', 'openctx', 'ide-operations'],
];

async function main(): Promise<void> {
  const log = createLogger('error');
  const rows: string[] = [];
  for (const names of CHAINS) {
    const registry = await loadComponents(names);
    const components = names.map((n) => registry.get(n)!.create());
    const edge = (name: string): Component => ({ name });
    const chain: Chain = new Chain([edge('editor-edge'), ...components, edge('agent-edge')], {
      log,
      editor: { name: 'editor', send: () => undefined },
      // The agent answers every request at once.
      agent: {
        name: 'agent',
        send: (m: RpcMessage) => {
          if (isRequest(m)) chain.fromAgent({ jsonrpc: '2.0', id: m.id, result: { stopReason: 'end_turn' } });
        },
      },
      contextFor: (c) => ({ name: c.name, log, info: { clientCapabilities: {}, agentCapabilities: {} } }) as unknown as ComponentContext,
    });
    const update = (): RpcMessage => ({
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } } },
    });
    let notification = 0;
    let request = 0;
    for (let round = 0; round < 3; round++) {
      let t = process.hrtime.bigint();
      for (let i = 0; i < N; i++) chain.fromAgent(update());
      notification = Number(process.hrtime.bigint() - t) / N;
      t = process.hrtime.bigint();
      for (let i = 0; i < N / 10; i++)
        chain.fromEditor({ jsonrpc: '2.0', id: i, method: 'session/prompt', params: { sessionId: 's', prompt: [] } });
      request = Number(process.hrtime.bigint() - t) / (N / 10);
    }
    await chain.dispose();
    rows.push(
      `| ${names.length ? (names.every((n) => n === 'passthrough') ? `${names.length} pass-through` : names.join(', ')) : 'edges only'} | ${notification.toFixed(0)} | ${(request / 1000).toFixed(2)} |`,
    );
  }
  console.log(
    [
      `Chain micro-benchmark (in process, ${N} notifications, ${N / 10} requests, third of 3 rounds; node ${process.version})`,
      '',
      '| chain | ns per notification | µs per request + response |',
      '|---|---:|---:|',
      ...rows,
    ].join('\n'),
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
