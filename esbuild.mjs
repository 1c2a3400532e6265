// Builds the three bundles (extension host, webview, conductor) plus the test and bench
// entry points. `--production` minifies and drops test-only entry points; `--watch` rebuilds.
import * as esbuild from 'esbuild';
import { readdirSync, statSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const production = process.argv.includes('--production');
// --outdir=D: the shipped bundles go to D instead of out/ (the size-budget check builds them aside).
const outRoot = process.argv.find((a) => a.startsWith('--outdir='))?.slice('--outdir='.length) ?? 'out';
const watch = process.argv.includes('--watch');
// --conductor-package: only the conductor's bundles, with the npm package's entry point
// (scripts/package-conductor.mjs builds the `symposium-acp` package from them).
const conductorPackage = process.argv.includes('--conductor-package');

/** All .ts files under dir (recursively), for multi-entry test bundles. */
function tsFilesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return tsFilesUnder(p);
    return p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

const common = { bundle: true, sourcemap: true, minify: production, logLevel: 'warning', target: 'es2022' };

const builds = [
  // Extension host: CommonJS, `vscode` provided by the host. The ACP SDK (with zod, a third of
  // what the extension would be) is a bundle of its own, out/acp.js, loaded on the first agent
  // start (src/agents/acpSdk.ts): VS Code loads extension.js when the chat view opens.
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: `${outRoot}/extension.js`,
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
    plugins: [separateBundles([{ path: '@agentclientprotocol/sdk', from: 'src/agents/acpSdk.ts', file: 'acp.js' }])],
  },
  { ...common, entryPoints: ['src/agents/acpSdkBundle.ts'], outfile: `${outRoot}/acp.js`, platform: 'node', format: 'cjs' },
  // Webview: a browser IIFE; mynah-ui is bundled in.
  { ...common, entryPoints: ['webview/main.ts'], outfile: `${outRoot}/webview.js`, platform: 'browser', format: 'iife' },
  // The LM provider's vscode-jsonrpc half (src/lm/lmBundle.ts), loaded only with the setting on.
  { ...common, entryPoints: ['src/lm/lmBundle.ts'], outfile: `${outRoot}/lm.js`, platform: 'node', format: 'cjs', external: ['vscode'] },
  // The agent picker with the registry, installs and archive extraction, loaded on first use.
  {
    ...common,
    entryPoints: ['src/agents/registry/registryBundle.ts'],
    outfile: `${outRoot}/registry.js`,
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
  },
  // The protocol traffic viewer's page (src/traffic/trafficPanel.ts).
  { ...common, entryPoints: ['webview/traffic/main.ts'], outfile: `${outRoot}/traffic.js`, platform: 'browser', format: 'iife' },
  // The traffic viewer's panel (host side), loaded on first use (src/traffic/registerTraffic.ts).
  {
    ...common,
    entryPoints: ['src/traffic/trafficViewerBundle.ts'],
    outfile: `${outRoot}/trafficViewer.js`,
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
  },
  // Conductor: self-contained Node files (the ESM-only ACP SDK is bundled in), run by the extension
  // host's own Node (`process.execPath` + ELECTRON_RUN_AS_NODE=1 on desktop). Its entry point is a
  // small launcher that starts the agent, then loads the bundle of the role it runs (launcher.ts,
  // main.ts); see conductorBuilds below.
  ...conductorBuilds(),
];
if (!production) {
  // Extension-host test suites (run inside a real VS Code host; mocha comes from node_modules).
  const hostTests = tsFilesUnder('src/test');
  // Start clean: a renamed or deleted suite must not linger as a stale bundle.
  rmSync('out/test', { recursive: true, force: true });
  if (hostTests.length)
    builds.push({
      ...common,
      entryPoints: hostTests,
      outdir: 'out/test',
      outbase: 'src/test',
      platform: 'node',
      format: 'cjs',
      external: ['vscode', 'mocha'],
    });
  // The external-proxy fixtures (conductor/test/fixtures/proxies/), run as real processes by the
  // node and host tests.
  const proxyFixtures = ['promptRewriter', 'mcpInjector'].map((f) => `conductor/test/fixtures/proxies/${f}.ts`);
  builds.push({ ...common, entryPoints: proxyFixtures, outdir: 'out/fixtures/proxies', platform: 'node', format: 'cjs' });
  const bench = tsFilesUnder('conductor/bench');
  if (bench.length)
    builds.push({ ...common, entryPoints: bench, outdir: 'out/bench', outbase: 'conductor/bench', platform: 'node', format: 'cjs' });
}

/**
 * Makes the listed imports load another of our bundles at run time instead of bundling the module:
 * `import(path)` or `import … from path`, written in `from` (a file, or a folder's files), becomes
 * `require('./<file>')`, the bundle next to this one in out/, or its export `key` when the route
 * has one (a bundle of several modules, each re-exported whole under its own name). Run from source
 * (tsx), the imports are the modules themselves. A plain `require`, not an `import()` of the file:
 * no ES module loader in the process for it.
 */
function separateBundles(routes) {
  const resolved = routes.map((r) => ({ ...r, from: join(import.meta.dirname, r.from) }));
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return {
    name: 'separate-bundles',
    setup(build) {
      const filter = new RegExp(`^(${[...new Set(routes.map((r) => escape(r.path)))].join('|')})$`);
      build.onResolve({ filter }, (a) => {
        const route = resolved.find((r) => r.path === a.path && (a.importer === r.from || a.importer.startsWith(r.from + '/')));
        // The key is part of the path: one module per file and key.
        return route ? { path: route.key ? `${route.file}#${route.key}` : route.file, namespace: 'separate-bundle' } : undefined;
      });
      build.onLoad({ filter: /.*/, namespace: 'separate-bundle' }, (a) => {
        const [file, key] = a.path.split('#');
        const exported = key ? `[${JSON.stringify(key)}]` : '';
        return { contents: `module.exports = require(${JSON.stringify(`./${file}`)})${exported};`, loader: 'js' };
      });
      build.onResolve({ filter: /^\.\/[\w-]+\.js$/, namespace: 'separate-bundle' }, (a) => ({ path: a.path, external: true }));
    },
  };
}

/**
 * The conductor's bundles. Each role of conductor/main.ts is a bundle of its own, and so is the
 * language-server library the proxy loads with its first language server: a process reads and
 * compiles only the code it runs (0.34 MB for the proxy instead of 1 MB, since the MCP server
 * stack is a bundle of its own too), which shortens its start and keeps 1.5 MB (session 14) and
 * another ~2 MB (session 15) out of its idle memory (docs/benchmarks.md).
 */
function conductorBuilds({ standalone = false } = {}) {
  /** What conductor/mcp/mcpLibrary.ts re-exports, and under which name: these imports go to out/conductor-mcp.js. */
  const MCP_LIBRARY = {
    '@modelcontextprotocol/sdk/server/mcp.js': 'mcpServer',
    '@modelcontextprotocol/sdk/server/streamableHttp.js': 'streamableHttp',
    '@modelcontextprotocol/sdk/types.js': 'types',
    zod: 'zod',
  };
  const ROLES = {
    './cli': 'conductor-proxy.js',
    './eliza/main': 'conductor-eliza.js',
    './mcp/stdioBridge': 'conductor-mcp-bridge.js',
    './lm/vscodelm': 'conductor-proxy.js',
  };
  const routes = [
    // The roles as main.ts names them (the LM backend shares the proxy's bundle: proxyBundle.ts).
    ...Object.entries(ROLES).map(([path, file]) => ({ path, from: 'conductor/main.ts', file })),
    // The LSP library, from anywhere in the conductor (the protocol library re-exports vscode-jsonrpc).
    { path: 'vscode-languageserver-protocol/node', from: 'conductor', file: 'conductor-lsp.js' },
    { path: 'vscode-jsonrpc/node', from: 'conductor', file: 'conductor-lsp.js' },
    // The MCP server stack, from the proxy's modules (ElizACP's MCP client and the stdio shim
    // keep their own copies of what they use).
    ...['conductor/components', 'conductor/mcp', 'conductor/lm'].flatMap((from) =>
      Object.entries(MCP_LIBRARY).map(([path, key]) => ({ path, from, file: 'conductor-mcp.js', key })),
    ),
  ];
  const ENTRIES = {
    'conductor.js': 'conductor/launcher.ts',
    'conductor-proxy.js': 'conductor/proxyBundle.ts',
    'conductor-eliza.js': 'conductor/eliza/main.ts',
    'conductor-mcp-bridge.js': 'conductor/mcp/stdioBridge.ts',
    'conductor-lsp.js': 'conductor/components/ide-lsp/lspLibrary.ts',
    'conductor-mcp.js': 'conductor/mcp/mcpLibrary.ts',
    // The package's command in place of the editor's conductor.js, beside the role bundles it loads.
    ...(standalone ? { 'conductor.js': undefined, 'symposium-acp.js': 'conductor/standalone.ts' } : {}),
  };
  return Object.entries(ENTRIES)
    .filter(([, entry]) => entry !== undefined)
    .map(([file, entry]) => ({
      ...common,
      ...(file === 'symposium-acp.js' ? { banner: { js: '#!/usr/bin/env node' } } : {}),
      platform: 'node',
      format: 'cjs',
      entryPoints: [entry],
      outfile: `${outRoot}/${file}`,
      // A bundle does not route to itself (the library's own bundle bundles the library).
      plugins: [separateBundles(routes.filter((r) => r.file !== file))],
    }));
}

const selected = conductorPackage ? conductorBuilds({ standalone: true }) : builds;
const existing = selected.filter((b) => (b.entryPoints ?? []).every((e) => existsSync(e)));
if (watch) {
  for (const b of existing) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(existing.map((b) => esbuild.build(b)));
}
