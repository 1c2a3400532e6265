// ESLint (flat config). Its main job is to enforce the layering (docs/architecture.md, "Rooms and
// the arrows between them"): each folder may import only from the folders below it.
//
//   webview/      → src/protocol
//   conductor/    → src/protocol, src/node
//   src/ (host)   → src/protocol, src/node, vscode          (never webview/ or conductor/)
//   src/node/     → src/protocol, node:*                    (never vscode)
//   src/protocol/ → nothing                                  (no vscode, DOM or Node)
//
// Tests may reach across layers (a host test computes ElizACP's reply with its engine), so the
// zones apply to product code only. Formatting is Prettier's job (.prettierrc.json), not ESLint's.
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = [
  'node:*',
  'fs',
  'fs/*',
  'path',
  'os',
  'child_process',
  'crypto',
  'http',
  'https',
  'net',
  'stream',
  'stream/*',
  'url',
  'util',
  'zlib',
  'events',
  'worker_threads',
  'readline',
  'buffer',
];

/** A `no-restricted-imports` rule from gitignore-style import patterns and a reason. */
const restrict = (message, group) => ['error', { patterns: [{ group, message }] }];

const TESTS = ['**/*.spec.ts', 'src/test/**', 'conductor/test/**', 'conductor/bench/**', 'webview/jsdomPage.ts', 'webview/manualTimers.ts'];

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'node_modules/**',
      '.test-tools/**',
      '.vscode-test-host/**',
      '.vscode-test/**',
      'test-results/**',
      '**/*.js',
      '**/*.cjs',
      '**/*.mjs',
      'test-workspace*/**',
    ],
  },
  // typescript-eslint's recommended rules (they include ESLint's own recommended set, adjusted for TS).
  ...tseslint.configs.recommended.map((c) => ({ ...c, files: ['**/*.ts'] })),
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Deliberate floating promises are written `void p` (the style guide); unused values are bugs.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-debugger': 'error',
      'no-var': 'error',
      // A `let` read by a closure before its one assignment (a server handler that needs the server) is fine.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['webview/**/*.ts'],
    ignores: TESTS,
    rules: {
      'no-restricted-imports': restrict('the webview (browser) may import only src/protocol', [
        '**/src/**',
        '!**/src/protocol',
        '!**/src/protocol/**',
        '**/conductor/**',
        'vscode',
        ...NODE_BUILTINS,
      ]),
    },
  },
  {
    files: ['conductor/**/*.ts'],
    ignores: TESTS,
    rules: {
      'no-restricted-imports': restrict('the conductor may import only src/protocol and src/node (it runs without VS Code)', [
        '**/src/**',
        '!**/src/protocol',
        '!**/src/protocol/**',
        '!**/src/node',
        '!**/src/node/**',
        '**/webview/**',
        'vscode',
      ]),
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: [...TESTS, 'src/protocol/**', 'src/node/**'],
    rules: {
      'no-restricted-imports': restrict('the extension host may not import the webview or the conductor (they run in other processes)', [
        '**/webview/**',
        '**/conductor/**',
      ]),
    },
  },
  {
    files: ['src/node/**/*.ts'],
    ignores: TESTS,
    rules: {
      'no-restricted-imports': restrict('src/node is the shared Node layer: node:* and src/protocol only', [
        'vscode',
        '../*',
        '!../protocol',
        '!../protocol/**',
        '**/conductor/**',
        '**/webview/**',
      ]),
    },
  },
  {
    files: ['src/protocol/**/*.ts'],
    ignores: TESTS,
    rules: {
      'no-restricted-imports': restrict(
        'src/protocol is shared by every layer: no vscode, DOM or Node imports, nothing outside src/protocol',
        ['vscode', '../*', '**/conductor/**', '**/webview/**', ...NODE_BUILTINS],
      ),
    },
  },
);
