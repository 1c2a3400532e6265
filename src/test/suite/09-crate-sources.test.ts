// Crate sources in the real host: the user's chat shows the rust_crate_query tool call (MCP, injected by
// the conductor's crate-sources component) completing with the research findings. ElizACP answers
// the research session itself; serde comes from Debian's librust-serde-dev tree (the crates.io
// index is pointed at a closed loopback port, so nothing goes to the network).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { answerText, cmd, extension, newTab, openChat, rendered, toolCards, waitForIdle } from '../helpers';

suite('crate sources in the chat', () => {
  suiteSetup(async () => {
    await openChat();
  });

  test('the rust_crate_query tool call completes in the chat with the findings', async function () {
    this.timeout(90_000);
    const serde = fs.readdirSync('/usr/share/cargo/registry').find((d) => d.startsWith('serde-'));
    assert.ok(serde, 'librust-serde-dev is installed (.ci/run installs it)');
    const config = vscode.workspace.getConfiguration('symposium');
    const ext = extension();
    await config.update(
      'agents',
      {
        'Eliza (crates)': {
          command: process.execPath,
          args: [`${ext.extensionPath}/out/conductor.js`, 'eliza', '--deterministic'],
          env: {
            ELECTRON_RUN_AS_NODE: '1',
            SYMPOSIUM_CRATES_INDEX_URL: 'http://127.0.0.1:9/index',
            SYMPOSIUM_CRATE_CACHE: fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-cache-')),
            CARGO_HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-cargo-')),
          },
        },
      },
      vscode.ConfigurationTarget.Global,
    );
    await config.update('currentAgent', 'Eliza (crates)', vscode.ConfigurationTarget.Global);
    try {
      const tabId = await newTab();
      const query = JSON.stringify({ crate_name: 'serde', crate_version: '1', prompt: 'What is this crate for?' });
      const messageId = await cmd<string>('sendPrompt', tabId, `use tool rust-crate-sources::rust_crate_query with ${query}`);
      await waitForIdle(tabId, 60_000);
      const items = (await rendered(tabId))!;
      const cards = toolCards(items, messageId);
      assert.equal(cards.length, 1, 'one tool card: research traffic stays out of the chat');
      const card = cards[0]!;
      assert.match(card.header ?? '', /rust-crate-sources::rust\\_crate\\_query/);
      assert.equal(card.status, 'Completed');
      const version = serde.slice('serde-'.length).replace(/\./g, '\\.');
      const findings = new RegExp(`Research on serde ${version}: A generic serialization/deserialization framework`);
      assert.match(card.details ?? '', findings, 'the findings are the tool result');
      assert.match(answerText(items, messageId), findings);
    } finally {
      await config.update('agents', undefined, vscode.ConfigurationTarget.Global);
      await config.update('currentAgent', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
