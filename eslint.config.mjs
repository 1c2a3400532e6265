// ESLint (flat config). Its main job is to enforce the layering (docs/architecture.md, "Rooms and
// the arrows between them"): each folder may import only from the folders below it.
//
//   webview/      → src/protocol
//   conductor/    → src/protocol, src/node
//   src/ (host)   → src/protocol, src/node, vscode          (never webview/ or conductor/)
//   src/node/     → src/protocol, node:*                    (never vscode)
//   src/protocol/ → nothing                                  (no vscode, DOM or Node)
//
//   conductor/components/<one>/ → not another component's folder (the chain's interface is shared)
//
// The same arrows hold for dynamic `import()` and `require()` (a lazily loaded module is still a
// dependency), and Node's built-ins are every module Node has, not a hand-kept list.
// Tests may reach across layers (a host test computes ElizACP's reply with its engine), so the
// zones apply to product code only. Formatting is Prettier's job (.prettierrc.json), not ESLint's.
// src/lintZones.spec.ts checks that a violation of each kind fails.
import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = ['node:*', ...builtinModules.flatMap((m) => [m, `${m}/*`])];
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const NODE_BUILTIN_RE = `^(node:.*|(${builtinModules.map(escape).join('|')})(\\/.*)?)$`;

/**
 * The rules of one zone: `no-restricted-imports` from gitignore-style patterns (static imports and
 * re-exports), and `no-restricted-syntax` from regular expressions on the module names of dynamic
 * `import()` and `require()` (which the first rule does not see).
 */
const zone = (message, group, dynamic) => ({
  'no-restricted-imports': ['error', { patterns: [{ group, message }] }],
  'no-restricted-syntax': [
    'error',
    ...dynamic.flatMap((re) => [
      { selector: `ImportExpression[source.value=/${re}/]`, message: `${message} (dynamic import)` },
      { selector: `CallExpression[callee.name="require"][arguments.0.value=/${re}/]`, message: `${message} (require)` },
    ]),
  ],
});

/** The conductor's components, each in its own folder: they share the chain's interface, not each other's code. */
const COMPONENT_FOLDERS = readdirSync(new URL('./conductor/components', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

const TESTS = ['**/*.spec.ts', 'src/test/**', 'conductor/test/**', 'conductor/bench/**', 'webview/test/**'];

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
      // The drivers in scripts/ are linted (and type-checked: tsconfig.scripts.json); other .mjs are config.
      '*.mjs',
      'test-fixtures/**',
    ],
  },
  // typescript-eslint's recommended rules (they include ESLint's own recommended set, adjusted for TS).
  ...tseslint.configs.recommended.map((c) => ({ ...c, files: ['**/*.ts', 'scripts/**/*.mjs'] })),
  {
    files: ['**/*.ts', 'scripts/**/*.mjs'],
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
    rules: zone(
      'the webview (browser) may import only src/protocol',
      ['**/src/**', '!**/src/protocol', '!**/src/protocol/**', '**/conductor/**', 'vscode', ...NODE_BUILTINS],
      ['(^|\\/)src\\/(?!protocol(\\/|$))', '(^|\\/)conductor\\/', '^vscode$', NODE_BUILTIN_RE],
    ),
  },
  {
    files: ['conductor/**/*.ts'],
    ignores: TESTS,
    rules: zone(
      'the conductor may import only src/protocol and src/node (it runs without VS Code)',
      ['**/src/**', '!**/src/protocol', '!**/src/protocol/**', '!**/src/node', '!**/src/node/**', '**/webview/**', 'vscode'],
      ['(^|\\/)src\\/(?!(protocol|node)(\\/|$))', '(^|\\/)webview\\/', '^vscode$'],
    ),
  },
  ...COMPONENT_FOLDERS.map((name) => ({
    files: [`conductor/components/${name}/**/*.ts`],
    ignores: TESTS,
    rules: zone(
      `a component (${name}) may not import another component's folder: share code through conductor/chain, conductor/components/*.ts or src/node`,
      [
        '**/src/**',
        '!**/src/protocol',
        '!**/src/protocol/**',
        '!**/src/node',
        '!**/src/node/**',
        '**/webview/**',
        'vscode',
        ...COMPONENT_FOLDERS.filter((other) => other !== name).flatMap((other) => [
          `../${other}`,
          `../${other}/**`,
          `**/components/${other}/**`,
        ]),
      ],
      [
        '(^|\\/)src\\/(?!(protocol|node)(\\/|$))',
        '(^|\\/)webview\\/',
        '^vscode$',
        `(^|\\/)(components\\/|\\.\\.\\/)(${COMPONENT_FOLDERS.filter((other) => other !== name)
          .map(escape)
          .join('|')})(\\/|$)`,
      ],
    ),
  })),
  {
    files: ['src/**/*.ts'],
    ignores: [...TESTS, 'src/protocol/**', 'src/node/**'],
    rules: zone(
      'the extension host may not import the webview or the conductor (they run in other processes)',
      ['**/webview/**', '**/conductor/**'],
      ['(^|\\/)webview\\/', '(^|\\/)conductor\\/'],
    ),
  },
  {
    files: ['src/node/**/*.ts'],
    ignores: TESTS,
    rules: zone(
      'src/node is the shared Node layer: node:* and src/protocol only',
      ['vscode', '../*', '!../protocol', '!../protocol/**', '**/conductor/**', '**/webview/**'],
      ['^vscode$', '^\\.\\.\\/(?!protocol(\\/|$))', '(^|\\/)conductor\\/', '(^|\\/)webview\\/'],
    ),
  },
  {
    files: ['src/protocol/**/*.ts'],
    ignores: TESTS,
    rules: zone(
      'src/protocol is shared by every layer: no vscode, DOM or Node imports, nothing outside src/protocol',
      ['vscode', '../*', '**/conductor/**', '**/webview/**', ...NODE_BUILTINS],
      ['^vscode$', '^\\.\\.\\/', '(^|\\/)conductor\\/', '(^|\\/)webview\\/', NODE_BUILTIN_RE],
    ),
  },
);
