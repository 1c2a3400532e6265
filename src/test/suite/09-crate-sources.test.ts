// Crate sources in the real host: the user's chat shows the rust_crate_query tool call (MCP, injected by
// the conductor's crate-sources component) completing with the research findings. ElizACP answers
// the research session itself; serde comes from Debian's librust-serde-dev tree (the crates.io
// index is pointed at a closed loopback port, so nothing goes to the network).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LocalRegistry } from '../../../conductor/components/crate-sources/fixtures/localRegistry';
import { answerText, cmd, extension, newTab, openChat, rendered, screenshot, sleep, toolCards, waitForIdle } from '../helpers';

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

  test('a slow crate download shows live progress in its tool card, which ends completed', async function () {
    this.timeout(90_000);
    // A loopback registry that takes ~3 s to serve a ~300 KB archive.
    const registry = await new LocalRegistry([{ name: 'demo', version: '1.0.0', padBytes: 300_000 }], { slowMs: 3_000 }).start();
    const config = vscode.workspace.getConfiguration('symposium');
    const ext = extension();
    await config.update(
      'agents',
      {
        'Eliza (slow registry)': {
          command: process.execPath,
          args: [`${ext.extensionPath}/out/conductor.js`, 'eliza', '--deterministic'],
          env: { ELECTRON_RUN_AS_NODE: '1' },
        },
      },
      vscode.ConfigurationTarget.Global,
    );
    await config.update('currentAgent', 'Eliza (slow registry)', vscode.ConfigurationTarget.Global);
    // An agent's `env` reaches the agent only; the crate-sources component runs in the conductor,
    // which inherits the extension host's environment.
    const registryEnv: Record<string, string> = {
      SYMPOSIUM_CRATES_INDEX_URL: registry.indexUrl,
      SYMPOSIUM_CRATES_DOWNLOAD_URL: registry.downloadUrl,
      SYMPOSIUM_CRATE_CACHE: fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-cache-')),
      CARGO_HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-cargo-')),
    };
    const saved = Object.fromEntries(Object.keys(registryEnv).map((k) => [k, process.env[k]]));
    Object.assign(process.env, registryEnv);
    try {
      const tabId = await newTab();
      const query = JSON.stringify({ crate_name: 'demo', prompt: 'What is this crate for?' });
      const messageId = await cmd<string>('sendPrompt', tabId, `use tool rust-crate-sources::rust_crate_query with ${query}`);
      // Watch the card while it runs: every progress line it showed, and how many cards there were.
      const seen: string[] = [];
      let maxCards = 0;
      let shot = false;
      while (await cmd<boolean>('hasActivePrompt', tabId)) {
        const cards = toolCards((await rendered(tabId)) ?? [], messageId);
        maxCards = Math.max(maxCards, cards.length);
        const line = /⏳ (.*)/.exec((cards[0]?.body ?? '').replace(/\\/g, ''))?.[1];
        if (line && seen.at(-1) !== line) seen.push(line);
        if (!shot && line && /^Downloading/.test(line)) {
          // The live card as the user sees it: test-results/host-crate-progress.png.
          shot = true;
          await screenshot('crate-progress');
        }
        await sleep(150);
      }
      await waitForIdle(tabId, 60_000);
      const downloads = seen.filter((l) => /^Downloading demo 1\.0\.0 — \d+ of \d+ KB/.test(l));
      const final = (await rendered(tabId))!;
      assert.ok(
        downloads.length >= 2,
        `several download steps were shown live: ${JSON.stringify(seen)}; ${registry.requests.join(', ')}; ${answerText(final, messageId)}`,
      );
      assert.ok(seen.length < 40, `throttled: ${seen.length} lines`);
      assert.equal(maxCards, 1, 'progress updates the one card in place');
      const card = toolCards((await rendered(tabId))!, messageId)[0]!;
      assert.equal(card.status, 'Completed');
      assert.doesNotMatch(card.body, /⏳/, 'no progress line once completed');
      assert.match(answerText((await rendered(tabId))!, messageId), /Research on demo 1\.0\.0/);
    } finally {
      await config.update('agents', undefined, vscode.ConfigurationTarget.Global);
      await config.update('currentAgent', undefined, vscode.ConfigurationTarget.Global);
      await registry.stop();
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});
