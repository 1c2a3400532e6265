// The host half of the IDE-operations bench (npm run bench:ide-host; npm run bench runs it too when
// the VS Code host is installed): findReferences on the class Parser of test-fixtures/workspace/ts-project,
// (1) directly, VS Code's own `vscode.executeReferenceProvider`, and (2) through the whole chain as
// an agent sees it — the bench agent (out/bench/ideBenchAgent.js) calls the `ide` server's
// find_references and times each call: agent → MCP → ide-operations → conductor → this
// extension's `_symposium/ide/references` handler → the same VS Code command → back. Writes the
// table to test-results/ide-bench-host.json. Not a test suite: run only with --suite bench.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { answerText, cmd, extension, newTab, openChat, rendered, waitFor, waitForIdle } from '../helpers';
import { quantile } from '../../../conductor/bench/stats';

const CALLS = Number(process.env.BENCH_IDE_CALLS ?? 100);
const ROUNDS = 3;

suite('IDE operations bench (host)', () => {
  test("findReferences: VS Code's command directly vs through the chain", async function () {
    this.timeout(300_000);
    const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const parser = vscode.Uri.file(path.join(root, 'ts-project/src/parser.ts'));
    const at = new vscode.Position(3, 13);
    await vscode.window.showTextDocument(parser);
    await waitFor(
      'TypeScript to answer references',
      async () =>
        ((await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', parser, at)) ?? []).length === 8,
      120_000,
    );
    const config = vscode.workspace.getConfiguration('symposium');
    const ext = extension();
    await openChat();
    await config.update(
      'agents',
      {
        'IDE bench': {
          command: process.execPath,
          args: [path.join(ext.extensionPath, 'out/bench/ideBenchAgent.js')],
          env: { ELECTRON_RUN_AS_NODE: '1' },
        },
      },
      vscode.ConfigurationTarget.Global,
    );
    await config.update('currentAgent', 'IDE bench', vscode.ConfigurationTarget.Global);
    try {
      const tabId = await newTab();
      const chain = async (count: number): Promise<number[]> => {
        const order = JSON.stringify({ tool: 'find_references', args: { file: parser.fsPath, line: 4, column: 14 }, count });
        const messageId = await cmd<string>('sendPrompt', tabId, order);
        await waitForIdle(tabId, 240_000);
        const reply = answerText((await rendered(tabId))!, messageId);
        return (JSON.parse(reply) as { times: number[] }).times;
      };
      const direct = async (count: number): Promise<number[]> => {
        const times: number[] = [];
        for (let i = 0; i < count; i++) {
          const t0 = performance.now();
          const refs = await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', parser, at);
          times.push(performance.now() - t0);
          assert.equal(refs.length, 8);
        }
        return times;
      };
      await direct(20);
      await chain(20);
      const samples = { direct: [] as number[], chain: [] as number[] };
      for (let r = 0; r < ROUNDS; r++) {
        samples.direct.push(...(await direct(CALLS)));
        samples.chain.push(...(await chain(CALLS)));
      }
      const rows = [
        { name: 'VS Code command directly', ...stats(samples.direct) },
        { name: 'through the chain (agent)', ...stats(samples.chain) },
      ];
      const base = rows[0]!.p50;
      const table = [
        `IDE operations host benchmark: findReferences("Parser") → 8 locations, code-server ${vscode.version} (${ROUNDS} rounds × ${CALLS} calls)`,
        'path                        | p50 ms | p90 ms | p99 ms | ratio p50 | added p50 ms',
        ...rows.map(
          (x) =>
            `${x.name.padEnd(27)} | ${x.p50.toFixed(3).padStart(6)} | ${x.p90.toFixed(3).padStart(6)} | ${x.p99.toFixed(3).padStart(6)} | ${(x.p50 / base).toFixed(2).padStart(9)} | ${(x.p50 - base).toFixed(3).padStart(12)}`,
        ),
      ];
      fs.mkdirSync(path.join(ext.extensionPath, 'test-results'), { recursive: true });
      fs.writeFileSync(
        path.join(ext.extensionPath, 'test-results/ide-bench-host.json'),
        JSON.stringify({ when: new Date().toISOString(), rows, table }, null, 2),
      );
    } finally {
      await config.update('agents', undefined, vscode.ConfigurationTarget.Global);
      await config.update('currentAgent', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});

function stats(xs: number[]): { p50: number; p90: number; p99: number } {
  return { p50: quantile(xs, 0.5), p90: quantile(xs, 0.9), p99: quantile(xs, 0.99) };
}
