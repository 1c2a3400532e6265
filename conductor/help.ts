// `--help`: every flag, every built-in component (from the registry, so a new component shows up
// here by itself), the configuration file and examples. The npm package's command is
// `symposium-acp`; the extension's out/conductor.js prints the same text under its own name.
import { COMPONENT_NAMES, COMPONENT_SUMMARIES, DEFAULT_COMPONENTS } from './components/registry';
import { CONFIG_FILE_HELP } from './configFile';

const FLAGS: readonly (readonly [string, string])[] = [
  ['--components a,b,…', 'the chain, editor side first (default: the components marked * below); "" runs none'],
  ['--proxy CMDLINE|JSON', 'an external ACP proxy process in the chain (repeatable): a command line, or {"name","command","args","env"}'],
  ['--language-servers FILE|JSON', 'language servers for the ide-lsp fallback, by language: {"<lang>": {"command","args","extensions"}}'],
  ['--allow-workspace-language-servers', "let ide-lsp run the session folder's own node_modules/.bin servers and TypeScript"],
  ['--sparkle-sparkler NAME', 'the Sparkle identity new sessions embody (default: the profile’s default)'],
  ['--sparkle-mode full|core', 'core keeps nothing in the workspace (.sparkle-space/)'],
  ['--sparkle-checkpoint-every N', 'every N prompts Sparkle asks for a checkpoint; 0 never'],
  ['--trace-dir DIR', 'write every ACP message of the chain to a trace file in DIR'],
  ['--log trace|debug|info|warn|error', 'how much the conductor logs to stderr (default info)'],
  ['--help, -h', 'this text'],
  ['--version, -V', 'the version'],
];

export function helpText(mode: 'editor' | 'standalone'): string {
  const me = mode === 'standalone' ? 'symposium-acp' : 'conductor';
  const width = Math.max(...FLAGS.map(([f]) => f.length), ...COMPONENT_NAMES.map((n) => n.length + 2));
  const components = COMPONENT_NAMES.map(
    (name) =>
      `  ${(name + (DEFAULT_COMPONENTS.includes(name) ? ' *' : '')).padEnd(width)}  ${COMPONENT_SUMMARIES[name as keyof typeof COMPONENT_SUMMARIES]}`,
  );
  return [
    `${me}: a chain of ACP components (Symposium) in front of any ACP agent.`,
    '',
    'Usage:',
    `  ${me} [flags] -- <agent command> [args…]   the conductor, speaking ACP on stdin/stdout`,
    `  ${me} eliza [--deterministic]                ElizACP, a deterministic test agent`,
    `  ${me} --help | --version`,
    '',
    'Flags:',
    ...FLAGS.map(([flag, what]) => `  ${flag.padEnd(width)}  ${what}`),
    '',
    'Components (* in the default chain):',
    ...components,
    '',
    ...(mode === 'standalone' ? [CONFIG_FILE_HELP, ''] : []),
    'Examples:',
    `  ${me} -- npx -y @agentclientprotocol/claude-agent-acp`,
    `  ${me} -- npx -y @zed-industries/codex-acp`,
    `  ${me} -- npx -y @google/gemini-cli --acp`,
    `  ${me} --components sparkle,ide-operations --log debug -- npx -y @google/gemini-cli --acp`,
    `  ${me} --proxy 'node /path/to/my-proxy.js' -- npx -y @zed-industries/codex-acp`,
    `  acpx --agent '${me} -- ${me} eliza' exec 'hello'`,
    '',
    'Editors (Zed, JetBrains, Neovim, acpx): docs/editors.md in https://github.com/symposium-dev/symposium-vscode',
    '',
  ].join('\n');
}
